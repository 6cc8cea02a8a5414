"""brdg.me (brdgme) Lost Cities: the rendered game log, or the commands typed.

brdg.me is a play-by-email and web site; its Lost Cities (Go: Miniand/brdg.me; Rust:
brdgme/lost-cities) plays a match of three rounds with the official rules. Two kinds of text are read:

* the **log** as the site shows it, one entry a line (the ``{{...}}`` markup of the raw
  log may be left in; ``{{player 0}}`` becomes "Player 1"; the Go version's ``... will
  start round 2`` and ``It is the end of round 1`` are read too)::

      Starting round 1
      Mick drew 8 cards, 52 remaining
      You drew R3, R5, GX, G4, W2, B7, Y2, Y9      (private: only the viewer's deal)
      Steve drew 8 cards, 44 remaining
      Mick played R5
      Mick drew a card, 43 remaining
      You drew B4                                  (private: the viewer's draw)
      Steve discarded GX
      Steve took Y7
      Mick scored 34 points, now on 61
      The game is over.

* the **commands** players type, one a line, optionally after the player's name and a
  colon: ``play R5``, ``discard GX``, ``draw``, ``take Y``.

Cards are a colour letter (R G W B Y) and 2-10, or X for a wager. Each round becomes one
LCN game of a match: ``[Match]`` names the match, ``[Game]`` the round; ``Player1`` is
the player who begins the round (brdg.me lets the leader of the match begin the next
round). The viewer's private lines are that player's view of the game: their starting
hand becomes their ``Hand`` tag and their draws from the deck name the card (``/d=B4``);
the other player's draws stay hidden, as they are in the log. Without names (commands
alone) the players are "Player 1" and "Player 2" in brdg.me's seat order, and the next
round's first player follows brdg.me's rule (the leader; after a tie, the player who did
not draw the round's last card).

What the real programs print (tests/data/real, made by the programs themselves) is read
as it is: terminal colour codes are left out; a stamp before an entry is skipped (brdg.me's
Go ``01 Mar 16 22:21 UTC:``, brdgme's Rust ``2018-03-01 09:00:00.123456789 -``, ``[12:04]``,
``2017-03-01 12:04``); names lose their decoration (``<Mick>``, ``• Mick``); the separator
lines of brdgme's web page (``- 2018-3-1, 9:00 AM -``, ``- Thu, 9:00 AM -``, ...) are blank
lines. brdgme's REPL output is recognised by its opening and read by its stamps, as the REPL
prints its entries without line breaks between them and draws its board after them
(:func:`repl_entries`); it shows both players' private lines, so it gives both deals and every
draw. The HTML of brdgme's web page log panel is read entry by entry (:func:`web_entries`);
brdg.me's e-mails (a mailbox) and its command line's output by the log under ``Since last
time:`` in each e-mail or section (:mod:`.brdgme_mail`, :func:`mail_entries`).

brdgme's engine does not log a round's last draw (the pile runs out and it logs the round's
end in its place): a scored round whose last placement has no draw, with one card left,
gets that draw back, with an ``inferred`` note (:meth:`_Match.last_draw`).

Every other line that is not one of these entries is an error with its line and column.
brdgme also plays a 3-player game (hands of 7, expedition cost 15): that is not classic Lost
Cities and is refused with a clear message.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Severity
from ..messages import msg, template
from ..model import GameRecord
from ..variants.classic import CLASSIC_5, COLOUR_NAMES
from .base import Conversion, Importer, SourceMap, Span, note, shown, syntax_error
from .brdgme_mail import MailLine, cli_lines, is_cli_transcript, is_mailbox, mail_lines
from .common import CLASSIC, GameBuilder

CARD = r"[RGWBY](?:X|10|[2-9])"
_MARKUP_PLAYER = re.compile(r"\{\{\s*player\s+(\d{1,9})\s*\}\}")
_MARKUP = re.compile(r"\{\{[^{}]*\}\}")
_STAMP = re.compile(r"(?:\[[^\]]{1,40}\]\s*"
                    r"|\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?\s*(?:[-|:]\s+)?"
                    r"|\d\d? [A-Z][a-z]{2} \d\d \d\d:\d\d [A-Z]{1,5}:\s+"
                    r"|\d\d?:\d\d(?::\d\d)?\s*(?:[-|]\s+)?|[-*•]\s+)")
#: The colour codes of a terminal (brdg.me's command line and brdgme's REPL print them).
_ANSI = re.compile(r"\x1b\[[0-9;?]*+[A-Za-z]")
#: The separator brdgme's web page puts before an entry logged more than ten minutes after
#: the one before (brdgme/web ``renderLogs``): the time in moment's ``h:mm A``, after the day
#: as ``ddd`` (this week), ``MMM D`` (this year) or ``YYYY-M-D`` (before):
#: ``- 9:00 AM -``, ``- Thu, 9:00 AM -``, ``- Mar 1, 9:00 AM -``, ``- 2018-3-1, 9:00 AM -``.
_SEPARATOR = re.compile(r"-[ \t]++(?:(?:\d{4}-\d\d?-\d\d?|[A-Z][a-z]{2}(?: \d\d?)?),[ \t]++)?"
                        r"\d\d?:\d\d(?::\d\d)?(?:[ \t]++[AP]M)?[ \t]++-")
#: brdgme's REPL stamps each entry with the time, to the nanosecond, and prints the entries of
#: one command one after the other without a line break between them.
_REPL_STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,9})? - ")
_REPL_OPENING = "Enter player 1 (or blank to finish): "
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("round", re.compile(r"starting round (\d{1,9})", re.I)),
    ("round", re.compile(r".+? will start round (\d{1,9})", re.I)),  # brdg.me's Go version
    ("over", re.compile(r"the game is over|it is the end of round \d+", re.I)),
    ("private", re.compile(r"you drew ((?:" + CARD + r")(?:\s*,\s*" + CARD + r")*)", re.I)),
    ("deal", re.compile(r"(.+?) drew (\d{1,9}) cards, (\d{1,9}) remaining", re.I)),
    ("draw", re.compile(r"(.+?) drew a card, (\d{1,9}) remaining", re.I)),
    ("place", re.compile(r"(.+?) (played|discarded) (" + CARD + r")", re.I)),
    ("take", re.compile(r"(.+?) took (" + CARD + r")", re.I)),
    ("scored", re.compile(r"(.+?) scored (-?\d{1,9}) points?, now on (-?\d{1,9})", re.I)),
    # The name before a command's colon ends on its last non-space: ``[^:]*[^:\s]`` finds it
    # in one pass, where ``[^:]+?\s*:`` would try every split of a run of spaces.
    ("command", re.compile(r"(?:([^:]*[^:\s])\s*+:\s*+)?(play|discard)\s++(" + CARD + r")", re.I)),
    ("command", re.compile(r"(?:([^:]*[^:\s])\s*+:\s*+)?(draw)", re.I)),
    ("command", re.compile(r"(?:([^:]*[^:\s])\s*+:\s*+)?(take)\s++([RGWBY])", re.I)),
]


def lcn_card(text: str) -> str:
    """A brdgme card (``GX``, ``r10``) in LCN (``Gw``, ``R10``)."""
    colour, value = text[0].upper(), text[1:].upper()
    return colour + ("w" if value == "X" else value)


def brdgme_card(card: str) -> str:
    """An LCN card (``Gw``) as brdgme writes it (``GX``)."""
    return card[:1] + ("X" if card[1:] == "w" else card[1:])


@dataclass
class Entry:
    """One line of the log or one command, with its place."""

    kind: str
    line: int
    column: int
    length: int
    name: str | None = None
    verb: str = ""
    card: str | None = None
    cards: list[str] = field(default_factory=list)
    count: int = 0
    left: int | None = None
    score: int = 0
    total: int = 0

    @property
    def span(self) -> Span:
        return (self.line, self.column, self.length)


def _name(text: str) -> str:
    """A player's name without its decoration: brdgme writes ``<Mick>``, brdg.me ``• Mick``."""
    text = text.strip()
    if text.startswith("•"):
        text = text[1:].lstrip()
    if len(text) > 2 and text[0] == "<" and text[-1] == ">":
        text = text[1:-1].strip()
    return text


def _entry(kind: str, groups: tuple[str | None, ...], number: int, column: int,
           length: int) -> Entry:
    entry = Entry(kind, number, column, length)
    if kind == "round":
        entry.count = int(groups[0] or 0)
    elif kind == "private":
        entry.cards = [lcn_card(c.strip()) for c in (groups[0] or "").split(",")]
    elif kind == "deal":
        entry.name, entry.count, entry.left = _name(groups[0] or ""), int(groups[1] or 0), \
            int(groups[2] or 0)
    elif kind == "draw":
        entry.name, entry.left = _name(groups[0] or ""), int(groups[1] or 0)
    elif kind == "place":
        entry.name, entry.verb = _name(groups[0] or ""), (groups[1] or "").lower()
        entry.card = lcn_card(groups[2] or "")
    elif kind == "take":
        entry.name, entry.card = _name(groups[0] or ""), lcn_card(groups[1] or "")
    elif kind == "scored":
        entry.name, entry.score, entry.total = _name(groups[0] or ""), int(groups[1] or 0), \
            int(groups[2] or 0)
    elif kind == "command":
        entry.name = _name(groups[0]) if groups[0] is not None else None
        entry.verb = (groups[1] or "").lower()
        if entry.verb in ("play", "discard"):
            entry.card = lcn_card(groups[2] or "")
        elif entry.verb == "take":
            entry.card = (groups[2] or "").upper()
    return entry


def _unknown(text: str) -> str:
    return msg("`{shown}` is not a brdg.me Lost Cities log entry or command (expected e.g. "
               "`Mick played R5`, `Mick drew a card, 23 remaining`, `You drew B4`, "
               "`Starting round 2`, or a command `play R5`, `discard GX`, `draw`, `take Y`)",
               shown=shown(text))


class _Shown:
    """Text without its terminal colour codes, and the way back to the columns of the input.

    Entries are read in the text as a terminal shows it; a diagnostic points at the input as
    it is (an editor shows the codes), so positions are mapped back: ``raw(p)`` is where the
    shown character ``p`` is in the input.
    """

    def __init__(self, raw: str) -> None:
        self.positions: list[int] = []  # shown positions after which codes were left out
        self.removed: list[int] = []  # how many characters were left out up to there
        if "\x1b" not in raw:
            self.text = raw
            return
        parts: list[str] = []
        last = 0
        shown_length = 0
        removed = 0
        for code in _ANSI.finditer(raw):
            parts.append(raw[last:code.start()])
            shown_length += code.start() - last
            removed += code.end() - code.start()
            self.positions.append(shown_length)
            self.removed.append(removed)
            last = code.end()
        parts.append(raw[last:])
        self.text = "".join(parts)

    def raw(self, position: int) -> int:
        index = bisect_right(self.positions, position)
        return position + (self.removed[index - 1] if index else 0)


def parse_line(number: int, raw: str) -> Entry | str | None:
    """The entry of one line; None for a blank line; an error message for anything else.

    Terminal colour codes and the ``{{...}}`` markup are left out first; a stamp before the
    entry (brdg.me's ``01 Mar 16 22:21 UTC:``, brdgme's ``2018-03-01 09:00:00.123456789 -``,
    ``[12:04]``) is skipped; a line that is only the separator brdgme's web page puts between
    entries (``- 2018-3-1, 9:00 AM -``) is read as blank.
    """
    parsed = _parse(number, raw)
    return parsed[0] if isinstance(parsed, tuple) else parsed


def _parse(number: int, raw: str) -> Entry | tuple[str, int, int] | None:
    """:func:`parse_line`, with the column and length of what is not an entry."""
    shown_line = _Shown(raw)
    text = _MARKUP_PLAYER.sub(lambda m: f"Player {int(m.group(1)) + 1}", shown_line.text)
    text = _MARKUP.sub("", text)
    stripped = text.strip()
    if not stripped or _SEPARATOR.fullmatch(stripped):
        return None
    column = text.index(stripped)
    start = 0  # positions, not slices: a line of many stamps is read in one pass
    while (stamp := _STAMP.match(stripped, start)) is not None and stamp.end() > start:
        start = stamp.end()
    column += start
    stripped = stripped[start:].rstrip(".! ")
    raw_column = shown_line.raw(column) + 1
    raw_length = shown_line.raw(column + max(len(stripped), 1) - 1) + 2 - raw_column
    for kind, pattern in _PATTERNS:
        m = pattern.fullmatch(stripped)
        if m is not None:
            return _entry(kind, m.groups(), number, raw_column, raw_length)
    return _unknown(stripped), raw_column, raw_length


def is_repl(text: str) -> bool:
    """Whether the text is what brdgme's REPL printed (it opens by asking for the players)."""
    head = text[:400]
    return _REPL_OPENING in (_ANSI.sub("", head) if "\x1b" in head else head)


#: After an entry of the REPL comes the next entry's stamp, or what the REPL prints between
#: commands: the board (on a new line or after spaces that pad the line) or, at the end, the
#: placings.
_REPL_AFTER = re.compile(r"\s|The game is over, placings: ")


def repl_entries(text: str) -> tuple[list[Entry], list[Diagnostic]]:
    """The log entries in the output of brdgme's REPL, with their lines and columns.

    The REPL prints each entry as ``<stamp> - <entry>`` with no line break after it, so the
    entries of one command run on in one line and the last one is followed by the board it
    draws next. Entries are found by their stamps; the board, the help and the prompts
    between them are the REPL's own text and carry nothing of the game (every card they show
    is in the entries too). Columns count the characters shown, not the colour codes.
    """
    shown_input = _Shown(text)
    shown_text = shown_input.text
    entries: list[Entry] = []
    problems: list[Diagnostic] = []
    stamps = list(_REPL_STAMP.finditer(shown_text))
    line, line_start, counted = 1, 0, 0
    for index, stamp in enumerate(stamps):
        line += shown_text.count("\n", counted, stamp.start())
        newline = shown_text.rfind("\n", counted, stamp.start())
        if newline >= 0:
            line_start = shown_input.raw(newline) + 1
        counted = stamp.start()
        end = stamps[index + 1].start() if index + 1 < len(stamps) else len(shown_text)
        newline = shown_text.find("\n", stamp.end(), end)
        body = shown_text[stamp.end():newline if newline >= 0 else end]
        column = shown_input.raw(stamp.end()) - line_start + 1

        def length(shown_length: int, start: int = stamp.end()) -> int:
            last = start + max(shown_length, 1) - 1
            return shown_input.raw(last) + 1 - shown_input.raw(start)

        for kind, pattern in _PATTERNS:
            if kind == "command":
                continue
            m = pattern.match(body)
            if m is None:
                continue
            rest = body[m.end():]
            if rest.startswith("."):
                rest = rest[1:]
            if rest and not _REPL_AFTER.match(rest):
                continue
            entries.append(_entry(kind, m.groups(), line, column, length(m.end())))
            break
        else:
            # What the REPL prints after the entry (the board, padded with spaces) is not shown.
            entry = body.split("   ", 1)[0].strip()
            problems.append(note("brdgme-syntax", _unknown(entry[:80]), Severity.ERROR,
                                 line=line, column=column, length=length(len(entry))))
    return entries, problems


#: One entry of the log panel of brdgme's web page (brdgme/web ``renderLogs``), as React
#: renders it and the browser's DOM holds it: the separator (``<div class="log-time">``) or an
#: empty ``<div>``, then the entry's HTML as brdgme's API renders its markup (``<b>``,
#: ``<span style=...>``, the text escaped).
_WEB_ENTRY = re.compile(r'<div class="game-log-entry">\s*+(?:<div class="log-time">([^<]*+)</div>'
                        r'|<div></div>)\s*+<div>((?:[^<]|<(?!/?div\b))*+)</div>\s*+</div>')
_WEB_MARK = '<div class="game-log-entry">'
#: A tag, a character reference, or one character of text.
_HTML_TOKEN = re.compile(r"<[^<>]*+>|&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});|[^<&]+|[<&]",
                         re.S)


def is_web_page(text: str) -> bool:
    """Whether the text is the HTML of the log panel of brdgme's web page."""
    return _WEB_MARK in text[:100000]


def _html_text(text: str, start: int, end: int) -> tuple[str, list[int]]:
    """The text of ``text[start:end]`` as a browser shows it: its tags left out, its
    character references replaced, each run of white space one space (a page saved with its
    lines broken reads as the page); and for each character the place in ``text`` it comes
    from."""
    parts: list[str] = []
    places: list[int] = []
    for token in _HTML_TOKEN.finditer(text, start, end):
        piece = token.group()
        if piece[0] == "<" and len(piece) > 1:
            continue
        if piece[0] == "&" and len(piece) > 1:
            parts.append(html.unescape(piece))
            places.append(token.start())
            continue
        for offset, char in enumerate(piece, token.start()):
            if char in " \t\r\n\f":
                if parts and parts[-1] == " ":
                    continue
                char = " "
            parts.append(char)
            places.append(offset)
    return "".join(parts), places


def web_entries(text: str) -> tuple[list[Entry], list[Diagnostic]]:
    """The log entries of brdgme's web page, from the HTML of its log panel.

    Each ``game-log-entry`` holds a separator or nothing, then one entry; both are read as
    the lines of the copied text are (:func:`_parse`), on the text without tags, and every
    place is that of the HTML as it is. What lies around the entries (the panel's players,
    ratings and actions) is the page's own and is not read; an entry the pattern does not
    take whole (cut off, or edited into other markup) is an error at its place.
    """
    entries: list[Entry] = []
    problems: list[Diagnostic] = []
    line_starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def place(offset: int) -> tuple[int, int]:
        line = bisect_right(line_starts, offset)
        return line, offset - line_starts[line - 1] + 1

    def read(start: int, end: int) -> None:
        shown_text, places = _html_text(text, start, end)
        if not places:
            places = [start]
        parsed = _parse(0, shown_text)
        if parsed is None:
            return
        column, length = (parsed[1], parsed[2]) if isinstance(parsed, tuple) else \
            (parsed.column, parsed.length)
        first = places[min(column - 1, len(places) - 1)]
        last = places[min(column + length - 2, len(places) - 1)]
        line, raw_column = place(first)
        raw_length = max(last - first + 1, 1)
        if isinstance(parsed, tuple):
            problems.append(note("brdgme-syntax", parsed[0], Severity.ERROR, line=line,
                                 column=raw_column, length=raw_length))
        else:
            parsed.line, parsed.column, parsed.length = line, raw_column, raw_length
            entries.append(parsed)

    position = text.find(_WEB_MARK)
    while position >= 0:
        following = text.find(_WEB_MARK, position + 1)
        m = _WEB_ENTRY.match(text, position)
        if m is None:
            # Not an entry as the page writes it: what it holds is read as an entry would be,
            # so the message names the text that is wrong, at its place.
            before = len(problems)
            read(position + len(_WEB_MARK), following if following >= 0 else len(text))
            if len(problems) == before:
                line, column = place(position)
                problems.append(note("brdgme-syntax", _unknown(shown(text[position:position + 60])),
                                     Severity.ERROR, line=line, column=column,
                                     length=len(_WEB_MARK)))
            break
        if m.group(1) is not None:
            read(m.start(1), m.end(1))
        read(m.start(2), m.end(2))
        position = following
    return entries, problems


def mail_entries(lines: list[MailLine]) -> tuple[list[Entry], list[Diagnostic]]:
    """The log entries of brdg.me's e-mails (a mailbox, or one e-mail) or of its command
    line's output: the lines under ``Since last time:`` (:mod:`.brdgme_mail`), read as the
    lines of a log are, each placed in the file as it is."""
    entries: list[Entry] = []
    problems: list[Diagnostic] = []
    for mail_line in lines:
        parsed = _parse(0, mail_line.text)
        if mail_line.stray:  # where only a stamped message can be
            shown_text = _ANSI.sub("", mail_line.text)
            line, column, length = mail_line.where(1, len(mail_line.text))
            problems.append(note("brdgme-syntax", _unknown(shown_text.strip()), Severity.ERROR,
                                 line=line, column=column, length=length))
            continue
        if parsed is None:
            continue
        column, length = (parsed[1], parsed[2]) if isinstance(parsed, tuple) else \
            (parsed.column, parsed.length)
        line, raw_column, raw_length = mail_line.where(column, length)
        if isinstance(parsed, tuple):
            problems.append(note("brdgme-syntax", parsed[0], Severity.ERROR, line=line,
                                 column=raw_column, length=raw_length))
        else:
            parsed.line, parsed.column, parsed.length = line, raw_column, raw_length
            entries.append(parsed)
    return entries, problems


class BrdgmeImporter(Importer):
    name = "brdgme"
    title = template("brdg.me log or commands")

    def detect(self, text: str) -> float:
        if is_mailbox(text) or is_web_page(text) or is_cli_transcript(text):
            return 0.95
        if is_repl(text):
            head = text[:20000]
            return 0.95 if _REPL_STAMP.search(_ANSI.sub("", head)) is not None else 0.5
        lines = [line for line in text.split("\n", 300)[:300] if line.strip()]
        if not lines:
            return 0.0
        entries = [parse_line(i, line) for i, line in enumerate(lines, 1)]
        good = [e for e in entries if isinstance(e, Entry)]
        if len(good) < 2:
            return 0.0
        # Its entries and commands are fixed phrases; a narrated log's freer sentences stay
        # below this (at most 0.85) even where both read a line.
        return 0.9 * len(good) / len(lines)

    def read(self, text: str) -> Conversion:
        entries: list[Entry] = []
        problems: list[Diagnostic] = []
        if is_repl(text):
            entries, problems = repl_entries(text)
        elif is_mailbox(text):
            entries, problems = mail_entries(mail_lines(text))
        elif is_cli_transcript(text):
            read, checked = cli_lines(text)
            entries, problems = mail_entries(read)
            problems += mail_entries(checked)[1]
            problems.sort(key=lambda d: (d.line or 0, d.column or 0))
        elif is_web_page(text):
            entries, problems = web_entries(text)
        else:
            for number, line in enumerate(text.split("\n"), 1):
                parsed = _parse(number, line)
                if isinstance(parsed, tuple):
                    message, column, length = parsed
                    problems.append(note("brdgme-syntax", message, Severity.ERROR, line=number,
                                         column=column, length=length))
                elif parsed is not None:
                    entries.append(parsed)
        if problems:
            raise syntax_error(self.name, problems)
        if not entries:
            raise syntax_error(self.name, [note("brdgme-syntax", msg("no log entry or command found"),
                                                Severity.ERROR)])
        kinds = {e.kind == "command" for e in entries}
        if len(kinds) == 2:
            first_log = next(e for e in entries if e.kind != "command")
            first_command = next(e for e in entries if e.kind == "command")
            later = max(first_log, first_command, key=lambda e: e.line)
            raise syntax_error(self.name, [note(
                "brdgme-syntax", msg("log entries (line {log}) and typed commands (line "
                                     "{command}) are mixed: give one or the other",
                                     log=first_log.line, command=first_command.line),
                Severity.ERROR,
                line=later.line, column=later.column, length=later.length)])
        return _Match(entries, commands=True in kinds).convert()


class _Stop(Exception):
    """A problem after which the rest of the log cannot be followed."""


class _Match:
    """Turns the entries of a brdg.me match into one LCN game per round."""

    def __init__(self, entries: list[Entry], *, commands: bool) -> None:
        self.entries = entries
        self.commands = commands
        self.problems: list[Diagnostic] = []
        self.diagnostics: list[Diagnostic] = []
        self.players: list[str] = []  # brdgme's seat order
        self.viewer: str | None = None
        self.records: list[GameRecord] = []
        self.sources: list[SourceMap | None] = []
        self.totals: dict[str, int] = {}
        self.last_drawer: str | None = None

    def fail(self, entry: Entry, message: str) -> None:
        self.problems.append(note("brdgme-log", message, Severity.ERROR, line=entry.line,
                                  column=entry.column, length=entry.length))

    def register(self, name: str, entry: Entry) -> None:
        if name in self.players:
            return
        if len(self.players) == 2:
            self.fail(entry, msg("a third player, '{name}' (the others are {first} and "
                                 "{second}): brdgme's 3-player game is not classic Lost Cities "
                                 "(hands of 7, expedition cost 15, bonus at 7 cards) and has no "
                                 "LCN record", name=shown(name), first=self.players[0],
                                 second=self.players[1]))
            raise _Stop
        self.players.append(name)

    def convert(self) -> Conversion:
        segments: list[tuple[int | None, list[Entry]]] = [(None, [])]
        for entry in self.entries:
            if entry.kind == "round":
                if segments[-1][1] or segments[-1][0] is not None:
                    segments.append((entry.count, []))
                else:
                    segments[-1] = (entry.count, [])
                continue
            segments[-1][1].append(entry)
        try:
            for number, entries in segments:
                self.round(number, entries)
        except _Stop:
            pass
        if self.problems:
            raise syntax_error("brdgme", self.problems)
        if not self.records:
            raise syntax_error("brdgme", [note("brdgme-log", msg("the log holds no turn"),
                                                          Severity.ERROR)])
        match = f"{self.players[0]} vs {self.players[1]} (brdg.me)"
        for record in self.records:
            record.tags["Match"] = match
        return Conversion(self.records, self.diagnostics, self.sources)

    # -- one round --------------------------------------------------------------------
    def round(self, number: int | None, entries: list[Entry]) -> None:
        deal: dict[str, list[str]] = {}
        owner: Entry | None = None  # the public entry the next private line belongs to
        actions: list[Entry] = []
        scores: dict[str, Entry] = {}
        for entry in entries:
            if entry.name is not None and entry.kind != "scored":
                self.register(entry.name, entry)
            if entry.kind == "private":
                self.private(entry, owner, deal)
                owner = None
                continue
            owner = entry if entry.kind in ("deal", "draw") else None
            if entry.kind == "deal":
                if entry.count != CLASSIC_5.hand_size:
                    self.fail(entry, msg("{name} is dealt {count} cards: a 2-player game "
                                         "deals {size} (brdgme's 3-player game deals 7 and "
                                         "is not classic Lost Cities)", name=entry.name,
                                         count=entry.count, size=CLASSIC_5.hand_size))
                    raise _Stop
            elif entry.kind == "scored":
                assert entry.name is not None
                scores[entry.name] = entry
            elif entry.kind != "over":
                actions.append(entry)
        if scores and actions:
            self.last_draw(actions, deal, scores)
        if not actions:
            if entries:
                where = entries[0]
                self.diagnostics.append(note(
                    "not-carried", msg("round {number} has no turn in the log; it is left out",
                                       number=number or len(self.records) + 1),
                    Severity.WARNING, line=where.line, column=where.column))
            return
        chunks = self.split(actions)
        first = number if number is not None else len(self.records) + 1
        for k, chunk in enumerate(chunks):
            last = k == len(chunks) - 1
            self.build(first + k, deal if k == 0 else {}, chunk, scores if last else {})

    def last_draw(self, actions: list[Entry], deal: dict[str, list[str]],
                  scores: dict[str, Entry]) -> None:
        """Add the draw brdgme leaves out of its log when a round ends.

        brdgme's engine ends the round as soon as the last card is drawn and logs the scores
        in place of that draw (its ``draw_hand_full`` returns the round's end instead of the
        draw's lines). A round that is scored after a placement whose draw is missing, with
        one card left by the log's own count, therefore ended with that placement's player
        drawing the last card. Which card it was is known when both deals and every draw
        are in the log (brdgme's REPL prints them all): the one card of the 60 not seen.
        """
        last = actions[-1]
        if last.kind != "place":
            return
        left = next((e.left for e in reversed(actions) if e.kind in ("draw", "deal")), None)
        if left != 1:
            return
        where = min(scores.values(), key=lambda e: (e.line, e.column))
        drawn = Entry("draw", where.line, where.column, where.length, name=last.name, left=0)
        seen = [c for hand in deal.values() for c in hand]
        seen += [e.cards[0] for e in actions if e.kind == "draw" and e.cards]
        unseen = list(CLASSIC_5.all_cards())
        for card in seen:
            if card in unseen:
                unseen.remove(card)
        known = len(deal) == 2 and len(unseen) == 1
        if known:
            drawn.cards = unseen
        actions.append(drawn)
        card = brdgme_card(last.card or "")
        if last.verb == "played":
            step = msg("{name} playing {card}", name=last.name, card=card)
        else:
            step = msg("{name} discarding {card}", name=last.name, card=card)
        which = (msg(", {card} (the one card of the deck the log does not show elsewhere)",
                     card=brdgme_card(unseen[0])) if known
                 else msg(" (which card is not in the log)"))
        self.diagnostics.append(note(
            "inferred", msg("the log goes from {step} to the round's scores: brdgme ends a "
                            "round when the draw pile runs out without logging that last draw, "
                            "so {name} drew the last card{which}", step=step, name=last.name,
                            which=which),
            Severity.INFO, line=where.line, column=where.column, length=where.length))

    def private(self, entry: Entry, owner: Entry | None, deal: dict[str, list[str]]) -> None:
        if owner is None:
            self.fail(entry, msg("`You drew ...` must follow the entry of the draw it shows "
                                 "(`... drew a card, N remaining` or `... drew 8 cards, N "
                                 "remaining`)"))
            return
        name = owner.name
        assert name is not None
        # A player's own log shows their private lines; brdgme's REPL shows everyone's.
        if owner.kind == "deal":
            if len(entry.cards) != owner.count:
                self.fail(entry, msg("{name} was dealt {count} cards but `You drew` lists "
                                     "{listed}", name=name, count=owner.count,
                                     listed=len(entry.cards)))
            deal[name] = entry.cards
        elif len(entry.cards) != 1:
            self.fail(entry, msg("a draw of one card, but `You drew` lists {listed}",
                                 listed=len(entry.cards)))
        else:
            owner.cards = entry.cards

    @staticmethod
    def split(actions: list[Entry]) -> list[list[Entry]]:
        """Cut the actions where the draw pile runs out (a round whose start is not logged)."""
        chunks: list[list[Entry]] = [[]]
        draws = 0
        for entry in actions:
            if draws == CLASSIC_5.pile_size:
                chunks.append([])
                draws = 0
            chunks[-1].append(entry)
            if entry.kind == "draw" or entry.verb == "draw":
                draws += 1
        return chunks

    def starter(self, first: Entry) -> int:
        """The seat that begins a round: the first to act, or brdg.me's rule without names."""
        if first.name is not None:
            return self.players.index(first.name)
        if not self.players:
            self.players = ["Player 1", "Player 2"]
        if not self.records:
            return 0
        best = max(self.totals.values())
        leaders = [seat for seat, name in enumerate(self.players) if self.totals.get(name) == best]
        if len(leaders) == 1:
            return leaders[0]
        last = self.players.index(self.last_drawer) if self.last_drawer in self.players else 1
        return 1 - last

    def build(self, number: int, deal: dict[str, list[str]], actions: list[Entry],
              scores: dict[str, Entry]) -> None:
        start = self.starter(actions[0])
        if len(self.players) < 2:
            self.fail(actions[0], msg("only one player ({name}) appears in the log; a game "
                                      "needs both", name=self.players[0]))
            raise _Stop
        seats = [self.players[start], self.players[1 - start]]
        builder = GameBuilder(len(self.records) + 1, line=actions[0].line)
        builder.tag("Site", "brdg.me")
        builder.tag("Match", "")  # named when the whole log is read
        builder.tag("Game", str(number))
        builder.tag("Player1", seats[0])
        builder.tag("Player2", seats[1])
        for seat, name in enumerate(seats):
            if deal.get(name):
                builder.tag(f"Hand{seat + 1}", " ".join(deal[name]))
        half: Entry | None = None
        for entry in actions:
            mover = seats[builder.turns % 2]
            if entry.name is not None and entry.name != mover:
                self.fail(entry, msg("it is {mover}'s turn, but this entry is {name}'s",
                                     mover=mover, name=entry.name))
                return
            if entry.kind == "place" or entry.verb in ("play", "discard"):
                if half is not None:
                    self.fail(entry, msg("{mover} places a second card before drawing (the "
                                         "first is on line {line})", mover=mover,
                                         line=half.line))
                    return
                half = entry
                continue
            if half is None:
                self.fail(entry, msg("{mover} draws without having played or discarded a card",
                                     mover=mover))
                return
            self.turn(builder, half, entry, mover)
            half = None
            if entry.kind == "draw" or entry.verb == "draw":
                self.last_drawer = mover
        if half is not None:
            builder.warn("not-carried", msg("the log ends in the middle of {name}'s turn (a "
                                            "card placed, no draw yet); LCN records whole "
                                            "turns, so that half turn is left out",
                                            name=seats[builder.turns % 2]), half.span)
        if scores:
            if set(scores) == set(seats):
                builder.stated = [scores[seats[0]].score, scores[seats[1]].score]
                builder.stated_span = scores[seats[0]].span
            else:
                where = next(iter(scores.values()))
                builder.warn("not-carried", msg("the round's scores name other players than "
                                                "the round's; they were not used"), where.span)
        self.records.append(builder.finish())
        self.score_totals(builder, scores)
        self.sources.append(builder.source)
        self.diagnostics.extend(builder.diagnostics)

    def turn(self, builder: GameBuilder, place: Entry, draw: Entry, mover: str) -> None:
        assert place.card is not None
        card = place.card
        discard = place.verb in ("discarded", "discard")
        drawn = None
        if draw.kind == "take" or draw.verb == "take":
            assert draw.card is not None
            colour = draw.card[0]
            if draw.kind == "take":
                top = card if discard and card[0] == colour else builder.top(colour)
                if top is not None and top != draw.card:  # an empty pile: the validator says so
                    builder.warn("log-mismatch", msg("{mover} took {card}, but the top card of "
                                                     "the {colour} discard pile is {top}",
                                                     mover=mover, card=draw.card,
                                                     colour=COLOUR_NAMES[colour], top=top),
                                 draw.span,
                                 Severity.ERROR)
            target = colour
        else:
            target = "d"
            if draw.cards:
                drawn = draw.cards[0]
        builder.turn(discard, card, target, drawn, place=place.span, draw_span=draw.span)
        if draw.left is not None and draw.left != builder.cards_left:
            builder.warn("log-mismatch", msg("the log says {left} cards remain, but counting "
                                             "the draws there are {counted}: lines are missing "
                                             "or repeated", left=draw.left,
                                             counted=builder.cards_left),
                         draw.span, Severity.ERROR)

    def score_totals(self, builder: GameBuilder, scores: dict[str, Entry]) -> None:
        """Add the round to the match totals and check the log's running totals."""
        state = builder.table
        if not CLASSIC.is_over(state):
            return
        names = CLASSIC.players(builder.record)
        for name, points in zip(names, CLASSIC.score(state).totals, strict=True):
            self.totals[name] = self.totals.get(name, 0) + points
            entry = scores.get(name)
            if entry is not None and entry.total != self.totals[name]:
                builder.warn("log-mismatch", msg("the log says {name} is now on {total}, but "
                                                 "the rounds so far add up to {sum}", name=name,
                                                 total=entry.total, sum=self.totals[name]),
                             entry.span)


IMPORTER = BrdgmeImporter()

__all__ = ["IMPORTER", "BrdgmeImporter", "lcn_card", "parse_line"]
