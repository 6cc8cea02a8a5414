"""Lost Cities: Roll & Write (2-5 players): dice, game sheets, accelerations, artefacts, bridges.

Every player writes on their own game sheet, and every sheet is public, so a record that gives
each roll and each player's choice can be checked turn by turn. What no source we can read
says is *where* the sheet prints its acceleration arrows and artefacts. The engine never
assumes a layout: a record may give one (the ``Sheet`` tag, or a layout file named by the
``LCN_ROLLWRITE_SHEET`` environment variable, see :func:`parse_layout`), and without one the
record's own marks are the evidence. The first time anyone fills a box, the marks written for
it (``+`` an artefact, ``>`` an acceleration or ``>-`` a declined one) say what the box is;
every later fill of the same box, by any player in any turn, must agree (RW-LAYOUT-CONSISTENT).
The layout so inferred is part of the snapshot and of ``lcn show``.

One turn is one numbered unit of the movetext (see ``docs/spec-rollwrite.md``)::

    7. ROG307 Ada:R3+>G Bo:O7 Cy:- bridge:R

Read: turn 7; the dice show red, orange, green, 3, 0 and 7; Ada (who rolled) writes 3 in red on
a box with an artefact and an arrow, and accelerates green; Bo writes 7 in orange; Cy refuses;
the red bridge is passed for the first time. Rule IDs are those of ``seeds/rollwrite.md``.

The snapshot (``snapshot()``, ``lcn show --format json``), which the replay site draws::

    {
      "variant": "rollwrite", "turn": 7, "next_player": 1, "over": false,
      "colours": ["R", "O", "Y", "G", "B", "P"],
      "boxes": 9,                      # boxes per expedition, spaces per right-hand column
      "bridge_after": 7,               # a bridge is passed by filling this box / space
      "sheets": [                      # one per player, in seat order
        {"expeditions": {"R": {"numbers": [2, 3, 3],   # bottom up; copies included
                               "circle": "X" | "-" | "",  # marked, struck, still open
                               "top": false,            # top artefact claimed
                               "points": -10}, ...},
         "artefacts": 2, "dice": 1, "exhausted": false,
         "bridges": {"R": "won" | "struck" | null, ..., "A": ..., "D": ...},
         "points": {"R": -10, ..., "art": -30, "dice": -40, "bonus": 20},
         "total": -60},
        ...],
      "bridges": {"R": {"turn": 5, "players": [0]} | null, ..., "A": ..., "D": ...},
      "layout": {"R": [".", ">", "?", "A", "*", "?", "?", "?", "?"], ...},
                                       # per box, bottom up: "." plain, ">" arrow,
                                       # "A" artefact, "*" both, "?" unknown; a partly known
                                       # box shows what is known ("A?" / ">?" / ".?" / "?.")
      "layout_source": "record" | "tag" | "file" | "option" | "mixed",
      "roll": {"colours": ["R", "O", "G"], "numbers": [0, 3, 7]} | null,   # the last turn's
      "roller": 0 | null,
      "choices": [{"player": 0, "choice": "R3+>G", "kind": "write" | "circle" | "refuse",
                   "colour": "R" | null, "number": 3 | null,
                   "boxes": [{"colour": "R", "box": 4, "value": 3, "top": false,
                              "artefact": true, "arrow": true}, ...]}, ...],
                                       # the boxes the choice filled, in order (box 1-based);
                                       # a top artefact claimed is {"box": null, "top": true}
      "scores": [...], "breakdown": [...], "last_move": "ROG037 Ada:R3+>G ..." | null
    }
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..diagnostics import hint
from ..games.colours import colour_names
from ..messages import Message, join, msg, template
from ..messages import layout as set_out
from .base import ExpressResult, MoveSyntaxError, NumberedTurns, Problem, Score, name_hint
from .rivals import player_tokens as _letter_tokens

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..describe import TurnStory
    from ..model import GameRecord

#: The six expeditions, left to right on the sheet.
COLOURS = "ROYGBP"
COLOUR_NAMES: dict[str, str] = colour_names(COLOURS)
#: The eight bridges: one per expedition, the artefact column (A) and the dice column (D).
COLUMNS = COLOURS + "AD"
COLUMN_NAMES: dict[str, str] = {**COLOUR_NAMES, "A": msg("artefact"), "D": msg("dice")}
BOXES = 9
BRIDGE_BOX = 7
BRIDGE_POINTS = 20
COLOUR_DICE = 3
NUMBER_DICE = 3
#: Points of an expedition by boxes filled (research/game-data.md §1a), index = boxes.
EXPEDITION_POINTS = (0, -20, -15, -10, 5, 10, 15, 30, 35, 50)
#: A marked circle with no number scores -50, doubled (§Scoring expeditions).
CIRCLE_ALONE = -50
#: Points of the artefact column and of the dice column by spaces shaded (§1b).
ARTEFACT_POINTS = (0, -40, -30, -20, 10, 20, 30, 60, 70, 100)
DICE_POINTS = (0, -40, -30, -20, 10, 20, 30, 60, 70, 0)
#: The keys of a player's score breakdown, in order.
PARTS = (*COLOURS, "art", "dice", "bonus")
LAYOUT_ENV = "LCN_ROLLWRITE_SHEET"
_KEYWORDS = ("bridge", "exhausted", "end")

_TURN_RULE = "LCN-RW-TURN"
_PLAYER_RULE = "LCN-RW-PLAYER"


def expedition_points(numbers: int, circle: bool) -> int:
    """An expedition's points: by boxes filled, doubled by a marked circle (RW-SCORE-*).

    >>> expedition_points(8, True), expedition_points(1, False), expedition_points(0, True)
    (70, -20, -100)
    """
    base = EXPEDITION_POINTS[numbers] if numbers else (CIRCLE_ALONE if circle else 0)
    return base * 2 if circle else base


def player_tokens(names: list[str]) -> list[str]:
    """How each player is written in the movetext: the letters of the name, or ``P<seat>``.

    As in Rivals (``docs/spec-rivals.md`` §4), and a name that reads as one of the turn's
    keywords (``bridge``, ``exhausted``, ``end``) takes the seat form too.

    >>> player_tokens(["Ada", "End", "Bo"])
    ['Ada', 'P2', 'Bo']
    """
    tokens = _letter_tokens(names)
    return [f"P{seat + 1}" if token.casefold() in _KEYWORDS else token
            for seat, token in enumerate(tokens)]


# -- the layout -------------------------------------------------------------------------


class BoxKind(NamedTuple):
    """What a box carries: an arrow and/or an artefact; None where it is not known."""

    arrow: bool | None
    artefact: bool | None


_LAYOUT_CHARS = {".": BoxKind(False, False), ">": BoxKind(True, False),
                 "A": BoxKind(False, True), "*": BoxKind(True, True), "?": BoxKind(None, None)}


def layout_char(kind: BoxKind) -> str:
    """One box as the layout format writes it (a partly known box as two characters)."""
    if kind.arrow is not None and kind.artefact is not None:
        return {(False, False): ".", (True, False): ">", (False, True): "A",
                (True, True): "*"}[(kind.arrow, kind.artefact)]
    if kind.arrow is None and kind.artefact is None:
        return "?"
    if kind.arrow is None:
        return "?A" if kind.artefact else "?."
    return ">?" if kind.arrow else ".?"


class LayoutError(ValueError):
    """A sheet layout that cannot be read; the message says where and what was expected."""


def parse_layout(text: str) -> dict[str, list[BoxKind]]:
    """Read a sheet layout: for each colour, what each of its nine boxes carries.

    The format (``docs/spec-rollwrite.md`` §2) is one word per colour, ``R:`` and nine
    characters for the boxes from the bottom up: ``.`` plain, ``>`` an acceleration arrow,
    ``A`` an artefact, ``*`` both, ``?`` not known. Words are separated by white space; in a
    file, ``#`` starts a comment that runs to the end of the line. A colour not given is not
    known at all.

    >>> layout = parse_layout("R:..>.A?... # my sheet\\nb:?????????")
    >>> layout["R"][2], layout["R"][4], layout["R"][5], layout["O"][0]
    (BoxKind(arrow=True, artefact=False), BoxKind(arrow=False, artefact=True), \
BoxKind(arrow=None, artefact=None), BoxKind(arrow=None, artefact=None))
    """
    layout = {colour: [BoxKind(None, None)] * BOXES for colour in COLOURS}
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        for word in line.split("#", 1)[0].split():
            key, colon, boxes = word.partition(":")
            colour = key.upper()
            where = msg("line {number}, `{word}`", number=number, word=word) \
                if "\n" in text.strip() else f"`{word}`"
            if not colon or colour not in COLOURS:
                raise LayoutError(msg("{where}: expected a colour letter (R O Y G B P), `:` and nine "
                                      "boxes, e.g. `R:..>.A....`", where=where))
            if colour in seen:
                raise LayoutError(msg("{where}: the {expedition} expedition is given twice",
                                      where=where, expedition=COLOUR_NAMES[colour]))
            seen.add(colour)
            if len(boxes) != BOXES:
                raise LayoutError(msg("{where}: {count} boxes for the {expedition} "
                                      "expedition, expected {boxes} (one of . > A * ? per box, "
                                      "bottom up)",
                                      where=where, count=len(boxes),
                                  expedition=COLOUR_NAMES[colour], boxes=BOXES))
            kinds = []
            for index, char in enumerate(boxes.upper()):
                if char not in _LAYOUT_CHARS:
                    raise LayoutError(msg("{where}: box {index} is `{boxes}`: expected . (plain), > "
                                          "(arrow), A (artefact), * (both) or ? (unknown)",
                                          where=where, index=index + 1, boxes=boxes[index]))
                kinds.append(_LAYOUT_CHARS[char])
            layout[colour] = kinds
    return layout


#: Where a sheet's layout came from, in words (``lcn show``'s board).
_LAYOUT_SOURCES = {"record": template("record"), "mixed": template("mixed"),
                   "option": template("option"), "file": template("file"),
                   "tag": template("tag")}


def format_layout(layout: dict[str, list[BoxKind]]) -> str:
    """The layout in its one-line form (the ``Sheet`` tag's value); partly known boxes as ``?``."""
    words = []
    for colour in COLOURS:
        chars = []
        for kind in layout[colour]:
            char = layout_char(kind)
            chars.append(char if len(char) == 1 else "?")
        words.append(f"{colour}:{''.join(chars)}")
    return " ".join(words)


def load_layout(path: str | Path) -> dict[str, list[BoxKind]]:
    """Read a layout file; the errors name the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LayoutError(msg("{path}: cannot read the sheet layout ({error})", path=path,
                              error=exc)) from exc
    try:
        return parse_layout(text)
    except LayoutError as exc:
        raise LayoutError(msg("{path}: {error}", path=path, error=exc.args[0])) from exc


# -- moves ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One box a choice fills, with the marks written for it.

    The first step is the box the dice fill; each later step is the box an acceleration fills
    (a copy into ``colour``). ``top`` means the expedition is full and the step claims its top
    artefact instead. ``arrow`` is ``"-"`` (an arrow box whose acceleration is declined),
    ``">"`` (the acceleration taken: the next step is its copy) or None (no arrow written).
    """

    colour: str
    top: bool
    artefact: bool
    arrow: str | None
    offset: int
    length: int


class Choice(NamedTuple):
    """One player's choice of a turn: a number written, the circle, or a refusal."""

    seat: int
    token: str
    kind: str  # "write", "circle", "refuse"
    die: int | None  # the number die used (0-9)
    steps: tuple[Step, ...]
    offset: int
    length: int

    @property
    def colour(self) -> str | None:
        return self.steps[0].colour if self.steps else None

    @property
    def value(self) -> int | None:
        """The number written (a 0 during an expedition is a 10)."""
        if self.kind != "write" or self.die is None:
            return None
        return 10 if self.die == 0 else self.die


class Item(NamedTuple):
    value: Any
    offset: int
    length: int


@dataclass(frozen=True, slots=True)
class RollWriteMove:
    """One turn: the roll, every player's choice, and what the record says the rules did."""

    colours: tuple[str, ...]
    numbers: tuple[int, ...]
    roll_length: int
    choices: tuple[Choice, ...]
    bridges: Item | None = None
    exhausted: Item | None = None
    end: Item | None = None


def format_steps(choice: Choice) -> str:
    """The text of a choice after its player (``R3+>G^``, ``B0``, ``-``)."""
    if choice.kind == "refuse":
        return "-"
    if choice.kind == "circle":
        return f"{choice.colour}0"
    parts = []
    for index, step in enumerate(choice.steps):
        if index == 0:
            parts.append(f"{step.colour}{choice.value}")
        else:
            parts.append(step.colour)
        if step.top:
            parts.append("^")
        if step.artefact:
            parts.append("+")
        if step.arrow is not None:
            parts.append(">" if step.arrow == ">" else ">-")
    return "".join(parts)


def format_roll(colours: tuple[str, ...], numbers: tuple[int, ...]) -> str:
    return "".join(colours) + "".join(str(n) for n in numbers)


def format_move(move: RollWriteMove) -> str:
    """The canonical text of a turn."""
    words = [format_roll(move.colours, move.numbers)]
    words += [f"{c.token}:{format_steps(c)}" for c in move.choices]
    if move.bridges is not None:
        words.append("bridge:" + ",".join(move.bridges.value))
    if move.exhausted is not None:
        words.append("exhausted:" + ",".join(move.exhausted.value[1]))
    if move.end is not None:
        words.append("end")
    return " ".join(words)


_WORD = re.compile(r"\S+")
_ROLL = re.compile(r"([A-Za-z]{3})(\d{3})")
_SEAT = re.compile(r"[Pp]([1-9])")


def parse_move(text: str, tokens: list[str]) -> RollWriteMove:
    """Parse a turn's text leniently (any case), or raise with what was expected.

    >>> format_move(parse_move("gor307 ada:r3+>g^ BO:o10 bridge:r", ["Ada", "Bo"]))
    'ROG037 Ada:R3+>G^ Bo:O10 bridge:R'
    """
    return _parse_recent(tuple(tokens), text)


@functools.lru_cache(maxsize=512)
def _parse_recent(tokens: tuple[str, ...], text: str) -> RollWriteMove:
    """The turns parsed last: a game repeats some of its turns (passes, the same bid), and
    looking ahead parses a turn again. Bounded: turns of other games seldom come back, and
    a cache that grew with the input would hold memory that every collection walks."""
    return _parse_move(text, list(tokens))


#: The colour dice and the number dice of a roll as usually written (upper case), sorted:
#: made once, so that most rolls are read with two look-ups.
_ROLL_COLOURS = {a + b + c: tuple(sorted(a + b + c, key=COLOURS.index))
                 for a in COLOURS for b in COLOURS for c in COLOURS}
_ROLL_NUMBERS = {f"{n:03}": tuple(sorted(map(int, f"{n:03}"))) for n in range(1000)}


def _parse_roll(word: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    colours = _ROLL_COLOURS.get(word[:3])
    numbers = _ROLL_NUMBERS.get(word[3:])
    if colours is not None and numbers is not None:
        return colours, numbers
    match = _ROLL.fullmatch(word)
    if match is None:
        raise MoveSyntaxError(
            msg("`{word}` is not a roll: a turn starts with the six dice rolled, the three colour "
                "dice then the three number dice (`ROG307`)", word=word), 0, len(word), code="bad-roll",
            rule="RW-SETUP-DICE")
    letters = match.group(1).upper()
    for index, letter in enumerate(letters):
        if letter not in COLOURS:
            raise MoveSyntaxError(
                msg("`{die}` in the roll `{word}` is not a colour die: the colour dice show R O Y "
                    "G B P",
                    die=match.group(1)[index], word=word), index, 1, code="bad-roll", rule="RW-SETUP-DICE")
    colours = tuple(sorted(letters, key=COLOURS.index))
    numbers = tuple(sorted(int(d) for d in match.group(2)))
    return colours, numbers


def _simple_choices() -> dict[str, tuple[str, int, str, bool, bool, str | None]]:
    """The choices that fill one box, as the writer writes them: their text after the
    player's `:` → (kind, die, colour, top, artefact, arrow), as ``_parse_choice`` reads
    them (a test compares the two on every entry)."""
    table: dict[str, tuple[str, int, str, bool, bool, str | None]] = {}
    for colour in COLOURS:
        table[f"{colour}0"] = ("circle", 0, colour, False, False, None)
        for number in range(1, 11):
            for marks, top, artefact, arrow in (("", False, False, None), ("^", True, False, None),
                                                ("+", False, True, None), (">-", False, False, "-"),
                                                ("+>-", False, True, "-")):
                table[f"{colour}{number}{marks}"] = ("write", number % 10, colour, top, artefact,
                                                     arrow)
    return table


#: See :func:`_simple_choices`: made once; the common choices skip the general steps.
_SIMPLE_CHOICES = _simple_choices()


def _parse_choice(word: str, start: int, tokens: list[str],
                  lookup: dict[str, int]) -> Choice:
    who, colon, rest = word.partition(":")
    seat = lookup.get(who.casefold())
    if seat is None:
        match = _SEAT.fullmatch(who)
        if match is not None and int(match.group(1)) <= len(tokens):
            seat = int(match.group(1)) - 1
    if not colon:
        raise MoveSyntaxError(
            msg("`{word}` is not a choice: expected a player, `:` and the choice (`{tokens}:R3`, "
                "`{tokens}:R0` for the circle, `{tokens}:-` to refuse)",
                word=word, tokens=tokens[0]), start, len(word),
            rule=_TURN_RULE)
    if seat is None:
        close = get_close_matches(who.lower(), ("bridge", "exhausted"), n=1, cutoff=0.7)
        raise MoveSyntaxError(
            msg("unknown player `{who}` in `{word}`: the players are {tokens} (or "
                "P1..P{count})",
                who=who, word=word, tokens=', '.join(tokens), count=len(tokens)), start, max(len(who),
            1), code="unknown-player",
            rule=_PLAYER_RULE, hint=hint("keyword-typo", meant=close[0] + ":") if close else None)
    at = start + len(who) + 1
    token = tokens[seat]
    if rest == "-":
        return Choice(seat, token, "refuse", None, (), start, len(word))
    simple = _SIMPLE_CHOICES.get(rest)
    if simple is not None:
        # One box written in canonical form: what the steps below would make of it.
        return Choice(seat, token, simple[0], simple[1], (Step(*simple[2:], at, len(rest)),),
                      start, len(word))
    if not rest:
        raise MoveSyntaxError(msg("`{word}`: nothing after `:`; expected a colour and a number "
                                  "(`R3`), a colour and 0 for the circle (`R0`), or `-` to refuse",
                                  word=word),
                              at, 1, rule=_TURN_RULE)
    colour = rest[0].upper()
    if colour not in COLOURS:
        raise MoveSyntaxError(msg("`{rest}` in `{word}` is not a colour: the expeditions are R O Y G "
                                  "B P",
                                  rest=rest[0], word=word), at, 1, code="bad-colour", rule="RW-SETUP-SHEET")
    pos = 1
    if rest[1:3] == "10":
        die, pos = 0, 3
    elif rest[1:2].isascii() and rest[1:2].isdigit():
        die, pos = int(rest[1]), 2
    else:
        raise MoveSyntaxError(msg("`{word}`: expected a number after the colour {colour} (1-10, or 0 "
                                  "for the circle)",
                                  word=word, colour=colour), at + 1, max(len(rest) - 1, 1), rule=_TURN_RULE)
    if rest[pos:pos + 1].isdigit():
        raise MoveSyntaxError(msg("`{rest}` in `{word}`: a number die shows 0-9, written 1-10 (a 0 "
                                  "read as 10)",
                                  rest=rest[1:], word=word), at + 1, len(rest) - 1, code="bad-number",
                              rule="RW-WRITE-ZERO")
    if die == 0 and pos == 2:
        if pos < len(rest):
            raise MoveSyntaxError(
                msg("`{rest}` after the circle `{circle}`: marking the circle fills no box, so no "
                    "mark follows it",
                    rest=rest[pos:], circle=rest[:2]), at + pos, len(rest) - pos, rule=_TURN_RULE)
        return Choice(seat, token, "circle", 0, (Step(colour, False, False, None, at, 2),),
                      start, len(word))
    steps: list[Step] = []
    step_colour, step_start = colour, at
    top = artefact = False
    arrow: str | None = None
    while True:
        char = rest[pos:pos + 1]
        if char == "^" and not top and not artefact and arrow is None:
            top = True
            pos += 1
            continue
        if char == "+" and not top and not artefact and arrow is None:
            artefact = True
            pos += 1
            continue
        if char == ">" and not top and arrow is None:
            follow = rest[pos + 1:pos + 2]
            if follow == "-":
                arrow = "-"
                pos += 2
                continue
            if follow.upper() in COLOURS and follow:
                steps.append(Step(step_colour, top, artefact, ">", step_start,
                                  at + pos - step_start))
                step_colour, step_start = follow.upper(), at + pos + 1
                top = artefact = False
                pos += 2
                continue
            raise MoveSyntaxError(
                msg("`{rest}` in `{word}`: an acceleration names the expedition it goes to (`>G`), "
                    "or `>-` when it is declined", rest=rest[pos:], word=word), at + pos, len(rest) - pos,
                code="bad-acceleration", rule="RW-ACCEL-COPY")
        if not char:
            break
        if top and char in "+>":
            raise MoveSyntaxError(
                msg("`{rest}` after `^` in `{word}`: the top artefact of a full expedition fills no "
                    "box, so nothing follows it",
                    rest=rest[pos:], word=word), at + pos, len(rest) - pos, rule=_TURN_RULE)
        raise MoveSyntaxError(
            msg("`{rest}` in `{word}`: after the number come the marks of the box filled, in this "
                "order: `^` (top artefact) or `+` (artefact), then `>` and an expedition "
                "(acceleration) or `>-` (declined)",
                rest=rest[pos:], word=word), at + pos, len(rest) - pos, rule=_TURN_RULE)
    steps.append(Step(step_colour, top, artefact, arrow, step_start, at + pos - step_start))
    return Choice(seat, token, "write", die, tuple(steps), start, len(word))


def _columns(value: str, at: int, word: str) -> tuple[str, ...]:
    found: list[str] = []
    pos = at
    for part in value.split(","):
        column = part.upper()
        if len(column) != 1 or column not in COLUMNS:
            raise MoveSyntaxError(msg("`{value}` in `{word}`: a bridge is named by its column, R O Y "
                                      "G B P, A (artefacts) or D (dice)",
                                      value=part or msg("(nothing)"), word=word), pos,
                                  max(len(part), 1), rule=_TURN_RULE)
        if column in found:
            raise MoveSyntaxError(msg("`{word}` names the {column} bridge twice",
                                      word=word, column=COLUMN_NAMES[column]), pos,
                                  len(part), rule=_TURN_RULE)
        found.append(column)
        pos += len(part) + 1
    return tuple(sorted(found, key=COLUMNS.index))


def _parse_move(text: str, tokens: list[str]) -> RollWriteMove:
    lookup = {token.casefold(): seat for seat, token in enumerate(tokens)}
    words = list(_WORD.finditer(text))
    if not words:
        raise MoveSyntaxError(msg("empty turn: expected the roll (`ROG307`) and each player's choice"),
                              0, 1, rule=_TURN_RULE)
    colours, numbers = _parse_roll(words[0].group())
    choices: list[Choice] = []
    bridges = exhausted = end = None
    phase = 0  # 0 choices, 1 bridge:, 2 exhausted:, 3 end
    for match in words[1:]:
        word, start = match.group(), match.start()
        key, colon, value = word.partition(":")
        keyword = key.lower()
        if keyword in _KEYWORDS and (colon or keyword == "end") and keyword not in lookup:
            wanted = _KEYWORDS.index(keyword) + 1
            if wanted <= phase:
                raise MoveSyntaxError(
                    msg("`{word}` is out of place: a turn is written roll, choices, `bridge:`, "
                        "`exhausted:`, `end`, each at most once",
                        word=word), start, len(word), rule=_TURN_RULE)
            phase = wanted
            at = start + len(key) + 1
            if keyword == "end":
                if colon:
                    raise MoveSyntaxError(msg("`end` takes no value: it says the game ends with this "
                                              "turn"), start, len(word), rule=_TURN_RULE)
                end = Item(True, start, len(word))
            elif keyword == "bridge":
                bridges = Item(_columns(value, at, word), start, len(word))
            else:
                seats: list[int] = []
                pos = at
                for part in value.split(","):
                    found = lookup.get(part.casefold())
                    seat_match = _SEAT.fullmatch(part)
                    if found is None and seat_match is not None \
                            and int(seat_match.group(1)) <= len(tokens):
                        found = int(seat_match.group(1)) - 1
                    if found is None or found in seats:
                        what = msg("twice") if found in seats else msg("an unknown player")
                        raise MoveSyntaxError(
                            msg("`{value}` in `{word}` is {what}: `exhausted:` lists players "
                                "({tokens})",
                                value=part or msg("(nothing)"),
                                word=word, what=what, tokens=', '.join(tokens)), pos, max(len(part), 1),
                            code="unknown-player", rule=_PLAYER_RULE)
                    seats.append(found)
                    pos += len(part) + 1
                seats.sort()
                exhausted = Item((tuple(seats), tuple(tokens[s] for s in seats)), start,
                                 len(word))
            continue
        if phase:
            raise MoveSyntaxError(msg("`{word}` is out of place: the choices come before `bridge:`, "
                                      "`exhausted:` and `end`", word=word), start, len(word), rule=_TURN_RULE)
        choices.append(_parse_choice(word, start, tokens, lookup))
    if not choices:
        raise MoveSyntaxError(msg("a turn without choices: after the roll, every player writes a "
                                  "choice, the roller first (`{tokens}:R3`, `{tokens}:-`)", tokens=tokens[0]),
                              len(text), 1, code="no-choice", rule=_TURN_RULE)
    return RollWriteMove(colours, numbers, len(words[0].group()), tuple(choices), bridges,
                         exhausted, end)


# -- state ------------------------------------------------------------------------------


class Sheet:
    """One player's game sheet."""

    __slots__ = ("artefacts", "circle", "dice", "numbers", "top")

    def __init__(self) -> None:
        self.numbers: dict[str, list[int]] = {c: [] for c in COLOURS}
        #: "X" marked, "-" struck (the expedition started without it), "" still open.
        self.circle: dict[str, str] = dict.fromkeys(COLOURS, "")
        self.top: dict[str, bool] = dict.fromkeys(COLOURS, False)
        self.artefacts = 0
        self.dice = 0

    def copy(self) -> Sheet:
        other = Sheet.__new__(Sheet)
        other.numbers = {c: list(v) for c, v in self.numbers.items()}
        other.circle = dict(self.circle)
        other.top = dict(self.top)
        other.artefacts = self.artefacts
        other.dice = self.dice
        return other

    @property
    def exhausted(self) -> bool:
        return self.dice >= BOXES

    def filled(self, column: str) -> int:
        """Boxes filled (an expedition) or spaces shaded (``A``, ``D``)."""
        if column == "A":
            return self.artefacts
        if column == "D":
            return self.dice
        return len(self.numbers[column])


@dataclass(slots=True)
class SheetScore:
    """One sheet's score, part by part."""

    expeditions: dict[str, int]
    artefacts: int
    dice: int
    bridges: int

    @property
    def total(self) -> int:
        return sum(self.expeditions.values()) + self.artefacts + self.dice + self.bridges

    def parts(self) -> dict[str, int]:
        return {**self.expeditions, "art": self.artefacts, "dice": self.dice,
                "bonus": self.bridges}


def score_sheet(sheet: Sheet, bridges_won: int) -> SheetScore:
    """Score a sheet (RW-SCORE-EXPEDITION, -DOUBLE, -ARTEFACTS, -DICE, -BRIDGES)."""
    expeditions = {c: expedition_points(len(sheet.numbers[c]), sheet.circle[c] == "X")
                   for c in COLOURS}
    return SheetScore(expeditions, ARTEFACT_POINTS[min(sheet.artefacts, BOXES)],
                      DICE_POINTS[min(sheet.dice, BOXES)], BRIDGE_POINTS * bridges_won)


class RollWriteState:
    """The sheets after some turns, the bridges, and what is known of the layout."""

    __slots__ = ("bridges", "calls", "evidence", "given", "kinds", "last", "layout_source",
                 "lost", "names", "numbered", "numbers", "offset", "pending", "players", "sheets",
                 "shift", "texts", "tokens", "turn")

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.players = len(names)
        self.tokens = player_tokens(names)
        self.sheets = [Sheet() for _ in names]
        #: Per bridge column: (turn, seats that scored it), or None while nobody passed it.
        self.bridges: dict[str, tuple[int, tuple[int, ...]] | None] = dict.fromkeys(COLUMNS)
        #: What each box carries, as far as known, and whether that came from a given layout.
        self.kinds: dict[str, list[BoxKind]] = {c: [BoxKind(None, None)] * BOXES
                                                for c in COLOURS}
        self.given: dict[str, list[BoxKind]] = {c: [BoxKind(None, None)] * BOXES
                                                for c in COLOURS}
        #: Where each known part of a box was first seen: (turn, seat) per box, per part.
        self.evidence: dict[tuple[str, int, str], tuple[int, int]] = {}
        self.layout_source = "record"
        self.turn = 0
        #: Seats the rolls moved on by after a turn was rolled by another player than the one
        #: due (a turn left out or written twice): the record is followed from there on.
        self.shift = 0
        self.last: RollWriteMove | None = None
        #: The record's turn texts and written move numbers (None where none is written):
        #: numbers that say two turns were written in each other's place are followed.
        self.texts: tuple[str, ...] = ()
        self.numbers: tuple[int | None, ...] = ()
        #: A turn played ahead of its place (two turns written swapped) and its problems.
        self.pending: tuple[RollWriteMove, list[Problem]] | None = None
        #: Turns of the record played so far (``apply`` calls, whatever they did), and how
        #: far the record's position is from it, as the last move number read told: the
        #: turn about to be played stands at ``calls + offset`` in the record.
        self.calls = 0
        self.offset = 0
        #: The written move numbers less the expected ones since the last jump.
        self.numbered = 0
        #: Whether the numbers jumped ahead (turns left out): the boxes the lost turns filled
        #: are missing from the sheets, so what the marks say of a box is not held against
        #: what an earlier filling said, and a full expedition is taken as written.
        self.lost = False

    @property
    def roller(self) -> int:
        """The seat that rolls the next turn (Player1 rolls first, then clockwise)."""
        return (self.turn + self.shift) % self.players

    @property
    def over(self) -> bool:
        return (all(s.exhausted for s in self.sheets)
                or all(self.bridges[c] is not None for c in COLUMNS))

    def bridge_states(self, seat: int) -> dict[str, str | None]:
        states: dict[str, str | None] = {}
        for column in COLUMNS:
            taken = self.bridges[column]
            states[column] = None if taken is None else ("won" if seat in taken[1] else "struck")
        return states

    def bridges_won(self, seat: int) -> int:
        return sum(1 for taken in self.bridges.values() if taken is not None and seat in taken[1])


def _filled(sheet: Sheet) -> list[int]:
    """``Sheet.filled`` of every column at once, in the order of ``COLUMNS`` (a sheet's
    expeditions are kept in the order of ``COLOURS``): the bridges compare it before and
    after a turn."""
    return [*map(len, sheet.numbers.values()), sheet.artefacts, sheet.dice]


def _lost(state: RollWriteState) -> bool:
    """``state.lost``, or False for a state made without ``__init__`` (a trial copy of
    some of its parts) that never read a record's numbers."""
    lost: bool = getattr(state, "lost", False)
    return lost


def _box_label(colour: str, box: int) -> str:
    """A box named for people (``red box 4``); made only when a problem is told about it."""
    return msg("{colour} box {box}", colour=COLOUR_NAMES[colour], box=box + 1)


# -- the variant ------------------------------------------------------------------------


#: The quick verdict (``lcn.games.rollwrite.verdict.express_check``), once
#: ``RollWriteVariant.express_check`` has imported it.
_VERDICT: Callable[[GameRecord, list[str]], ExpressResult | None] | None = None


def _verdict() -> Callable[[GameRecord, list[str]], ExpressResult | None]:
    """The game package reads this module's tables at its import, so this module imports it
    when first asked for a verdict, never at its own import."""
    global _VERDICT
    from ..games.rollwrite.verdict import express_check

    _VERDICT = express_check
    return express_check


def choice_label(text: str, tokens: Sequence[str], names: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The label (key and parameters of ``lcn.moves.LABELS``) of a choice (``Ada:R3+>``) or a
    continuation word (``Y+``): one wording for the engine's listing and the core's."""
    from ..moves import label

    who, colon, rest = text.partition(":")
    params: dict[str, Any] = {"player": names[list(tokens).index(who)]} if colon else {}
    if not colon:
        rest = text
    if rest == "-":
        return "rollwrite.refuse", params
    colour, body = rest[0], rest[1:]
    params["colour"] = COLOUR_NAMES[colour]
    if colon and body == "0":
        return "rollwrite.circle", params
    value = body.rstrip("+>-^")
    marks = body[len(value):]
    params["value"] = value
    kind = "write" if colon else "accelerate"
    if marks == "^":
        return f"rollwrite.{kind}.top", params
    words = [label("rollwrite.mark.artefact", {})] if marks.startswith("+") else []
    if marks.endswith(">-"):
        words.append(label("rollwrite.mark.decline", {}))
    elif marks.endswith(">"):
        words.append(label("rollwrite.mark.accelerate", {}))
    params["marks"] = join(words, "")
    return f"rollwrite.{kind}", params


class RollWriteVariant(NumberedTurns[RollWriteState, RollWriteMove]):
    """Lost Cities: Roll & Write through the variant interface.

    ``layout`` is a sheet layout (:func:`parse_layout`) that applies to every record checked
    by this instance, as the printed sheet the players used; a record's ``Sheet`` tag still
    takes precedence box by box where it says more.
    """

    name = "rollwrite"
    title = "Lost Cities: Roll & Write"
    turn_unit = "numbered"
    rule_game_over = "RW-END-CONDITION"
    rule_result = "RW-END-RESULT"
    rule_turn_order = "RW-TURN-ORDER"
    consequences = frozenset({"layout-mismatch", "bridge-mismatch", "exhausted-mismatch",
                              "not-the-end", "not-ascending", "expedition-full", "not-full",
                              "top-claimed", "circle-too-late", "circle-twice", "zero-start"})
    min_players = 2
    max_players = 5
    express = True

    def __init__(self, layout: dict[str, list[BoxKind]] | None = None) -> None:
        self.layout = layout

    def express_check(self, record: GameRecord, words: list[str]) -> ExpressResult | None:
        if self.layout is not None or os.environ.get(LAYOUT_ENV):
            return None  # a layout given (RW-SETUP-LAYOUT): the engine checks the game
        # Imported on first use, then kept (an import statement costs more than the rest of
        # this per game).
        return (_VERDICT or _verdict())(record, words)

    # -- setup ------------------------------------------------------------------------
    def _seats(self, record: GameRecord) -> tuple[list[str], list[Problem]]:
        return self.seats_from_tags(record, "RW-SETUP-PLAYERS")

    def players(self, record: GameRecord, state: RollWriteState | None = None) -> list[str]:
        if state is not None:
            return list(state.names)
        return self._seats(record)[0]

    def setup(self, record: GameRecord) -> tuple[RollWriteState, list[Problem]]:
        names, problems = self._seats(record)
        state = RollWriteState(names)
        sources: list[tuple[str, dict[str, list[BoxKind]]]] = []
        if self.layout is not None:
            sources.append(("option", self.layout))
        else:
            path = os.environ.get(LAYOUT_ENV)
            if path:
                try:
                    sources.append(("file", load_layout(path)))
                except LayoutError as exc:
                    problems.append(Problem("bad-layout", "RW-SETUP-LAYOUT",
                                            msg("{variable}: {error}", variable=LAYOUT_ENV,
                                                error=exc.args[0]), tag="Variant"))
        text = record.tags.get("Sheet")
        if text is not None:
            try:
                sources.append(("tag", parse_layout(text)))
            except LayoutError as exc:
                problems.append(Problem("bad-layout", "RW-SETUP-LAYOUT",
                                        msg("Sheet: {exc}; the layout is taken from the record's "
                                            "marks", exc=exc.args[0]), tag="Sheet"))
        used = []
        for source, layout in sources:
            for colour in COLOURS:
                for index, kind in enumerate(layout[colour]):
                    if kind.arrow is None and kind.artefact is None:
                        continue
                    state.given[colour][index] = kind
                    state.kinds[colour][index] = kind
                    if source not in used:
                        used.append(source)
        if used:
            unknown = any(k.arrow is None or k.artefact is None
                          for c in COLOURS for k in state.kinds[c])
            state.layout_source = used[-1] if len(used) == 1 and not unknown else "mixed"
        state.texts = tuple(turn.text for turn in record.turns)
        state.numbers = tuple(turn.number for turn in record.turns)
        return state, problems

    @staticmethod
    def _numbers(state: RollWriteState) -> None:
        """Read the move number written before the turn about to be played as evidence: a
        number that jumps ahead shows turns left out (``RollWriteState.lost``)."""
        turn = state.calls + state.offset
        written = state.numbers[turn] if 0 <= turn < len(state.numbers) else None
        if written is not None and turn and written != turn + 1 + state.numbered:
            if written > turn + 1 + state.numbered:
                state.lost = True
            state.numbered = written - turn - 1

    # -- turns ------------------------------------------------------------------------
    def parse_move(self, state: RollWriteState, text: str) -> RollWriteMove:
        try:
            return parse_move(text, state.tokens)
        except MoveSyntaxError as exc:
            name_hint(exc, text, state.names, state.tokens)
            raise

    def format_move(self, move: RollWriteMove) -> str:
        return format_move(move)

    def current_player(self, state: RollWriteState) -> int:
        return state.roller

    def is_over(self, state: RollWriteState) -> bool:
        return state.over

    def end_reason(self, state: RollWriteState) -> str:
        if all(s.exhausted for s in state.sheets):
            return msg("every player is exhausted")
        return msg("all eight bridges are passed")

    def progress(self, state: RollWriteState) -> str:
        left = [COLUMN_NAMES[c] for c in COLUMNS if state.bridges[c] is None]
        fresh = [state.names[s] for s, sheet in enumerate(state.sheets) if not sheet.exhausted]
        if len(left) == 1:
            return msg("{count} bridge not passed yet ({bridges}) and {players} not exhausted",
                       count=len(left), bridges=join(left), players=", ".join(fresh))
        return msg("{count} bridges not passed yet ({bridges}) and {players} not exhausted",
                   count=len(left), bridges=join(left), players=", ".join(fresh))

    def _apply(self, state: RollWriteState, move: RollWriteMove) -> list[Problem]:
        problems: list[Problem] = []
        roller, choices = self._check_order(state, move, state.roller, problems)
        turn = state.turn + 1
        names = state.names
        colours = list(move.colours)
        numbers = list(move.numbers)
        # What each sheet had filled, in the columns whose bridge nobody has passed yet
        # (the only ones the bridges below look at).
        open_columns = [(index, c) for index, c in enumerate(COLUMNS) if state.bridges[c] is None]
        before = [_filled(s) for s in state.sheets]
        exhausted_before = [s.exhausted for s in state.sheets]
        available: tuple[list[str], list[int]] | None = None
        for choice in choices:
            is_roller = choice.seat == roller
            pool = (colours, numbers) if is_roller or available is None else available
            if choice.kind != "refuse":
                found = len(problems)
                self._check_dice(state, choice, pool, is_roller, move, problems)
                if len(problems) > found:
                    choice = self._likely_choice(state, choice, pool)
            if is_roller:
                if choice.kind == "refuse":
                    available = (colours, numbers)
                else:
                    rest_c, rest_n = list(colours), list(numbers)
                    if choice.colour in rest_c:
                        rest_c.remove(choice.colour)
                    if choice.die in rest_n:
                        rest_n.remove(choice.die)
                    available = (rest_c, rest_n)
            self._choose(state, choice, turn, problems)
        # Bridges: every player who passes a bridge nobody passed before scores it (RW-BRIDGE-FIRST).
        newly: list[str] = []
        after = [_filled(s) for s in state.sheets]
        for index, column in open_columns:
            passers = tuple(seat for seat, filled in enumerate(after)
                            if filled[index] >= BRIDGE_BOX > before[seat][index])
            if passers:
                state.bridges[column] = (turn, passers)
                newly.append(column)
        if move.bridges is not None and tuple(move.bridges.value) != tuple(newly):
            said = join(COLUMN_NAMES[c] for c in move.bridges.value)
            real: str = join(COLUMN_NAMES[c] for c in newly) if newly else msg("none")
            problems.append(Problem(
                "bridge-mismatch", "RW-BRIDGE-FIRST",
                msg("`bridge:` says the {said} bridges were passed for the first time in this "
                    "turn, but the bridges passed first now are: {real}", said=said, real=real)
                if len(move.bridges.value) > 1 else
                msg("`bridge:` says the {said} bridge was passed for the first time in this "
                    "turn, but the bridges passed first now are: {real}", said=said, real=real),
                offset=move.bridges.offset, length=move.bridges.length))
        fresh = tuple(seat for seat, sheet in enumerate(state.sheets)
                      if sheet.exhausted and not exhausted_before[seat])
        if move.exhausted is not None and move.exhausted.value[0] != fresh:
            real = ", ".join(names[s] for s in fresh) or msg("nobody")
            problems.append(Problem(
                "exhausted-mismatch", "RW-DICE-EXHAUSTED",
                msg("`exhausted:{value}` does not match the sheets: the players exhausted in this "
                    "turn (their ninth dice symbol shaded) are: {real}",
                    value=",".join(move.exhausted.value[1]), real=real),
                offset=move.exhausted.offset, length=move.exhausted.length))
        state.turn = turn
        state.last = move
        if move.end is not None and not state.over:
            problems.append(Problem(
                "not-the-end", "RW-END-CONDITION",
                msg("`end`, but the game goes on: {progress}",
                    progress=self.progress(state)), offset=move.end.offset,
                length=move.end.length))
        return problems

    @staticmethod
    def _check_order(state: RollWriteState, move: RollWriteMove, roller: int,
                     problems: list[Problem]) -> tuple[int, tuple[Choice, ...]]:
        """Check the seats of the choices; the seat that rolled and the choices to apply.

        When the choices are every player's once, clockwise, but from another seat than
        the one due to roll, a turn was most likely left out or written twice: that is
        reported once, and the rolls go on from the seat the record shows.
        """
        written = [c.seat for c in move.choices]
        if len(written) == state.players and written[0] == roller \
                and written == [(roller + step) % state.players for step in range(state.players)]:
            return roller, move.choices  # every player once, clockwise from the roller
        names = state.names
        first = move.choices[0].seat if move.choices else roller
        rotation = [(first + step) % state.players for step in range(state.players)]
        if first != roller and [c.seat for c in move.choices] == rotation:
            problems.append(Problem(
                "turn-order", "RW-TURN-ORDER",
                msg("{roller} rolls turn {turn} (the roll goes clockwise from {first}), so "
                    "{roller}'s choice comes first, not {written}'s", roller=names[roller],
                    turn=state.turn + 1, first=names[state.shift], written=names[first]),
                offset=move.choices[0].offset,
                length=move.choices[0].length, hint=hint("roller", written=names[first])))
            state.shift = (state.shift + first - roller) % state.players
            return first, move.choices
        expected = [(roller + step) % state.players for step in range(state.players)]
        written = [c.seat for c in move.choices]
        wrong = [k for k in range(min(len(written), len(expected))) if written[k] != expected[k]]
        if len(written) == len(expected) and len(wrong) == 1:
            # One seat miswritten, every other where it belongs: the choice is the missing
            # player's, and is applied as theirs.
            k = wrong[0]
            choice, seat = move.choices[k], expected[k]
            problems.append(Problem(
                "turn-order", "RW-TURN-ORDER",
                msg("{written}'s choice stands where {due}'s is due (the choices follow the seats "
                    "clockwise from the roller, {roller}); it is taken as {due}'s",
                    written=names[written[k]], due=names[seat], roller=names[roller]),
                offset=choice.offset, length=choice.length,
                hint=hint("seat-slip", token=state.tokens[seat], name=names[seat])))
            choices = list(move.choices)
            choices[k] = choice._replace(seat=seat, token=state.tokens[seat])
            return roller, tuple(choices)
        seen: list[int] = []
        for index, choice in enumerate(move.choices):
            if choice.seat in seen:
                problems.append(Problem(
                    "choice-twice", "RW-TURN-ORDER",
                    msg("{name} chooses twice in one turn: each player makes one choice per roll",
                        name=names[choice.seat]), offset=choice.offset, length=choice.length))
                continue
            seen.append(choice.seat)
            if index < len(expected) and choice.seat != expected[index] \
                    and expected[index] not in seen:
                if index == 0:
                    message = msg("{roller} rolls turn {turn} (the roll goes clockwise from "
                                  "{first}), so {roller}'s choice comes first, not {written}'s",
                                  roller=names[roller], turn=state.turn + 1,
                                  first=names[state.shift], written=names[choice.seat])
                else:
                    message = msg("{name}'s choice is out of order: the choices follow the seats "
                                  "clockwise from the roller, and {next} comes next",
                                  name=names[choice.seat], next=names[expected[index]])
                problems.append(Problem("turn-order", "RW-TURN-ORDER", message,
                                        offset=choice.offset, length=choice.length))
        missing = [names[s] for s in expected if s not in seen]
        if missing:
            last = move.choices[-1]
            problems.append(Problem(
                "choice-missing", "RW-TURN-ORDER",
                msg("no choice for {missing}: every player writes something or refuses "
                    "(`{tokens}:-`) on every roll",
                    missing=', '.join(missing), tokens=state.tokens[expected[0]]),
                offset=last.offset + last.length, length=1))
        return roller, move.choices

    @staticmethod
    def _check_dice(state: RollWriteState, choice: Choice, pool: tuple[list[str], list[int]],
                    is_roller: bool, move: RollWriteMove, problems: list[Problem]) -> None:
        colour, die = choice.colour, choice.die
        colours, numbers = pool
        name = state.names[choice.seat]
        first = choice.steps[0]
        if colour in colours and die in numbers:
            return  # the usual case: nothing to tell, so no words are made
        dice_text = msg("{colour} and {die}", colour=colour, die="0" if die == 0 else die)
        roll = format_roll(move.colours, move.numbers)
        if is_roller:
            missing = msg("colour die {colour}", colour=colour) if colour not in colours \
                else msg("number die {die}", die=die)
            problems.append(Problem(
                "not-rolled", "RW-TURN-ROLLER-DICE",
                msg("{name} rolled {roll}: there is no {missing} to take ({name} takes one colour "
                    "die and one number die of the six)", name=name, roll=roll, missing=missing),
                offset=first.offset, length=first.length))
            return
        if colour in move.colours and die in move.numbers:
            rest = "".join(colours) + "".join(map(str, numbers))
            problems.append(Problem(
                "die-taken", "RW-TURN-OTHERS-DICE",
                msg("{name} cannot use {dice}: the roller took that die, and the others choose "
                    "from the four left ({rest})", name=name, dice=dice_text, rest=rest)
                if (colour in colours) != (die in numbers) else
                msg("{name} cannot use {dice}: the roller took those dice, and the others choose "
                    "from the four left ({rest})", name=name, dice=dice_text, rest=rest),
                offset=first.offset,
                length=first.length))
            return
        problems.append(Problem(
            "not-rolled", "RW-TURN-OTHERS-DICE",
            msg("{name} cannot use {dice}: the roll is {roll}",
                name=name, dice=dice_text, roll=roll), offset=first.offset,
            length=first.length))

    @staticmethod
    def _likely_choice(state: RollWriteState, choice: Choice,
                       pool: tuple[list[str], list[int]]) -> Choice:
        """The choice most likely meant when it names a die that was not there to take.

        A colour or a number miswritten is the usual slip: when exactly one die of the pool
        in its place would make a legal write, the choice is applied with that die, so the
        player's sheet stays as it was at the table and later turns are checked against it.
        Otherwise the choice is applied as written.
        """
        if choice.kind != "write" or choice.die is None:
            return choice
        colours, numbers = pool
        colour, die = choice.colour, choice.die
        sheet = state.sheets[choice.seat]
        candidates = []
        for c in ([colour] if colour in colours else sorted(set(colours))):
            for d in ([die] if die in numbers else sorted(set(numbers))):
                filled = sheet.numbers[c]
                value = 10 if d == 0 else d
                if (d != 0 or filled) and len(filled) < BOXES \
                        and value >= (filled[-1] if filled else 0):
                    candidates.append((c, d))
        if len(candidates) != 1:
            return choice
        c, d = candidates[0]
        first = replace(choice.steps[0], colour=c)
        return choice._replace(die=d, steps=(first, *choice.steps[1:]))

    def _choose(self, state: RollWriteState, choice: Choice, turn: int,
                problems: list[Problem]) -> None:
        sheet = state.sheets[choice.seat]
        name = state.names[choice.seat]
        if choice.kind == "refuse":
            if sheet.dice < BOXES:
                sheet.dice += 1
            return
        first = choice.steps[0]
        colour = first.colour
        numbers = sheet.numbers[colour]
        if choice.kind == "circle":
            if numbers:
                problems.append(Problem(
                    "circle-too-late", "RW-CIRCLE",
                    msg("{name} cannot mark the {expedition} circle: the expedition has started "
                        "({numbers}); a 0 is now written as 10 (`{colour}10`)",
                        name=name, expedition=COLOUR_NAMES[colour], numbers=" ".join(map(str, numbers)),
                    colour=colour), offset=first.offset, length=first.length,
                    hint=hint("zero-started", choice=f"{colour}0", colour=colour)))
            elif sheet.circle[colour] == "X":
                problems.append(Problem(
                    "circle-twice", "RW-CIRCLE",
                    msg("{name}'s {expedition} circle is already marked: a 0 cannot start the "
                        "expedition either (RW-WRITE-ZERO-START)",
                        name=name, expedition=COLOUR_NAMES[colour]), offset=first.offset,
                    length=first.length))
            else:
                sheet.circle[colour] = "X"
            return
        value = choice.value
        assert value is not None
        top = numbers[-1] if numbers else 0
        if choice.die == 0 and not numbers:
            problems.append(Problem(
                "zero-start", "RW-WRITE-ZERO-START",
                msg("{name} cannot open the {expedition} expedition with a 0: a 0 reads 10 only "
                    "during an expedition; before it, a 0 marks the circle (`{colour}0`)",
                    name=name, expedition=COLOUR_NAMES[colour], colour=colour),
                offset=first.offset, length=first.length))
            return
        if value < top:
            where = msg("{name}'s {colour} expedition", name=name, colour=COLOUR_NAMES[colour])
            problems.append(Problem(
                "not-ascending", "RW-WRITE-ASCENDING",
                msg("{value} cannot follow {top} in {where}: each number is equal to or greater than "
                    "the one below it",
                    value=value, top=top, where=where), offset=first.offset, length=first.length))
            return
        self._fill(state, choice, 0, value, turn, problems)

    def _fill(self, state: RollWriteState, choice: Choice, index: int, value: int, turn: int,
              problems: list[Problem]) -> None:
        """Fill the box of step ``index`` with ``value``, then follow its marks (and chain)."""
        step = choice.steps[index]
        seat = choice.seat
        sheet = state.sheets[seat]
        name = state.names[seat]
        colour = step.colour
        numbers = sheet.numbers[colour]

        if len(numbers) >= BOXES:
            if not step.top:
                rule = "RW-WRITE-FULL" if index == 0 else "RW-ACCEL-FULL"
                problems.append(Problem(
                    "expedition-full", rule,
                    msg("{name}'s {expedition} expedition is full (nine boxes): to write there, "
                        "claim its top artefact (`{colour}{value}^`)", name=name,
                        expedition=COLOUR_NAMES[colour], colour=colour, value=value)
                    if index == 0 else
                    msg("{name}'s {expedition} expedition is full (nine boxes): to accelerate "
                        "there, claim its top artefact (`>{colour}^`)", name=name,
                        expedition=COLOUR_NAMES[colour], colour=colour),
                    offset=step.offset, length=step.length))
                return
            if sheet.top[colour]:
                rule = "RW-TOP-ARTEFACT" if index == 0 else "RW-ACCEL-FULL"
                problems.append(Problem(
                    "top-claimed", rule,
                    msg("{name} has already claimed the top artefact of the {expedition} "
                        "expedition: it can be claimed once",
                        name=name, expedition=COLOUR_NAMES[colour]), offset=step.offset, length=step.length))
                return
            sheet.top[colour] = True
            self._shade(sheet)
            return
        if step.top and _lost(state):
            # The turns the record lost filled the rest of the expedition.
            numbers.extend([value] * (BOXES - len(numbers)))
            sheet.top[colour] = True
            self._shade(sheet)
            return
        if step.top:
            problems.append(Problem(
                "not-full", "RW-TOP-ARTEFACT",
                msg("`^`: {name}'s {expedition} expedition has {count} of its nine boxes "
                    "filled; its top artefact is claimed only once all nine are",
                    name=name, expedition=COLOUR_NAMES[colour], count=len(numbers)),
                offset=step.offset, length=step.length))
            return
        box = len(numbers)
        if not numbers and sheet.circle[colour] == "":
            sheet.circle[colour] = "-"
        numbers.append(value)
        kind = self._box_kind(state, choice, index, box, turn, problems)
        if kind.artefact:
            self._shade(sheet)
        if step.arrow == ">":
            target = choice.steps[index + 1].colour
            target_numbers = sheet.numbers[target]
            copy = target_numbers[-1] if target_numbers else 1
            self._fill(state, choice, index + 1, copy, turn, problems)

    @staticmethod
    def _shade(sheet: Sheet) -> None:
        if sheet.artefacts < BOXES:
            sheet.artefacts += 1

    @staticmethod
    def _box_kind(state: RollWriteState, choice: Choice, index: int, box: int, turn: int,
                  problems: list[Problem]) -> BoxKind:
        """Check a filled box's marks against the layout; learn the box where it is unknown."""
        step = choice.steps[index]
        colour = step.colour
        seat = choice.seat
        name = state.names[seat]
        known = state.kinds[colour][box]
        given = state.given[colour][box]
        says_artefact = step.artefact
        says_arrow = step.arrow is not None
        artefact = known.artefact
        arrow = known.arrow
        # The artefact.
        if known.artefact is None:
            artefact = says_artefact
            state.evidence[(colour, box, "artefact")] = (turn, seat)
        elif given.artefact is not None:
            if says_artefact and not given.artefact:
                problems.append(Problem(
                    "no-artefact", "RW-ARTEFACT-BOX",
                    msg("`+`: the {label} of the sheet's layout carries no artefact, so {name} "
                        "shades none", label=_box_label(colour, box), name=name),
                    offset=step.offset, length=step.length))
        elif says_artefact != known.artefact and not _lost(state):
            seen_turn, seen_seat = state.evidence[(colour, box, "artefact")]
            other = state.names[seen_seat]
            label = _box_label(colour, box)
            if known.artefact:
                message = (f"{name} writes in the {label} without shading an artefact, but it "
                           f"gave {other} an artefact in turn {seen_turn}: a box gives one to "
                           "every player who fills it (mark it `+`)")
            else:
                message = (f"{name} shades an artefact for the {label}, but it gave {other} none "
                           f"in turn {seen_turn}: a box with an artefact gives one to every "
                           "player who fills it")
            problems.append(Problem("layout-mismatch", "RW-LAYOUT-CONSISTENT", message,
                                    offset=step.offset, length=step.length))
        # The arrow.
        if known.arrow is None:
            arrow = says_arrow
            state.evidence[(colour, box, "arrow")] = (turn, seat)
        elif given.arrow is not None:
            if says_arrow and not given.arrow:
                problems.append(Problem(
                    "no-arrow", "RW-ACCEL-ARROW",
                    msg("`>`: the {label} of the sheet's layout carries no acceleration arrow, so "
                        "{name} cannot accelerate from it",
                        label=_box_label(colour, box), name=name), offset=step.offset, length=step.length))
        elif says_arrow != known.arrow and not _lost(state):
            seen_turn, seen_seat = state.evidence[(colour, box, "arrow")]
            other = state.names[seen_seat]
            label = _box_label(colour, box)
            if known.arrow:
                message = (f"{name} fills the {label} without a `>` mark, but it offered {other} "
                           f"an acceleration in turn {seen_turn}: write where the acceleration "
                           "goes (`>G`) or that it is declined (`>-`)")
            else:
                message = (f"{name} accelerates from the {label}, but it offered {other} no "
                           f"acceleration in turn {seen_turn}: a box with an arrow offers one to "
                           "every player who fills it")
            problems.append(Problem("layout-mismatch", "RW-LAYOUT-CONSISTENT", message,
                                    offset=step.offset, length=step.length))
        kind = BoxKind(arrow, artefact)
        state.kinds[colour][box] = kind
        return kind

    # -- scoring ----------------------------------------------------------------------
    def score(self, state: RollWriteState) -> Score:
        totals: list[int] = []
        breakdown: list[dict[str, int]] = []
        details: list[Any] = []
        for seat, sheet in enumerate(state.sheets):
            won = state.bridges_won(seat)
            result = score_sheet(sheet, won)
            totals.append(result.total)
            breakdown.append(result.parts())
            details.append({
                "expeditions": [{"colour": c, "numbers": list(sheet.numbers[c]),
                                 "boxes": len(sheet.numbers[c]), "circle": sheet.circle[c],
                                 "doubled": sheet.circle[c] == "X", "top": sheet.top[c],
                                 "points": result.expeditions[c]} for c in COLOURS],
                "artefacts": {"shaded": sheet.artefacts, "points": result.artefacts},
                "dice": {"shaded": sheet.dice, "exhausted": sheet.exhausted,
                         "points": result.dice},
                "bridges": {"won": [c for c in COLUMNS if state.bridges[c] is not None
                                    and seat in state.bridges[c][1]],  # type: ignore[index]
                            "points": result.bridges},
            })
        return Score(totals, breakdown, details)

    # -- presentation -----------------------------------------------------------------
    def snapshot(self, state: RollWriteState) -> dict[str, Any]:
        score = self.score(state)
        sheets = []
        for seat, sheet in enumerate(state.sheets):
            parts = score.breakdown[seat]
            sheets.append({
                "expeditions": {c: {"numbers": list(sheet.numbers[c]), "circle": sheet.circle[c],
                                    "top": sheet.top[c], "points": parts[c]} for c in COLOURS},
                "artefacts": sheet.artefacts,
                "dice": sheet.dice,
                "exhausted": sheet.exhausted,
                "bridges": state.bridge_states(seat),
                "points": dict(parts),
                "total": score.totals[seat],
            })
        last = state.last
        choices = []
        if last is not None:
            for choice in last.choices:
                boxes = []
                if choice.kind == "write":
                    boxes = self._boxes_of(state, choice)
                choices.append({"player": choice.seat, "choice": format_steps(choice),
                                "kind": choice.kind, "colour": choice.colour,
                                "number": choice.value if choice.kind == "write" else
                                (0 if choice.kind == "circle" else None),
                                "boxes": boxes})
        return {
            "variant": self.name,
            "turn": state.turn,
            "next_player": None if state.over else state.roller,
            "over": state.over,
            "colours": list(COLOURS),
            "boxes": BOXES,
            "bridge_after": BRIDGE_BOX,
            "sheets": sheets,
            "bridges": {c: None if state.bridges[c] is None else
                        {"turn": state.bridges[c][0],  # type: ignore[index]
                         "players": list(state.bridges[c][1])}  # type: ignore[index]
                        for c in COLUMNS},
            "layout": {c: [layout_char(k) for k in state.kinds[c]] for c in COLOURS},
            "layout_source": state.layout_source,
            "roll": None if last is None else {"colours": list(last.colours),
                                               "numbers": list(last.numbers)},
            "roller": None if last is None else (state.turn - 1 + state.shift) % state.players,
            "choices": choices,
            "scores": score.totals,
            "breakdown": score.breakdown,
            "last_move": format_move(last) if last is not None else None,
        }

    @staticmethod
    def _boxes_of(state: RollWriteState, choice: Choice) -> list[dict[str, Any]]:
        """The boxes a choice of the last turn filled, found on the sheet as it is now."""
        sheet = state.sheets[choice.seat]
        counts: dict[str, int] = {}
        for step in choice.steps:
            counts[step.colour] = counts.get(step.colour, 0) + (0 if step.top else 1)
        taken: dict[str, int] = {}
        boxes: list[dict[str, Any]] = []
        for step in choice.steps:
            if step.top:
                boxes.append({"colour": step.colour, "box": None, "value": None, "top": True,
                              "artefact": True, "arrow": False})
                continue
            numbers = sheet.numbers[step.colour]
            position = len(numbers) - counts[step.colour] + taken.get(step.colour, 0)
            taken[step.colour] = taken.get(step.colour, 0) + 1
            if not 0 <= position < len(numbers):
                break  # the choice broke a rule and was not written in full
            kind = state.kinds[step.colour][position]
            boxes.append({"colour": step.colour, "box": position + 1, "value": numbers[position],
                          "top": False, "artefact": bool(kind.artefact),
                          "arrow": bool(kind.arrow)})
        return boxes

    def render_text(self, state: RollWriteState, names: list[str], *,
                    view: int | None = None) -> str:
        """Every sheet as text. Sheets are public in Roll & Write, so ``view`` hides nothing."""
        score = self.score(state)
        # Each line a message (said in the reader's language by ``lcn show``), set out by
        # ``layout`` where it is columns rather than a sentence.
        lines: list[str] = []
        status = msg("game over") if state.over else msg("{name} rolls next",
                                                         name=names[state.roller])
        lines.append(msg("After turn {turn}: {status}", turn=state.turn, status=status))
        last = state.last
        if last is not None:
            roller = (state.turn - 1 + state.shift) % state.players
            said = join([set_out("{name} {choice}", name=names[c.seat], choice=self._describe(c))
                         for c in last.choices])
            lines.append(msg("Roll of {name}: {roll}; {choices}", name=names[roller],
                             roll=format_roll(last.colours, last.numbers), choices=said))
        passed = [msg("{column} ({names}, turn {turn})", column=c,
                      names=", ".join(names[s] for s in state.bridges[c][1]),  # type: ignore[index]
                      turn=state.bridges[c][0])  # type: ignore[index]
                  for c in COLUMNS if state.bridges[c] is not None]
        lines.append(msg("Bridges passed: {bridges}",
                         bridges=join(passed, "; ") if passed else msg("none")))
        source = _LAYOUT_SOURCES.get(state.layout_source)
        lines.append(msg("Layout ({source}): {layout}", source=Message(source) if source
                         else state.layout_source, layout=format_layout(state.kinds)))
        for seat, sheet in enumerate(state.sheets):
            lines.append("")
            lines.extend(self._sheet_lines(state, seat, sheet, names[seat], score.breakdown[seat],
                                           score.totals[seat]))
        return join([*lines, ""], "\n")

    @staticmethod
    def _describe(choice: Choice) -> str:
        if choice.kind == "refuse":
            return msg("refuses")
        if choice.kind == "circle":
            return msg("marks the {colour} circle", colour=COLOUR_NAMES[choice.colour or "R"])
        return format_steps(choice)

    @staticmethod
    def _sheet_lines(state: RollWriteState, seat: int, sheet: Sheet, name: str,
                     parts: dict[str, int], total: int) -> list[str]:
        """One sheet, drawn bottom up as on paper: boxes, bridges, circles, columns A and D."""
        width = 5
        head = "".join(f"{c:>{width}}" for c in COLOURS) + "  |" + f"{'A':>{width}}{'D':>{width}}"
        out: list[str] = [msg("{name} (exhausted)", name=name) if sheet.exhausted else name,
                          f"{'':7}{head}"]
        top_row = "".join(f"{('^' if sheet.top[c] else '.'):>{width}}" for c in COLOURS)
        out.append(set_out("{label:<7}{row}  |", label=msg("top"), row=top_row))
        bridges = state.bridge_states(seat)
        for row in range(BOXES, 0, -1):
            cells = []
            for colour in COLOURS:
                numbers = sheet.numbers[colour]
                kind = state.kinds[colour][row - 1]
                mark = ("*" if kind.arrow and kind.artefact else ">" if kind.arrow else
                        "A" if kind.artefact else "")
                text = str(numbers[row - 1]) if len(numbers) >= row else "."
                cells.append(f"{mark + text:>{width}}")
            art = "#" if sheet.artefacts >= row else "o"
            dice = "#" if sheet.dice >= row else "o"
            out.append(f"{row:<7}{''.join(cells)}  |{art:>{width}}{dice:>{width}}")
            if row == BRIDGE_BOX:
                marks = []
                for column in COLUMNS:
                    stateword = bridges[column]
                    marks.append({"won": "(20)", "struck": "--"}.get(stateword or "", "20"))
                row_text = "".join(f"{m:>{width}}" for m in marks[:6]) + "  |" + \
                    "".join(f"{m:>{width}}" for m in marks[6:])
                out.append(set_out("{label:<7}{row}", label=msg("bridge"), row=row_text))
        circles = "".join(f"{(sheet.circle[c] or 'o'):>{width}}" for c in COLOURS)
        out.append(set_out("{label:<7}{row}  |", label=msg("circle"), row=circles))
        points = "".join(f"{parts[c]:>{width}}" for c in COLOURS)
        out.append(set_out("{label:<7}{row}  |{art:>{width}}{dice:>{width}}", label=msg("points"),
                          row=points, art=parts["art"], dice=parts["dice"], width=width))
        out.append(msg("  bridges {bonus}, total {total}", bonus=parts["bonus"], total=total))
        return out

    def copy_state(self, state: RollWriteState) -> RollWriteState:
        other = RollWriteState.__new__(RollWriteState)
        other.names = state.names
        other.players = state.players
        other.tokens = state.tokens
        other.sheets = [s.copy() for s in state.sheets]
        other.bridges = dict(state.bridges)
        other.kinds = {c: list(v) for c, v in state.kinds.items()}
        other.given = state.given
        other.evidence = dict(state.evidence)
        other.layout_source = state.layout_source
        other.turn = state.turn
        other.shift = state.shift
        other.last = state.last
        other.texts = state.texts
        other.numbers = state.numbers
        other.pending = state.pending
        other.calls = state.calls
        other.offset = state.offset
        other.numbered = state.numbered
        other.lost = state.lost
        return other

    # -- legal continuations (lcn.moves) ----------------------------------------------
    lists_moves = True
    #: A turn being written: some dice of the roll, the roll alone, some players' choices
    #: missing, or a choice that ends with `>` (an acceleration whose expedition comes next).
    partial_codes = frozenset({"bad-roll", "no-choice", "choice-missing", "bad-acceleration"})
    #: The marks of a box filled by a number, as offered: nothing, an artefact, a declined
    #: acceleration, both, or an acceleration whose expedition is the next piece of the word.
    _MARKS = ("", "+", ">-", "+>-", ">", "+>")

    @staticmethod
    def _dice(prefix: str) -> list[tuple[str, str]]:
        """The next die of a roll written so far (``prefix``), each with a whole roll.

        A roll is written one die at a time, the three colour dice then the three number
        dice, each offered with every face it may show (the dice decide, in any order): at
        most ten pieces to choose from where the whole rolls would be thousands.
        """
        colours, numbers = prefix[:COLOUR_DICE], prefix[COLOUR_DICE:]
        if len(prefix) >= COLOUR_DICE + NUMBER_DICE \
                or not all(c.upper() in COLOURS for c in colours) \
                or not all(n in "0123456789" for n in numbers):
            return []
        if len(colours) < COLOUR_DICE:
            return [(c, prefix + c * (COLOUR_DICE - len(colours)) + "0" * NUMBER_DICE)
                    for c in COLOURS]
        return [(str(n), prefix + str(n) * (NUMBER_DICE - len(numbers))) for n in range(10)]

    def _written(self, state: RollWriteState, partial: str) -> RollWriteMove | None:
        """The turn written so far, parsed (a trailing `>` read as declined), or None."""
        text = partial + "-" if partial.endswith(">") else partial
        try:
            return parse_move(text, state.tokens)
        except MoveSyntaxError as exc:
            if exc.code != "no-choice":
                return None
        try:
            colours, numbers = _parse_roll(partial.strip())
        except MoveSyntaxError:
            return None
        return RollWriteMove(colours, numbers, len(partial.strip()), ())

    def _endings(self, state: RollWriteState, seat: int) -> list[str]:
        """Ways to finish an acceleration (the expedition and its box's marks), the likeliest
        legal first: only to show a piece that ends with `>` legal."""
        sheet = state.sheets[seat]
        endings = []
        for colour in COLOURS:
            numbers = sheet.numbers[colour]
            if len(numbers) >= BOXES:
                endings.append(f"{colour}^")
                continue
            kind = state.kinds[colour][len(numbers)]
            first = ("+" if kind.artefact else "") + (">-" if kind.arrow else "")
            endings += [colour + m for m in dict.fromkeys((first, "", "+", ">-", "+>-"))]
        return endings

    def _refusals(self, state: RollWriteState, start: int) -> str:
        """The players from the ``start``-th after the roller on, refusing (a completion)."""
        return "".join(f" {state.tokens[(state.roller + k) % state.players]}:-"
                       for k in range(start, state.players))

    def candidate_moves(self, state: RollWriteState, partial: str = ""
                        ) -> list[tuple[str, str]]:
        """The next piece of a turn: the roll; then, player by player from the roller, the
        choice with the marks of the box it fills (`Ada:R3+>-`), or ending with `>` when it
        accelerates; after a `>`, the expedition accelerated and its box's marks (`G+`, `G>`).

        Each comes with the whole turn that shows it legal (an acceleration finished in some
        expedition, the players after refusing); the engine filters what breaks a rule.
        """
        if state.over:
            return []
        if len(partial) < COLOUR_DICE + NUMBER_DICE:
            rest = self._refusals(state, 0)
            return [(die, roll + rest) for die, roll in self._dice(partial)]
        move = self._written(state, partial)
        if move is None:
            return []
        written = len(move.choices)
        if partial.endswith(">"):
            seat, before = move.choices[-1].seat, partial
            pieces = [colour + marks for colour in COLOURS for marks in ("^", *self._MARKS)]
            rest = self._refusals(state, written)
        else:
            if written >= state.players:
                return []
            seat, before = (state.roller + written) % state.players, partial + " "
            rest = self._refusals(state, written + 1)
            token = state.tokens[seat]
            sheet = state.sheets[seat]
            pieces = [f"{token}:-"]
            for colour in dict.fromkeys(move.colours):
                for die in dict.fromkeys(move.numbers):
                    if die == 0 and not sheet.numbers[colour]:
                        pieces.append(f"{token}:{colour}0")
                        continue
                    word = f"{token}:{colour}{10 if die == 0 else die}"
                    if len(sheet.numbers[colour]) >= BOXES:
                        pieces.append(word + "^")
                    else:
                        pieces += [word + marks for marks in self._MARKS]
        found: list[tuple[str, str]] = []
        for piece in pieces:
            if piece.endswith(">"):
                found += [(piece, before + piece + ending + rest)
                          for ending in self._endings(state, seat)]
            else:
                found.append((piece, before + piece + rest))
        return found

    def acting_seat(self, state: RollWriteState, partial: str = "") -> int:
        move = self._written(state, partial) if partial else None
        if move is None or not move.choices:
            return state.roller
        if partial.endswith(">") or len(move.choices) >= state.players:
            return move.choices[-1].seat
        return (state.roller + len(move.choices)) % state.players

    def move_label(self, state: RollWriteState, text: str, move: RollWriteMove
                   ) -> tuple[str, dict[str, Any]]:

        if text.isdigit():
            return "rollwrite.die.number", {"number": text}
        if len(text) == 1 and all(c.kind == "refuse" for c in move.choices):
            # A colour die (its whole turn is the roll and refusals; an acceleration's has
            # the choice that accelerates).
            return "rollwrite.die.colour", {"colour": COLOUR_NAMES[text]}
        return choice_label(text, state.tokens, state.names)

    def describe_move(self, state: RollWriteState, move: RollWriteMove, names: list[str]
                      ) -> TurnStory:
        """"Ivo writes purple 6; Tove refuses; Gus writes yellow 3, accelerates purple": each
        player's choice of the roll in the order written, with the artefacts shaded, the
        accelerations taken or declined and the top artefacts claimed."""
        from ..describe import TurnStory, colour_words
        from ..messages import join, msg

        told = []
        choices: list[dict[str, Any]] = []
        for choice in move.choices:
            player = names[choice.seat] if 0 <= choice.seat < len(names) else choice.token
            if choice.kind == "refuse":
                told.append(msg("{player} refuses", player=player))
                choices.append({"seat": choice.seat, "kind": "refuse"})
                continue
            colour = choice.colour or ""
            if choice.kind == "circle":
                told.append(msg("{player} marks the {colour} circle", player=player,
                                colour=colour_words(colour)))
                choices.append({"seat": choice.seat, "kind": "circle", "colour": colour})
                continue
            clauses = []
            accelerated: list[str] = []
            artefacts = 0
            for index, step in enumerate(choice.steps):
                if index == 0 and step.top:
                    clauses.append(msg("{player} claims the top artefact of {colour}",
                                       player=player, colour=colour_words(step.colour)))
                elif index == 0:
                    clauses.append(msg("{player} writes {colour} {value}", player=player,
                                       colour=colour_words(step.colour), value=choice.value))
                elif step.top:
                    accelerated.append(step.colour)
                    clauses.append(msg("accelerates into {colour} and claims its top artefact",
                                       colour=colour_words(step.colour)))
                else:
                    accelerated.append(step.colour)
                    clauses.append(msg("accelerates {colour}", colour=colour_words(step.colour)))
                if step.artefact:
                    artefacts += 1
                    clauses.append(msg("shades an artefact"))
                if step.arrow == "-":
                    clauses.append(msg("declines the acceleration"))
            told.append(join(clauses))
            choices.append({"seat": choice.seat, "kind": "write", "colour": colour,
                            "value": choice.value, "accelerated": accelerated,
                            "artefacts": artefacts})
        line = join(told, "; ") if told else msg("the dice are rolled")
        return TurnStory(line, {"player": state.roller, "choices": choices})


VARIANT = RollWriteVariant()
