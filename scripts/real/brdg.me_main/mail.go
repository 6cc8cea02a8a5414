package main

// E-mails as brdg.me's server sends them. The server (server/game/game.go,
// HandleCommandText) tells players about a command by e-mail: the player who sent it, the
// players whose turn it now is, those still to play who have new log messages, and at the
// end of the game everyone not yet told. Each e-mail is composed by SendGame
// (server/email/game.go) and sent by SendRichMail (server/email/email.go). The server's
// files need its database (server/model, RethinkDB); SendRichMail does not, and is built
// and called here as it is. SendGame's composition is followed line by line below, with the
// game's own state in place of the database's record (whose turn, finished, winners) and
// the game's commands for the "You can:" list (the server adds its own: say, concede, ...).
//
// SendRichMail sends by SMTP to BRDGME_EMAIL_SERVER_SMTP_ADDR; a small SMTP server here
// receives each message byte for byte as the mailer sent it. It answers EHLO with 502, so
// that Go's client greets with HELO and sends without AUTH (SendRichMail's PLAIN auth is for
// mail.brdg.me only).

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/Miniand/brdg.me/command"
	"github.com/Miniand/brdg.me/game/log"
	"github.com/Miniand/brdg.me/game/lost_cities"
	"github.com/Miniand/brdg.me/render"
	"github.com/Miniand/brdg.me/server/email"
)

type received struct {
	to   []string
	at   time.Time
	data []byte
}

type sink struct {
	mu   sync.Mutex
	mail []received
}

func startSink() (*sink, string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	s := &sink{}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.serve(conn)
		}
	}()
	return s, ln.Addr().String()
}

func (s *sink) serve(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	say := func(line string) { fmt.Fprintf(conn, "%s\r\n", line) }
	say("220 sink")
	var to []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		verb := strings.ToUpper(strings.Fields(line + " x")[0])
		switch verb {
		case "EHLO":
			say("502 5.5.2 command not recognised")
		case "HELO", "NOOP", "RSET":
			say("250 ok")
		case "MAIL":
			to = nil
			say("250 ok")
		case "RCPT":
			addr := strings.TrimSpace(line[strings.Index(line, ":")+1:])
			to = append(to, strings.Trim(addr, "<>"))
			say("250 ok")
		case "DATA":
			say("354 go ahead")
			var data []byte
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				if strings.HasPrefix(l, ".") { // the dot the client doubled
					l = l[1:]
				}
				data = append(data, l...)
			}
			s.mu.Lock()
			s.mail = append(s.mail, received{to: to, at: time.Now().UTC(), data: data})
			s.mu.Unlock()
			say("250 ok")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("500 unknown")
		}
	}
}

// mboxes writes each recipient's mailbox (mboxrd: a "From " line before each message,
// its CR LF line ends as LF, a body line beginning with "From " quoted with ">").
func (s *sink) mboxes(out, name string) {
	boxes := map[string]*strings.Builder{}
	order := []string{}
	for _, m := range s.mail {
		for _, to := range m.to {
			if boxes[to] == nil {
				boxes[to] = &strings.Builder{}
				order = append(order, to)
			}
			b := boxes[to]
			fmt.Fprintf(b, "From %s %s\n", email.FromAddr(), m.at.Format("Mon Jan _2 15:04:05 2006"))
			text := strings.ReplaceAll(string(m.data), "\r\n", "\n")
			for _, line := range strings.SplitAfter(text, "\n") {
				if strings.HasPrefix(strings.TrimLeft(line, ">"), "From ") {
					line = ">" + line
				}
				b.WriteString(line)
			}
			if !strings.HasSuffix(text, "\n") {
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
	}
	for _, to := range order {
		path := filepath.Join(out, name+"."+strings.ToLower(to)+".mbox")
		if err := os.WriteFile(path, []byte(boxes[to].String()), 0o644); err != nil {
			panic(err)
		}
	}
}

type mailer struct {
	gameID string
}

// sendGame is server/email/game.go's SendGame for this game.
func (m *mailer) sendGame(g *lost_cities.Game, to []string, header string, initial bool) {
	if header != "" {
		header += "\n\n"
	}
	if g.IsFinished() {
		winners := g.Winners()
		header += "The game is over"
		if len(winners) == 0 {
			header += ", it was a draw!"
		} else {
			header += ", the winners were: " + strings.Join(
				render.PlayerNamesInPlayers(winners, g.Players), ", ")
		}
	} else {
		header += "Current turn: " + strings.Join(render.PlayerNamesInPlayers(
			g.WhoseTurn(), g.Players), ", ")
	}
	for _, p := range to {
		pHeader := header
		rawOutput, err := g.RenderForPlayer(p)
		if err != nil {
			panic(err)
		}
		messages := g.GameLog().NewMessagesFor(p)
		if len(messages) > 0 {
			pHeader += "\n\n{{b}}Since last time:{{_b}}\n" +
				log.RenderMessages(messages)
		}
		g.GameLog().MarkReadFor(p)
		usages := command.CommandUsages(p, g, g.Commands(p))
		if len(usages) > 0 {
			pHeader += "\n\n{{b}}You can:{{_b}}\n" +
				render.CommandUsages(usages)
		}
		body := fmt.Sprintf(
			`%s

%s


You can also <a href="http://brdg.me/game.html?id=%s">continue playing this game live in your browser</a>.`,
			pHeader,
			rawOutput,
			m.gameID,
		)
		subject := fmt.Sprintf("%s (%s)", g.Name(), m.gameID)
		extraHeaders := []string{}
		messageId := m.gameID + "@brdg.me"
		if initial {
			extraHeaders = append(extraHeaders,
				fmt.Sprintf("Message-Id: <%s>", messageId))
		} else {
			extraHeaders = append(extraHeaders,
				fmt.Sprintf("In-Reply-To: <%s>", messageId))
		}
		if err := email.SendRichMail([]string{p}, subject, body, extraHeaders); err != nil {
			panic(err)
		}
	}
}

func newStrings(oldSlice, newSlice []string) (added, remaining []string) {
	old := map[string]bool{}
	for _, s := range oldSlice {
		old[s] = true
	}
	for _, s := range newSlice {
		if !old[s] {
			added = append(added, s)
		} else {
			remaining = append(remaining, s)
		}
	}
	return
}

// afterCommand is HandleCommandText's communication after a player's command.
func (m *mailer) afterCommand(g *lost_cities.Game, player string, whoseTurnBefore []string,
	wasFinished bool, output string) {
	m.sendGame(g, []string{player}, output, false)
	communicatedTo := []string{player}
	whoseTurnNow, remaining := newStrings(whoseTurnBefore, g.WhoseTurn())
	m.sendGame(g, whoseTurnNow, "", false)
	communicatedTo = append(communicatedTo, whoseTurnNow...)
	whoseTurnNewLogs := []string{}
	uncommunicated, _ := newStrings(communicatedTo, remaining)
	for _, p := range uncommunicated {
		if len(g.GameLog().NewMessagesFor(p)) > 0 {
			whoseTurnNewLogs = append(whoseTurnNewLogs, p)
		}
	}
	m.sendGame(g, whoseTurnNewLogs, "", false)
	communicatedTo = append(communicatedTo, whoseTurnNewLogs...)
	uncommunicated, _ = newStrings(communicatedTo, g.Players)
	if len(uncommunicated) > 0 && !wasFinished && g.IsFinished() {
		m.sendGame(g, uncommunicated, "", false)
	}
}
