// Command brdgme-go-driver plays a seeded game of brdg.me's Lost Cities (the Go program,
// github.com/Miniand/brdg.me, package game/lost_cities) with random legal moves and saves
// every player's game log exactly as brdg.me renders it, plus a JSON dump of the program's
// own state. It is built against a local copy of brdg.me (see docs/importers.md); it holds
// none of brdg.me's code.
//
// Legal moves come from the program itself: each candidate command ("play r5", "draw",
// "take g", ...) is passed to brdg.me's own command parser in a random order, and the
// first one it accepts is the move.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"

	"github.com/Miniand/brdg.me/command"
	"github.com/Miniand/brdg.me/game/card"
	"github.com/Miniand/brdg.me/game/log"
	"github.com/Miniand/brdg.me/game/lost_cities"
	"github.com/Miniand/brdg.me/render"
)

type turn struct {
	Player  string `json:"player"`
	Command string `json:"command"`
	Action  string `json:"action"`
	Card    string `json:"card"`
	Draw    string `json:"draw"`
	Drawn   string `json:"drawn,omitempty"`
}

type round struct {
	Number      int                 `json:"number"`
	Starter     string              `json:"starter"`
	Hands       map[string][]string `json:"hands"`
	DrawOrder   []string            `json:"draw_order"`
	Turns       []turn              `json:"turns"`
	Scores      map[string]int      `json:"scores,omitempty"`
	Expeditions map[string][]string `json:"expeditions,omitempty"`
}

type dump struct {
	Program  string         `json:"program"`
	Seed     int64          `json:"seed"`
	Players  []string       `json:"players"`
	Rounds   []*round       `json:"rounds"`
	Finished bool           `json:"finished"`
	Totals   map[string]int `json:"totals"`
	Pending  *turn          `json:"pending,omitempty"`
}

func cardName(c card.Card) string {
	src := c.(card.SuitRankCard)
	rank := fmt.Sprint(src.Rank)
	if src.Rank == 0 {
		rank = "X"
	}
	return lost_cities.SuitShortNames[src.Suit] + rank
}

func names(d card.Deck) []string {
	out := []string{}
	for _, c := range d {
		out = append(out, cardName(c))
	}
	return out
}

func startRound(g *lost_cities.Game) *round {
	r := &round{Number: g.Round + 1, Starter: g.Players[g.CurrentlyMoving],
		Hands: map[string][]string{}, Turns: []turn{}}
	for p, name := range g.Players {
		r.Hands[name] = names(g.Board.PlayerHands[p])
	}
	pile := g.Board.DrawPile
	for i := len(pile) - 1; i >= 0; i-- { // brdg.me draws from the end of its pile
		r.DrawOrder = append(r.DrawOrder, cardName(pile[i]))
	}
	return r
}

func endRound(g *lost_cities.Game, r *round, number int) {
	r.Scores = map[string]int{}
	for p, name := range g.Players {
		r.Scores[name] = g.RoundScores[p][number-1]
	}
}

func diff(after, before card.Deck) string {
	left := append(card.Deck{}, before...)
	for _, c := range after {
		found := false
		for i, b := range left {
			if cardName(b) == cardName(c) {
				left = append(left[:i], left[i+1:]...)
				found = true
				break
			}
		}
		if !found {
			return cardName(c)
		}
	}
	return ""
}

// mail, when set, tells the players of each command by e-mail as brdg.me's server does
// (mail.go).
var mail *mailer

func try(g *lost_cities.Game, player string, cands []string) (string, error) {
	whoseTurn, finished := g.WhoseTurn(), g.IsFinished()
	for _, c := range cands {
		if output, err := command.CallInCommands(player, g, c, g.Commands(player)); err == nil {
			if mail != nil {
				mail.afterCommand(g, player, whoseTurn, finished, output)
			}
			return c, nil
		}
	}
	return "", fmt.Errorf("no legal move among %v", cands)
}

func main() {
	seed := flag.Int64("seed", 1, "seed of the move choices")
	out := flag.String("out", ".", "directory of the fixtures")
	name := flag.String("name", "game", "base name of the fixture files")
	players := flag.String("players", "Mick,Steve", "the two players")
	stopTurns := flag.Int("stop-after", 0, "stop after this many whole turns (0: play to the end)")
	half := flag.Bool("half", false, "after stopping, place one more card without drawing (a mid-turn save)")
	takeBias := flag.Float64("take", 0.35, "chance to try taking a discard before drawing")
	mailboxes := flag.Bool("mail", false, "also send brdg.me's e-mails and keep each player's mailbox")
	flag.Parse()
	var received *sink
	if *mailboxes {
		var addr string
		received, addr = startSink()
		os.Setenv("BRDGME_EMAIL_SERVER_SMTP_ADDR", addr)
		mail = &mailer{gameID: fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", *seed*2654435761%(1<<32),
			*seed%(1<<16), *seed%(1<<12), (*seed*7)%(1<<12), *seed*40503)}
	}
	rng := rand.New(rand.NewSource(*seed))
	g := &lost_cities.Game{}
	ps := strings.Split(*players, ",")
	if err := g.Start(ps); err != nil {
		panic(err)
	}
	d := &dump{Program: "brdg.me (Go) game/lost_cities", Seed: *seed, Players: ps}
	if mail != nil { // new_command.go: the invitation, to every player
		mail.sendGame(g, g.Players, "You have been invited by "+ps[0]+" to play "+g.Name()+"!", true)
	}
	cur := startRound(g)
	d.Rounds = append(d.Rounds, cur)
	turns := 0
	colours := []string{"r", "g", "b", "w", "y"}
	for !g.IsFinished() {
		if *stopTurns > 0 && turns >= *stopTurns && !*half {
			break
		}
		p := g.CurrentlyMoving
		player := g.Players[p]
		hand := g.Board.PlayerHands[p]
		var plays, discards []string
		for _, c := range hand {
			n := strings.ToLower(cardName(c))
			plays = append(plays, "play "+n)
			discards = append(discards, "discard "+n)
		}
		rng.Shuffle(len(plays), func(i, j int) { plays[i], plays[j] = plays[j], plays[i] })
		rng.Shuffle(len(discards), func(i, j int) { discards[i], discards[j] = discards[j], discards[i] })
		var cands []string
		if rng.Float64() < 0.55 {
			cands = append(plays, discards...)
		} else {
			cands = append(discards, plays...)
		}
		placed, err := try(g, player, cands)
		if err != nil {
			panic(err)
		}
		parts := strings.Fields(placed)
		t := turn{Player: player, Command: placed, Action: parts[0], Card: strings.ToUpper(parts[1])}
		if *stopTurns > 0 && turns >= *stopTurns {
			d.Pending = &t
			break
		}
		before := append(card.Deck{}, g.Board.PlayerHands[p]...)
		var draws []string
		takes := []string{}
		for _, c := range colours {
			takes = append(takes, "take "+c)
		}
		rng.Shuffle(len(takes), func(i, j int) { takes[i], takes[j] = takes[j], takes[i] })
		if rng.Float64() < *takeBias {
			draws = append(takes, "draw")
		} else {
			draws = append([]string{"draw"}, takes...)
		}
		roundBefore := g.Round
		drew, err := try(g, player, draws)
		if err != nil {
			panic(err)
		}
		t.Command += "; " + drew
		if drew == "draw" {
			t.Draw = "deck"
		} else {
			t.Draw = strings.ToUpper(strings.Fields(drew)[1])
		}
		if g.Round == roundBefore {
			t.Drawn = diff(g.Board.PlayerHands[p], before)
		} else {
			t.Drawn = cur.DrawOrder[len(cur.DrawOrder)-1]
		}
		cur.Turns = append(cur.Turns, t)
		turns++
		if g.Round != roundBefore {
			endRound(g, cur, roundBefore+1)
			if !g.IsFinished() {
				cur = startRound(g)
				d.Rounds = append(d.Rounds, cur)
			}
		}
	}
	d.Finished = g.IsFinished()
	d.Totals = map[string]int{}
	for p, n := range g.Players {
		d.Totals[n] = g.PreviousRoundsPlayerScore(p)
	}
	write := func(suffix, text string) {
		if err := os.WriteFile(filepath.Join(*out, *name+suffix), []byte(text), 0o644); err != nil {
			panic(err)
		}
	}
	// The log as brdg.me shows it to each player (the e-mail's and the web page's
	// "Since last time" text): log.RenderMessages, then the plain renderer the e-mail uses,
	// and the terminal renderer of brdg.me's command-line client.
	for _, viewer := range g.Players {
		raw := log.RenderMessages(g.GameLog().MessagesFor(viewer))
		write("."+strings.ToLower(viewer)+".txt", render.RenderPlain(raw)+"\n")
		term, err := render.RenderTerminal(raw)
		if err != nil {
			panic(err)
		}
		write("."+strings.ToLower(viewer)+".ansi.txt", term+"\n")
	}
	write(".public.txt", render.RenderPlain(log.RenderMessages(g.GameLog().PublicMessages()))+"\n")
	if received != nil {
		received.mboxes(*out, *name)
	}
	js, _ := json.MarshalIndent(d, "", "  ")
	write(".state.json", string(js)+"\n")
}
