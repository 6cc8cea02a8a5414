"""Narrated logs: one action a line, in words, as play sites print them (English and German).

A site's move list reads like ``Ada plays the red 7`` / ``Ada draws from the draw pile`` /
``Bo discards the green wager`` / ``Bo takes the yellow 4``. This module reads such logs
with a small, documented grammar (``docs/importers.md`` has it in full) that accepts the
words sites use (investment, wager, handshake, coin; Wette, Investition; grey for white...)
and rejects, with its line number, every line it does not understand: it never guesses.
It also writes games in this form (``lcn convert --to text``), to read a game aloud or
paste it into a forum; writing and reading back gives the same record.

>>> log = '''
... Ada discards the red 7.
... Ada draws from the draw pile.
... Bo discards the green wager
... Bo takes the red 7 from the discard pile
... '''
>>> record = IMPORTER.read(log).records[0]
>>> [turn.text for turn in record.turns]
['xR7/d', 'xGw/R']
>>> IMPORTER.read("Ada spielt die rote 7\\nAda zieht vom Nachziehstapel").records[0].turns[0].text
'R7/d'
>>> print(IMPORTER.write_record(record), end="")
[Player1 "Ada"]
[Player2 "Bo"]
[Result "*"]
<BLANKLINE>
Ada discards the red 7.
Ada draws from the draw pile.
Bo discards a green wager.
Bo takes the red 7.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Severity
from ..messages import msg, template
from ..model import GameRecord
from ..reader import RESULT_PATTERN
from ..variants.base import MoveSyntaxError
from ..variants.classic import COLOUR_NAMES, ClassicMove, parse_move
from ..writer import escape_tag
from . import houserules
from .base import Conversion, ExportError, Importer, SourceMap, Span, note, shown, syntax_error
from .common import CLASSIC, GameBuilder, card_words

# -- vocabulary (folded: lower case, ä→ae, ö→oe, ü→ue, ß→ss) ----------------------------
COLOURS: dict[str, str] = {
    "red": "R", "green": "G", "blue": "B", "white": "W", "yellow": "Y", "purple": "P",
    "grey": "W", "gray": "W", "gold": "Y", "amber": "Y", "violet": "P", "lilac": "P",
    "rot": "R", "gruen": "G", "blau": "B", "weiss": "W", "gelb": "Y", "lila": "P",
    "violett": "P", "grau": "W",
}
_GERMAN_ENDINGS = ("e", "en", "er", "es", "em")
NUMBERS: dict[str, int] = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "zwei": 2, "drei": 3, "vier": 4, "fuenf": 5, "sechs": 6, "sieben": 7, "acht": 8,
    "neun": 9, "zehn": 10,
}
WAGERS = {
    "wager", "wagers", "investment", "investments", "handshake", "handshakes", "coin", "coins",
    "contract", "bet", "betting", "multiplier", "wette", "wetten", "wettkarte", "investition",
    "investitionskarte", "handschlag", "handschlagkarte", "muenze", "einsatz", "einsatzkarte",
}
#: Verbs and what they do; ``lay`` is German "legen", whose particle decides (aus/an: play,
#: ab: discard).
VERBS: dict[str, str] = {
    **dict.fromkeys(["plays", "played", "play", "places", "placed", "place", "puts", "put",
                     "lays", "laid", "adds", "added", "add", "spielt", "spielte", "spielst",
                     "spiele"], "place"),
    **dict.fromkeys(["legt", "legte", "legst", "lege"], "lay"),
    **dict.fromkeys(["discards", "discarded", "discard", "throws", "threw", "throw", "dumps",
                     "dumped", "wirft", "warf", "wirfst", "werfe"], "discard"),
    **dict.fromkeys(["draws", "drew", "draw", "zieht", "zog", "ziehst", "ziehe"], "draw"),
    **dict.fromkeys(["takes", "took", "take", "picks", "picked", "pick", "nimmt", "nahm",
                     "nimmst", "nehme"], "take"),
}
FILLERS = {
    "the", "a", "an", "card", "her", "his", "their", "its", "my", "your", "own", "new", "one",
    "top", "topmost", "uppermost", "der", "die", "das", "den", "dem", "des", "ein", "eine",
    "einen", "einem", "einer", "eines", "karte", "ihre", "ihren", "ihrer", "ihrem", "seine",
    "seinen", "seiner", "seinem", "deine", "deinen", "deiner", "meine", "meinen", "oberste",
    "obersten", "neue", "neuen", "face-down", "facedown", "verdeckt", "verdeckten", "up",
}
PREPOSITIONS = {"from", "off", "of", "onto", "on", "to", "into", "in", "at", "von", "vom", "auf",
                "zu", "zur", "zum", "ins", "im", "am"}
PARTICLES = {"ab": "discard", "weg": "discard", "away": "discard", "aus": "place", "an": "place"}
PILES: dict[str, str] = {
    **dict.fromkeys(["draw pile", "deck", "stack", "pile", "supply", "nachziehstapel",
                     "stapel", "kartenstapel", "zugstapel", "talon"], "deck"),
    **dict.fromkeys(["discard pile", "discard piles", "discards", "discard", "center row",
                     "centre row", "middle", "ablagestapel", "ablage", "abwurfstapel",
                     "ablagestapeln", "abwurf"], "discard"),
    **dict.fromkeys(["expedition", "expeditions", "column", "row", "expeditionsreihe",
                     "expeditionen", "reihe", "auslage"], "expedition"),
}
CONJUNCTIONS = {"and", "then", "und", "dann", ","}
PRONOUNS = {"she", "he", "they", "sie", "er"}
_CARD_CODE = re.compile(r"([rgbwyp])(10|[2-9]|w|x|\*)", re.IGNORECASE)
_GLYPH = re.compile(r"(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]+)")
_TAG = re.compile(r'\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_STAMP = re.compile(r"(?:\[\d\d?:\d\d(?::\d\d)?\]|\(\d\d?:\d\d(?::\d\d)?\)"
                    r"|\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d)?)?|\d\d?:\d\d(?::\d\d)?"
                    r"|\d+[.)]|[-*•>|])(?=\s|$)\s*")
_WORD = re.compile(r"[^\s,]+|,")
_HEADING = re.compile(r"[-=#* ]*(?:starting\s+)?(round|game|runde|partie|spiel)\s+(\d{1,9})"
                      r"(?:\s+(?:of|von)\s+\d+)?[-=#*:. ]*", re.IGNORECASE)
_NEW_GAME = re.compile(r"[-=#* ]*(?:new game|neues spiel|neue partie)[-=#*:. ]*", re.IGNORECASE)
# Linear cost: no two unbounded quantifiers may share a character where the engine could
# split a run between them in many ways (``(.+?)\s*:`` tries every split of a run of spaces;
# ``\s*(.+?)\s*:?\s+`` every pair of splits). Where a name runs into spaces, the group takes
# them and the caller strips it; otherwise a lookbehind ``(?<!\s)`` makes a group end on a
# non-space and possessive ``*+``/``++`` forms keep what they took. tests/test_linear_cost.py
# audits every pattern here.
_PLAYERS = re.compile(r"(?:players|spieler|spielerinnen)\s*:(.+)", re.IGNORECASE)  # names stripped
_VERSUS = re.compile(r"(.+?)(?<!\s)\s++(?:vs\.?|versus|gegen)\s++(.+)", re.IGNORECASE)
_TURN_OF = [re.compile(r"(?:it'?s|it is)\s(.+?)['’]s turn", re.IGNORECASE),  # name stripped
            re.compile(r"(.+?)['’]s turn", re.IGNORECASE),
            re.compile(r"(.+?) (?:ist am zug|ist dran|ist an der reihe)", re.IGNORECASE)]
_DECK_COUNT = [re.compile(r"(\d{1,9}) cards? (?:left|remaining)(?: in the (?:draw pile|deck|stack))?",
                          re.IGNORECASE),
               re.compile(r"(?:draw pile|deck|stack|nachziehstapel|stapel)\s*:\s*(\d{1,9})"
                          r"(?: cards?| karten?)?(?: left)?", re.IGNORECASE),
               re.compile(r"noch (\d{1,9}) karten?(?: im (?:nachziehstapel|stapel))?", re.IGNORECASE)]
_FINAL = re.compile(r"(?:final scores?|final result|result|scores?|endstand|ergebnis|endergebnis)"
                    r"\s*+:?\s*+(.+)", re.IGNORECASE)
_SCORE = [re.compile(r"(.+?) (?:scores|scored|gets|got|finishes with|ends with|erh(?:ä|ae)lt|bekommt"
                     r"|macht|hat) (-?\d{1,9}) ?(?:points?|punkte?|pts?\.?)?(?: (?:in total|insgesamt))?",
                     re.IGNORECASE),
          re.compile(r"(.+?):\s*+(-?\d{1,9}) ?(?:points?|punkte?|pts?\.?)", re.IGNORECASE)]
_END = re.compile(r"(?:game over|the game is over|the game ends|end of (?:the )?(?:game|round)"
                  r"|spielende|das spiel ist (?:zu ende|vorbei)|ende der runde|ende des spiels)",
                  re.IGNORECASE)
_HAND = [re.compile(r"(.+?)['’]?s (?:starting )?hand\s*+:?\s*+(.+)", re.IGNORECASE),
         re.compile(r"(.+?) (?:is|was) dealt\s*+:?\s*+(.+)", re.IGNORECASE),
         re.compile(r"(?:starthand|kartenhand) von ([^:]+):\s*+(.+)", re.IGNORECASE)]  # stripped
_YOUR_HAND = re.compile(r"(?:your|deine|ihre) (?:starting |start)?hand\s*+:?\s*+(.+)", re.IGNORECASE)
#: The parts of a final score line, and one part (``Ada: 54 points``).
_FINAL_PARTS = re.compile(r",|;|(?<!\s)\s++[-–]\s++")
_FINAL_PART = re.compile(r"\s*+(.+?)(?<!\s)(?:\s*+:\s++|\s++)(-?\d{1,9})\s*+(?:points?|punkte?|pts?\.?)?"
                         r"\s*+")
_NAME_LIST = re.compile(r",|\band\b|\bund\b")
_HAND_PARTS = re.compile(r",|\band\b|\bund\b|\s{2,}")
_ESCAPED = re.compile(r"\\(.)")
_COMMENT_MARK = re.compile(r"[{};]")


@functools.lru_cache(maxsize=4096)
def fold(word: str) -> str:
    """A word for the vocabulary: lower case, umlauts spelled out, accents and ’ dropped.

    Kept for words met again: a log repeats its few words (and a hostile line one word) a
    million times."""
    word = word.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    word = unicodedata.normalize("NFKD", word)
    return "".join(c for c in word if not unicodedata.combining(c)).replace("’", "'")


def colour_of(word: str) -> str | None:
    if word in COLOURS:
        return COLOURS[word]
    for ending in _GERMAN_ENDINGS:
        if word.endswith(ending) and word[: -len(ending)] in COLOURS:
            return COLOURS[word[: -len(ending)]]
    return None


# -- lines ------------------------------------------------------------------------------
@dataclass(slots=True)
class Word:
    text: str
    folded: str
    column: int


@dataclass
class Clause:
    """One action of a line: a card placed or a card drawn."""

    kind: str  # place | discard | draw | take | lay
    words: list[Word]
    card: str | None = None
    colour: str | None = None
    pile: str | None = None
    pile_colour: str | None = None
    particle: str | None = None

    def span(self, line: int) -> Span:
        first, last = self.words[0], self.words[-1]
        return (line, first.column, last.column + len(last.text) - first.column)


@dataclass
class Item:
    """A line of the log that says something (comments ride along on it)."""

    kind: str
    line: int
    column: int
    length: int
    name: str | None = None
    clauses: list[Clause] = field(default_factory=list)
    number: int | None = None
    scores: list[tuple[str, int]] = field(default_factory=list)
    result: str | None = None
    cards: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    tag: tuple[str, str] | None = None
    glyphs: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)

    @property
    def span(self) -> Span:
        return (self.line, self.column, self.length)


class _Problems(Exception):
    pass


class Parser:
    """Turns the lines of a narrated log into items, reporting every line it cannot read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.problems: list[Diagnostic] = []
        # The names by length and folded, longest first: a log may name thousands of players
        # (a tournament's games, or a hostile input), and each action line looks its subject up.
        self._by_length: dict[int, dict[str, str]] = {}
        self._lengths: list[int] = []
        self.items: list[Item] = []

    def add_name(self, name: str) -> None:
        size = len(name)
        if size not in self._by_length:
            self._by_length[size] = {}
            bisect.insort(self._lengths, -size)
        self._by_length[size].setdefault(name.casefold(), name)

    def error(self, line: int, column: int, length: int, message: str) -> None:
        self.problems.append(note("narrated-syntax", message, Severity.ERROR, line=line,
                                  column=column, length=length))

    # -- comments -------------------------------------------------------------------------
    def lines(self) -> list[tuple[int, str, list[str]]]:
        """(line, its text with comments blanked out, the comments) for each line.

        Comments are LCN's: ``{...}`` (which may run over several lines; it then belongs to
        the line it opens on) and ``;`` to the end of the line.
        """
        out: list[tuple[int, str, list[str]]] = []
        open_comment: list[str] | None = None
        opened_at = (0, 0)
        owner: list[str] = []
        for number, raw in enumerate(self.text.split("\n"), 1):
            text = raw
            comments: list[str] = []
            if open_comment is not None:
                end = text.find("}")
                if end < 0:
                    open_comment.append(text)
                    continue
                open_comment.append(text[:end])
                owner.append("\n".join(open_comment).strip())
                open_comment = None
                text = " " * (end + 1) + text[end + 1:]
            elif _TAG.fullmatch(text.strip()):
                out.append((number, text.rstrip(), comments))  # a tag value may hold `;` or `{`
                continue
            # From one mark of a comment to the next (a character at a time cost a Python
            # step for each character of every upload, in detection too).
            kept: list[str] = []
            i = 0
            while (mark := _COMMENT_MARK.search(text, i)) is not None:
                at = mark.start()
                kept.append(text[i:at])
                char = text[at]
                if char == "{":
                    end = text.find("}", at + 1)
                    if end < 0:
                        open_comment, opened_at, owner = [text[at + 1:]], (number, at + 1), comments
                        break
                    comments.append(text[at + 1:end].strip())
                    kept.append(" " * (end + 1 - at))
                    i = end + 1
                    continue
                if char == ";":
                    comments.append(text[at + 1:].strip())
                    break
                self.error(number, at + 1, 1, msg("`}}` without an opening `{{`"))
                kept.append(char)
                i = at + 1
            else:
                kept.append(text[i:])
            out.append((number, "".join(kept).rstrip(), comments))
        if open_comment is not None:
            self.error(opened_at[0], opened_at[1], 1, msg("comment opened here is never closed: "
                                                          "expected `}}`"))
        return out

    def parse(self) -> list[Item]:
        for number, body, comments in self.lines():
            stripped = body.strip()
            if not stripped:
                if comments:
                    self.items.append(Item("comment", number, 1, 1, comments=comments))
                continue
            column = body.index(stripped) + 1
            item = self.line(number, stripped, column)
            if item is not None:
                item.comments = comments
                self.items.append(item)
        if self.problems:
            raise _Problems
        return self.items

    def line(self, number: int, text: str, column: int) -> Item | None:
        tag = _TAG.fullmatch(text)
        if tag is not None:
            value = _ESCAPED.sub(r"\1", tag.group(2))
            if tag.group(1) in ("Player1", "Player2"):
                self.add_name(value)
            return Item("tag", number, column, len(text), tag=(tag.group(1), value))
        # Positions rather than slices: a line of a million stamps or glyphs is read in one
        # pass (cutting the text after each would copy it each time).
        start = 0
        while (stamp := _STAMP.match(text, start)) is not None and stamp.end() > start:
            start = stamp.end()
        column += start
        text = text[start:]
        if not text:
            return None
        sentence = text.rstrip()
        glyphs: list[str] = []
        end = len(sentence)
        while True:  # the glyphs at the end, word by word from the right
            first = end
            while first > 0 and not sentence[first - 1].isspace():
                first -= 1
            before = first
            while before > 0 and sentence[before - 1].isspace():
                before -= 1
            if before == 0 or not _GLYPH.fullmatch(sentence, first, end):
                break
            glyphs.append(sentence[first:end])
            end = before
        glyphs.reverse()
        sentence = sentence[:end].rstrip(".!;: ")
        item = self.statement(number, sentence, column)
        if item is None:
            self.error(number, column, len(text), msg("`{shown}` is not a line of a narrated log: "
                                                      "expected an action (`Ada plays the red 7`, "
                                                      "`Bo discards the green wager`, `Ada draws "
                                                      "from the draw pile`, `Bo takes the yellow "
                                                      "4`), a score, a round heading, a tag or a "
                                                      "comment", shown=shown(text)))
            return None
        if glyphs and item.kind != "action":
            self.error(number, column, len(text), msg("glyphs ({glyphs}) after a line that is not an "
                                                      "action", glyphs=" ".join(glyphs)))
        item.glyphs = glyphs
        return item

    def statement(self, number: int, text: str, column: int) -> Item | None:
        item = Item("?", number, column, len(text))
        if (m := _HEADING.fullmatch(text)) is not None:
            item.kind, item.number = "heading", int(m.group(2))
            return item
        if _NEW_GAME.fullmatch(text):
            item.kind = "new-game"
            return item
        if _END.fullmatch(text):
            item.kind = "end"
            return item
        if (m := _PLAYERS.fullmatch(text)) is not None or (m := _VERSUS.fullmatch(text)) is not None:
            listed = m.re is _PLAYERS
            names = ([n.strip() for n in _NAME_LIST.split(m.group(1)) if n.strip()]
                     if listed else [m.group(1).strip(), m.group(2).strip()])
            # ("Ada vs Bo" must not be an action that happens to contain "vs").
            if len(names) == 2 and (listed or not any(self.action_words(n) for n in names)):
                item.kind, item.names = "players", names
                for name in names:
                    self.add_name(name)
                return item
        for pattern in _DECK_COUNT:
            if (m := pattern.fullmatch(text)) is not None:
                item.kind, item.number = "deck-count", int(m.group(1))
                return item
        if (m := _FINAL.fullmatch(text)) is not None:
            result = self.final(m.group(1))
            if result is not None:
                item.kind = "final"
                item.result, item.scores = result
                return item
        for pattern in _SCORE:
            if (m := pattern.fullmatch(text)) is not None and not self.action_words(m.group(1)):
                item.kind, item.name = "score", m.group(1).strip()
                item.scores = [(item.name, int(m.group(2)))]
                return item
        for pattern in _TURN_OF:
            if (m := pattern.fullmatch(text)) is not None:
                item.kind, item.name = "turn-of", m.group(1).strip()
                return item
        hand = self.hand(text)
        if hand is not None:
            item.kind, (item.name, item.cards) = "hand", hand
            return item
        return self.action(item, text, column)

    def action_words(self, text: str) -> bool:
        return any(fold(w) in VERBS for w in text.split())

    def final(self, rest: str) -> tuple[str | None, list[tuple[str, int]]] | None:
        rest = rest.strip().rstrip(".")
        if rest == "*" or _is_scores(rest):
            return rest, []
        scores = []
        for part in _FINAL_PARTS.split(rest):
            m = _FINAL_PART.fullmatch(part)
            if m is None:
                return None
            scores.append((m.group(1), int(m.group(2))))
        return (None, scores) if len(scores) == 2 else None

    def hand(self, text: str) -> tuple[str, list[str]] | None:
        found = None
        if (m := _YOUR_HAND.fullmatch(text)) is not None:
            found = ("You", m.group(1))
        else:
            for pattern in _HAND:
                if (m := pattern.fullmatch(text)) is not None:
                    found = (m.group(1).strip(), m.group(2))
                    break
        if found is None:
            return None
        cards = []
        for part in _HAND_PARTS.split(found[1]):
            words = [Word(w, fold(w), 0) for w in part.split()]
            if not words:
                continue
            if len(words) == 1 and _CARD_CODE.fullmatch(words[0].text) and len(part.split()) == 1:
                cards.append(self.code(words[0].text))
                continue
            card = self.card_of(words)
            if card is None:
                return None
            cards.append(card)
        return found[0], cards

    @staticmethod
    def code(text: str) -> str:
        m = _CARD_CODE.fullmatch(text)
        assert m is not None
        value = m.group(2).lower()
        return m.group(1).upper() + ("w" if value in ("w", "x", "*") else value)

    def card_of(self, words: list[Word]) -> str | None:
        """A card named in words (``the red 7``, ``eine rote Wette``), or None."""
        colour = value = None
        for word in words:
            if word.folded in FILLERS:
                continue
            c = colour_of(word.folded)
            if c is not None and colour is None and value is None:
                colour = c
                continue
            if colour is not None and value is None:
                folded = word.folded
                if folded.isascii() and folded.isdigit() and len(folded) <= 2 and 2 <= int(folded) <= 10:
                    value = word.folded
                    continue
                if word.folded in NUMBERS:
                    value = str(NUMBERS[word.folded])
                    continue
                if word.folded.replace("-", "") in WAGERS:
                    value = "w"
                    continue
            return None
        if colour is None or value is None:
            return None
        return colour + value

    # -- actions --------------------------------------------------------------------------
    def subject(self, text: str) -> tuple[str, int] | None:
        """The player's name at the start of an action line and where the rest starts."""
        for negative in self._lengths:
            size = -negative
            if text[size:size + 1] == " ":
                name = self._by_length[size].get(text[:size].casefold())
                if name is not None:
                    return name, size + 1
        for m in itertools.islice(_WORD.finditer(text), 1, None):
            if fold(m.group(0)) in VERBS:
                return text[: m.start()].rstrip(), m.start()
        return None

    def action(self, item: Item, text: str, column: int) -> Item | None:
        found = self.subject(text)
        if found is None:
            return None
        name, start = found
        words = [Word(m.group(0), fold(m.group(0).strip("'\"")), column + m.start())
                 for m in _WORD.finditer(text, start)]
        if not words or words[0].folded not in VERBS:
            return None
        # A new action starts at a verb after "and", "then", "und", "dann" or a comma (and a
        # pronoun: "then she draws", "dann zieht sie").
        words = [w for i, w in enumerate(words) if not (
            w.folded in PRONOUNS and i > 0 and (words[i - 1].folded in CONJUNCTIONS
                                                or words[i - 1].folded in VERBS))]
        clauses = [Clause(VERBS[words[0].folded], [words[0]])]
        for previous, word in itertools.pairwise(words):
            if word.folded in VERBS and previous.folded in CONJUNCTIONS:
                clauses[-1].words.pop()
                clauses.append(Clause(VERBS[word.folded], [word]))
            else:
                clauses[-1].words.append(word)
        for clause in clauses:
            if not self.clause(item.line, clause):
                return item  # the problem is reported; the line is not left unexplained
        item.kind, item.name, item.clauses = "action", name, clauses
        return item

    def clause(self, line: int, clause: Clause) -> bool:
        """Fill in a clause from its words; report a word that does not fit, with its column."""
        # The conjunctions at the end are counted off, then cut once: cutting one at a time
        # would copy the clause once for each (a line of a million commas).
        end = len(clause.words)
        while end > 1 and clause.words[end - 1].folded in CONJUNCTIONS:
            end -= 1
        words = clause.words[1:end]
        card_words: list[Word] = []
        i = 0
        while i < len(words):
            word = words[i]
            folded = word.folded
            pair = f"{folded} {words[i + 1].folded}" if i + 1 < len(words) else ""
            if pair in PILES:
                self.pile(clause, PILES[pair], card_words)
                i += 2
            elif folded in PILES:
                self.pile(clause, PILES[folded], card_words)
                i += 1
            elif folded in PARTICLES:
                # "throws away", and German separable prefixes: "legt ... ab", "spielt ... aus",
                # "wirft ... weg" ("aus" and "an" inside a clause are prepositions).
                if i == len(words) - 1 or folded not in ("aus", "an"):
                    clause.particle = PARTICLES[folded]
                i += 1
            elif folded in PREPOSITIONS:
                i += 1
            else:
                card_words.append(word)
                i += 1
        return self.card_phrase(line, clause, card_words)

    def pile(self, clause: Clause, kind: str, before: list[Word]) -> None:
        """A pile word; a colour word just before it is the pile's colour (not the card's)."""
        clause.pile = kind
        if before and colour_of(before[-1].folded) is not None and (
                len(before) == 1 or not self.card_of(before)):
            clause.pile_colour = colour_of(before.pop().folded)

    def card_phrase(self, line: int, clause: Clause, words: list[Word]) -> bool:
        meaningful = [w for w in words if w.folded not in FILLERS]
        if not meaningful:
            return True
        if len(meaningful) == 1 and _CARD_CODE.fullmatch(meaningful[0].text):
            clause.card = self.code(meaningful[0].text)
            return True
        card = self.card_of(words)
        if card is not None:
            clause.card = card
            return True
        if len(meaningful) == 1 and colour_of(meaningful[0].folded) is not None:
            clause.colour = colour_of(meaningful[0].folded)
            return True
        bad = next((w for w in meaningful if colour_of(w.folded) is None
                    and not w.folded.isdigit() and w.folded not in NUMBERS
                    and w.folded.replace("-", "") not in WAGERS), meaningful[0])
        self.error(line, bad.column, len(bad.text), msg("`{shown}` does not fit here: expected a "
                                                        "card (a colour and a value 2-10 or a wager "
                                                        "word: `the red 7`, `the green wager`, `die "
                                                        "rote Wette`) or where it goes (`from the "
                                                        "draw pile`, `onto the discard pile`)",
                                                        shown=shown(bad.text)))
        return False


# -- building games -----------------------------------------------------------------------
@dataclass
class _Placed:
    discard: bool
    card: str
    span: Span


class _Games:
    """Builds the games of a parsed log: seats, turns, results, comments."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.problems: list[Diagnostic] = []
        self.diagnostics: list[Diagnostic] = []
        self.records: list[GameRecord] = []
        self.sources: list[SourceMap | None] = []
        self.six = any(self.purple(item) for item in items)
        self.headings = any(item.kind == "heading" for item in items)
        self.heading: int | None = None
        #: Names from a "Players:" line (they stay for the following games).
        self.header: list[str] = []
        self.builder: GameBuilder | None = None
        self.reset()

    def reset(self) -> None:
        """Forget the game just finished (its tags, hands, comments and results)."""
        self.builder = None
        self.tags: list[tuple[str, str, int]] = []
        self.intro: list[str] = []
        self.players: list[str] = []
        self.hands: dict[str, list[str]] = {}
        self.placed: _Placed | None = None
        self.pending_glyphs: list[str] = []
        self.pending_comments: list[str] = []
        self.scores: dict[str, tuple[int, Span]] = {}
        self.final: Item | None = None
        self.after_end = False
        self.closing: list[str] = []

    @staticmethod
    def purple(item: Item) -> bool:
        if item.tag is not None:
            return item.tag[0] == "Expeditions" and item.tag[1].strip() == "6"
        cards = list(item.cards) + [c.card for c in item.clauses if c.card]
        colours = [c[0] for c in cards] + [c.colour or c.pile_colour or "" for c in item.clauses]
        return "P" in colours

    def fail(self, item: Item, message: str, span: Span | None = None) -> None:
        line, column, length = span or item.span
        self.problems.append(note("narrated-log", message, Severity.ERROR, line=line,
                                  column=column, length=length))

    def run(self) -> None:
        for item in self.items:
            getattr(self, "on_" + item.kind.replace("-", "_"))(item)
        self.close()
        if self.headings:
            names = [r.players() for r in self.records if "Game" in r.tags]
            if names:
                match = " vs ".join(names[0])
                for record in self.records:
                    if "Game" in record.tags and record.tags.get("Match") == "":
                        record.tags["Match"] = match

    # -- game boundaries ------------------------------------------------------------------
    def started(self) -> bool:
        return self.builder is not None

    def close(self) -> None:
        """Finish the game being built (a tag section alone makes a game without turns)."""
        if self.builder is None:
            if not self.tags:
                if self.intro:
                    self.diagnostics.append(note("not-carried", msg("comments after the last game "
                                                                    "were left out"), Severity.WARNING))
                self.reset()
                return
            tags = dict((n, v) for n, v, _ in self.tags)
            first = Item("tag", self.tags[0][2], 1, 1)
            self.ensure(first, tags.get("Player1") or "Player 1")
        builder = self.builder
        assert builder is not None
        if self.placed is not None:
            builder.warn("not-carried", msg("the log ends in the middle of a turn (a card placed, no "
                                            "draw yet); LCN records whole turns, so that half turn "
                                            "is left out"),
                         self.placed.span)
        if len(self.players) < 2:
            builder.warn("not-carried", msg('only {players} acts in this game; the other player is '
                                            'called "Player 2"', players=self.players[0]), None)
        names = CLASSIC.players(builder.record)
        stated: list[int] | str | None = None
        span: Span | None = None
        if self.final is not None:
            span = self.final.span
            stated = self.final.result if self.final.result is not None else \
                self.ordered(self.final.scores, names, self.final)
        elif len(self.scores) == 2:
            span = next(iter(self.scores.values()))[1]
            stated = self.ordered([(n, s) for n, (s, _) in self.scores.items()], names, None)
        tag = builder.record.tags.get("Result")
        if tag is not None:
            tag_line = builder.record.tags.lines.get("Result", builder.record.line)
            if tag.strip() != "*" and not _is_scores(tag.strip()):
                builder.warn("tag-value", msg('the Result tag "{shown}" is neither final scores nor '
                                              '`*`; the record\'s Result is worked out from the log '
                                              'instead', shown=shown(tag)),
                             (tag_line, 1, 1))
            elif stated is None:
                stated, span = tag.strip(), (tag_line, 1, 1)
            elif _result(stated) != _result(tag.strip()):
                builder.warn("log-mismatch", msg("the Result tag says {tag}, but the log's final "
                                                 "scores differ; the log's scores are kept",
                                                 tag=tag), span, Severity.ERROR)
        builder.stated, builder.stated_span = _result(stated), span
        record = builder.finish()
        record.closing_comments.extend(self.closing)
        self.records.append(record)
        self.sources.append(builder.source)
        self.diagnostics.extend(builder.diagnostics)
        self.reset()

    def ordered(self, scores: list[tuple[str, int]], names: list[str], item: Item | None
                ) -> list[int] | None:
        by_name = {fold(n): s for n, s in scores}
        if sorted(by_name) != sorted(fold(n) for n in names):
            if item is not None:
                self.fail(item, msg("the scores name {named}, but the players are {names} and "
                                    "{other}",
                                    named=" and ".join(n for n, _ in scores),
                                    names=names[0], other=names[1]))
            return None
        return [by_name[fold(n)] for n in names]

    def ensure(self, item: Item, first: str) -> GameBuilder:
        """The game being built; a new one starts at its first action, ``first`` moving first."""
        if self.builder is not None:
            return self.builder
        tags = {name: value for name, value, _ in self.tags}
        player1, player2 = tags.get("Player1"), tags.get("Player2")
        if player1 is not None and fold(player1) != fold(first):
            self.fail(item, msg("{first} moves first, but the tags make {player} Player1 (in LCN, "
                                "Player1 moves first)", first=first, player=player1))
        player1 = player1 or first
        if player2 is None:
            others = [n for n in [*self.header, *self.hands] if fold(n) != fold(player1)]
            player2 = others[0] if others else None
        self.players = [player1] + ([player2] if player2 else [])
        builder = GameBuilder(len(self.records) + 1, line=self.tags[0][2] if self.tags else item.line,
                              house_rules=frozenset({houserules.NO_BONUS, houserules.TAKE_BACK}))
        if self.headings and self.heading is not None and "Game" not in tags:
            builder.tag("Match", "")  # named once every game is read
            builder.tag("Game", str(self.heading))
        for name, value, line in self.tags:
            builder.tag(name, value, line)
        if "Player1" not in tags:
            builder.tag("Player1", player1)
        if "Player2" not in tags:
            builder.tag("Player2", player2 or "Player 2")
        if self.six and "Expeditions" not in tags:
            builder.tag("Expeditions", "6")
        for seat, name in enumerate(self.players):
            hand = next((cards for owner, cards in self.hands.items() if fold(owner) == fold(name)),
                        None)
            if hand is not None and f"Hand{seat + 1}" not in tags:
                builder.tag(f"Hand{seat + 1}", " ".join(hand))
        unknown = [owner for owner in self.hands if fold(owner) not in map(fold, self.players)]
        if unknown and len(self.players) == 2:
            self.fail(item, msg("a starting hand for {shown}, who is not a player of this game",
                                shown=shown(unknown[0])))
        builder.record.intro_comments.extend(self.intro)
        self.builder = builder
        return builder

    def seat_player(self, name: str, item: Item) -> str | None:
        """The name as the game knows it; a second player joins when they first act."""
        for player in self.players:
            if fold(player) == fold(name):
                return player
        if len(self.players) < 2:
            assert self.builder is not None
            if self.builder.turns % 2 == 0:
                self.fail(item, msg("{shown} acts, but it is {players}'s turn",
                                    shown=shown(name), players=self.players[0]))
                return None
            self.players.append(name)
            self.builder.record.tags["Player2"] = name
            self.builder.table.names[1] = name
            hand = next((c for o, c in self.hands.items() if fold(o) == fold(name)), None)
            if hand is not None and self.builder.turns == 0 and self.placed is None:
                self.fail(item, msg("{name}'s starting hand is given, but {name} was not known to be "
                                    "a player when the game began: name the players first", name=name))
            return name
        self.fail(item, msg("a third player, {shown} (the players are {players} and {second}): "
                            "classic Lost Cities has two",
                            shown=shown(name), players=self.players[0], second=self.players[1]))
        return None

    # -- items ----------------------------------------------------------------------------
    def on_tag(self, item: Item) -> None:
        assert item.tag is not None
        if self.started():
            self.close()
        name, value = item.tag
        if any(existing == name for existing, _, _ in self.tags):
            self.fail(item, msg("tag {name} appears twice in one game", name=name))
            return
        self.tags.append((name, value, item.line))
        self.intro.extend(item.comments)

    def on_heading(self, item: Item) -> None:
        if self.started():
            self.close()
        self.heading = item.number
        self.intro.extend(item.comments)

    def on_new_game(self, item: Item) -> None:
        if self.started():
            self.close()
        self.heading = None
        self.intro.extend(item.comments)

    def on_players(self, item: Item) -> None:
        if self.builder is not None and not (self.builder.over or self.after_end):
            self.fail(item, msg("a list of players in the middle of a game"))
            return
        if self.started():
            self.close()
        self.header = list(item.names)
        self.intro.extend(item.comments)

    def on_comment(self, item: Item) -> None:
        self.attach(item.comments)

    def attach(self, comments: list[str]) -> None:
        """Comments go where they stand: before the game, after a turn, or after the end."""
        if not comments:
            return
        builder = self.builder
        if self.final is not None or self.after_end:
            self.closing.extend(comments)
        elif builder is None or (builder.turns == 0 and self.placed is None):
            if builder is not None:
                builder.record.intro_comments.extend(comments)
            else:
                self.intro.extend(comments)
        elif self.placed is not None:
            self.pending_comments.extend(comments)
        else:
            builder.record.turns[-1].comments.extend(comments)

    def on_hand(self, item: Item) -> None:
        if self.started():
            self.fail(item, msg("a starting hand in the middle of a game"))
            return
        assert item.name is not None
        if len(item.cards) != 8:
            self.fail(item, msg("{name}'s starting hand has {count} cards; a hand has 8",
                                name=item.name, count=len(item.cards)))
            return
        self.hands[item.name] = item.cards
        self.intro.extend(item.comments)

    def on_turn_of(self, item: Item) -> None:
        builder = self.builder
        if builder is not None and self.placed is None and not builder.over and item.name:
            expected = self.mover(builder)
            if expected is not None and fold(item.name) != fold(expected):
                self.fail(item, msg("the log says it is {name}'s turn, but it is {expected}'s",
                                    name=item.name, expected=expected))
            elif expected is None and fold(item.name) == fold(self.players[0]):
                self.fail(item, msg("the log says it is {name}'s turn, but it is the other player's",
                                    name=item.name))
        self.attach(item.comments)

    def mover(self, builder: GameBuilder) -> str | None:
        """Whose turn it is (None: the second player's, before they are known)."""
        seat = builder.turns % 2
        return self.players[seat] if seat < len(self.players) else None

    def on_deck_count(self, item: Item) -> None:
        builder = self.builder
        if builder is not None and item.number is not None and self.placed is None:
            left = builder.cards_left
            if left != item.number:
                builder.warn("log-mismatch", msg("the log says {number} cards are left, but counting "
                                                 "the draws there are {left}: lines are missing or "
                                                 "repeated", number=item.number, left=left),
                             item.span, Severity.ERROR)
        self.attach(item.comments)

    def on_final(self, item: Item) -> None:
        if self.builder is None:
            self.fail(item, msg("a final score before any turn"))
            return
        self.final = item
        self.closing.extend(item.comments)

    def on_score(self, item: Item) -> None:
        if self.builder is None:
            self.fail(item, msg("a score before any turn"))
            return
        name, points = item.scores[0]
        match = next((p for p in self.players if fold(p) == fold(name)), None)
        if match is None:
            self.fail(item, msg("a score for {shown}, who is not a player of this game ({players})",
                                shown=shown(name), players=" and ".join(self.players)))
            return
        self.scores[match] = (points, item.span)
        self.after_end = True
        self.closing.extend(item.comments)

    def on_end(self, item: Item) -> None:
        builder = self.builder
        if builder is not None and not builder.over:
            builder.warn("log-mismatch", msg("the log says the game is over, but {left} cards "
                                             "are left in the draw pile",
                                             left=builder.cards_left), item.span)
        self.after_end = True
        self.closing.extend(item.comments)

    def on_action(self, item: Item) -> None:
        assert item.name is not None
        builder = self.builder
        if builder is not None and self.placed is None and (
                builder.over or self.final is not None or self.after_end):
            # The rules (or the log) ended the game: this action begins the next one.
            self.close()
            if self.headings and self.heading is not None:
                self.heading += 1
        builder = self.ensure(item, item.name)
        name = self.seat_player(item.name, item)
        if name is None:
            return
        for clause in item.clauses:
            if not self.clause(item, clause, name, builder):
                return
        if self.placed is None and builder.turns:
            builder.record.turns[-1].glyphs.extend(item.glyphs)
            builder.record.turns[-1].comments.extend(item.comments)
        else:
            self.pending_glyphs.extend(item.glyphs)
            self.pending_comments.extend(item.comments)

    def clause(self, item: Item, clause: Clause, name: str, builder: GameBuilder) -> bool:
        span = clause.span(item.line)
        mover = self.mover(builder)
        if mover is None and name == self.players[0]:
            self.fail(item, msg("{shown} acts, but it is the other player's turn", shown=shown(name)), span)
            return False
        if name != (mover or name):
            self.fail(item, msg("{shown} acts, but it is {mover}'s turn",
                                shown=shown(name), mover=mover), span)
            return False
        kind = clause.kind
        if kind == "lay":
            if clause.pile == "discard" or clause.particle == "discard":
                kind = "discard"
            elif clause.pile == "expedition" or clause.particle == "place":
                kind = "place"
            else:
                self.fail(item, msg("`legt` alone does not say where the card goes: `legt ... ab` "
                                    "(discard) or `legt ... aus`/`an` (to an expedition)"), span)
                return False
        if kind in ("place", "discard"):
            return self.place(item, clause, kind, span)
        return self.draw(item, clause, kind, span, builder, name)

    def place(self, item: Item, clause: Clause, kind: str, span: Span) -> bool:
        if self.placed is not None:
            self.fail(item, msg("a second card placed before drawing (the first is on line {span})",
                                span=self.placed.span[0]), span)
            return False
        if clause.card is None:
            self.fail(item, msg("which card? Expected a colour and a value (`the red 7`, `the green "
                                "wager`)"), span)
            return False
        if kind == "place" and clause.pile == "deck":
            self.fail(item, msg("a card cannot be placed on the draw pile"), span)
            return False
        discard = kind == "discard" or clause.pile == "discard"
        if discard and clause.pile == "expedition":
            self.fail(item, msg("a discard goes onto a discard pile, not an expedition"), span)
            return False
        if clause.pile_colour is not None and clause.pile_colour != clause.card[0]:
            self.fail(item, msg("the {card} goes onto its own colour's pile or expedition, not "
                                "the {pile} one",
                                card=card_words(clause.card),
                                pile=COLOUR_NAMES[clause.pile_colour]), span)
            return False
        self.placed = _Placed(discard, clause.card, span)
        return True

    def draw(self, item: Item, clause: Clause, kind: str, span: Span, builder: GameBuilder,
             name: str) -> bool:
        placed = self.placed
        if placed is None:
            self.fail(item, msg("{name} draws without having played or discarded a card", name=name), span)
            return False
        card = clause.card
        pile = clause.pile
        if pile == "expedition":
            self.fail(item, msg("cards are drawn from the draw pile or a discard pile, not from an "
                                "expedition"), span)
            return False
        if pile is None:
            if kind == "draw" and card is None and clause.colour is None:
                pile = "deck"
            elif kind == "take" and (card is not None or clause.colour is not None):
                pile = "discard"
            elif kind == "take":
                self.fail(item, msg("takes what? Expected a card (`takes the yellow 4`) or a pile "
                                    "(`takes from the yellow discard pile`)"), span)
                return False
            else:
                self.fail(item, msg("from where? `{items}` names a card but not the pile: add `from "
                                    "the draw pile` or `from the discard pile`",
                                    items=" ".join(w.text for w in clause.words)), span)
                return False
        drawn = None
        if pile == "deck":
            if clause.colour is not None or clause.pile_colour is not None:
                self.fail(item, msg("the draw pile has no colour: name the card drawn (`draws the "
                                    "red 5 from the draw pile`) or a discard pile"), span)
                return False
            target, drawn = "d", card
        else:
            colour = clause.pile_colour or (card[0] if card else None) or clause.colour
            if colour is None:
                self.fail(item, msg("from which discard pile? Name the card or the pile's colour"), span)
                return False
            if card is not None and card[0] != colour:
                self.fail(item, msg("the {card} is not on the {colour} discard pile",
                                    card=card_words(card), colour=COLOUR_NAMES[colour]), span)
                return False
            target = colour
            top = placed.card if placed.discard and placed.card[0] == colour else builder.top(colour)
            if card is not None and top is not None and top != card:
                # (An empty pile is the validator's to report.)
                builder.warn("log-mismatch", msg("{name} takes the {card} from the "
                                                 "{colour} discard pile, but its top card is "
                                                 "the {top}",
                                                 name=name, card=card_words(card),
                                                 colour=COLOUR_NAMES[colour],
                                                 top=card_words(top)),
                             span, Severity.ERROR)
        builder.turn(placed.discard, placed.card, target, drawn, place=placed.span, draw_span=span)
        turn = builder.record.turns[-1]
        turn.glyphs.extend(self.pending_glyphs)
        turn.comments.extend(self.pending_comments)
        self.pending_glyphs, self.pending_comments = [], []
        self.placed = None
        return True


def _is_scores(text: str) -> bool:
    """Whether ``text`` is final scores (``54:12``) of numbers no game reaches past 9 digits."""
    return RESULT_PATTERN.fullmatch(text) is not None \
        and all(len(part.lstrip("-")) <= 9 for part in text.split(":"))


def _result(value: list[int] | str | None) -> list[int] | str | None:
    """A result as scores, ``*`` or None (a text like ``54:12`` becomes [54, 12])."""
    if isinstance(value, str) and value != "*" and _is_scores(value):
        return [int(part) for part in value.split(":")]
    return value


class NarratedImporter(Importer):
    name = "text"
    title = template("Narrated log, one action a line (English, German)")
    writes = True

    def detect(self, text: str) -> float:
        lines = [line for line in text.split("\n", 400)[:400] if line.strip()]
        if not lines:
            return 0.0
        parser = Parser("\n".join(lines))
        try:
            items = parser.parse()
        except _Problems:
            items = parser.items
        actions = sum(1 for item in items if item.kind == "action")
        if actions < 2:
            return 0.0
        bad = min(len(parser.problems), len(lines))  # a line may have several problems
        return 0.85 * (len(lines) - bad) / len(lines)

    def read(self, text: str) -> Conversion:
        parser = Parser(text)
        try:
            items = parser.parse()
        except _Problems:
            raise syntax_error(self.name, parser.problems) from None
        games = _Games(items)
        games.run()
        if games.problems:
            raise syntax_error(self.name, games.problems)
        if not games.records:
            raise syntax_error(self.name, [note("narrated-log", msg("the log holds no turn"),
                                                Severity.ERROR)])
        return Conversion(games.records, games.diagnostics, games.sources)

    # -- writing ------------------------------------------------------------------------
    def write_record(self, record: GameRecord) -> str:
        if record.variant_name != "classic":
            raise ExportError(msg("a {variant} game: the narrated form tells classic games",
                                  variant=record.variant_name))
        state, _ = CLASSIC.setup(record)
        names = CLASSIC.players(record)
        lines = [f'[{name} "{escape_tag(value)}"]' for name, value in record.tags.items()]
        if lines:
            lines.append("")
        lines.extend(_comment(text) for text in record.intro_comments)
        for index, turn in enumerate(record.turns):
            try:
                move: ClassicMove = parse_move(turn.text, state.config)
            except MoveSyntaxError as exc:
                raise ExportError(msg("turn {index} `{text}` is not a classic move: {message}",
                                      index=index + 1, text=turn.text, message=exc.message)) from None
            name = names[index % 2]
            what = f"a {card_words(move.card)}" if move.card[1] == "w" else f"the {card_words(move.card)}"
            lines.append(f"{name} {'discards' if move.discard else 'plays'} {what}.")
            if move.draw == "d":
                drawn = "" if move.drawn is None else f" the {card_words(move.drawn)}"
                second = f"{name} draws{drawn} from the draw pile."
            else:
                pile = state.piles[move.draw]
                top = move.card if move.discard and move.card[0] == move.draw else (
                    pile[-1] if pile else None)
                if top is None:
                    second = f"{name} takes from the {COLOUR_NAMES[move.draw]} discard pile."
                else:
                    article = "a" if top[1] == "w" else "the"
                    second = f"{name} takes {article} {card_words(top)}."
            if CLASSIC.is_over(state):
                raise ExportError(msg("turn {index} `{text}` comes after the end of the game "
                                      "({reason})",
                                      index=index + 1, text=turn.text, reason=CLASSIC.end_reason(state)))
            CLASSIC.apply(state, move)
            extras = list(turn.glyphs) + [_comment(text) for text in turn.comments]
            lines.append(" ".join([second, *extras]))
        termination = record.termination
        if termination and termination != "*" and RESULT_PATTERN.fullmatch(termination):
            scores = termination.split(":")
            if len(scores) == len(names):
                lines.append("Final score: " + ", ".join(f"{n} {s}" for n, s in zip(names, scores,
                                                                                       strict=True)) + ".")
        lines.extend(_comment(text) for text in record.closing_comments)
        return "\n".join(lines) + "\n"

    def join(self, chunks: list[str]) -> str:
        return "\n".join(chunks)


def _comment(text: str) -> str:
    if "}" in text:
        return "; " + text.replace("\n", " ")
    return "{" + text + "}"


IMPORTER = NarratedImporter()
