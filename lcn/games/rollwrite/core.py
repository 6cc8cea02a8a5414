"""The fast full-information core of Lost Cities: Roll & Write: integer sheets, integer decisions.

A search plays hundreds of thousands of decisions per move, so a decision here is a few list
operations on small integers. The rules are those of ``seeds/rollwrite.md`` as
``lcn.variants.rollwrite`` checks them, and a failed :meth:`RollWriteCore.step` answers with
the rule ID that engine reports first for the same word (:class:`Rule`), leaving the state as
it was; ``tests/test_rollwrite_core.py`` holds the two equal on seeded games.

A decision is the next word a player writes, as ``lcn.legal_moves`` offers it: a choice
(``Ada:-``, ``Ada:R0``, ``Ada:R3+>-``, ``Ada:B7^``), where a trailing ``>`` leaves the
acceleration's expedition to a *continuation* word of the same player (``G+``, ``G>``,
``B^``). The dice are not decisions: the state knows them (the rolls of a record, or of a
seeded roller); where a roll is not known yet the state waits for it (:meth:`needs_roll`,
:meth:`set_roll`), and :meth:`RollWriteCore.playout` rolls it from its generator.

Encodings (``c`` a colour 0-5 in ``ROYGBP``, a value 1-10, 10 being a 0 die written during an
expedition; a mark 0-6 is ``"" + >- +>- > +> ^`` in this order, its artefact bit ``mark & 1``
and its arrow ``mark >> 1``: 0 none, 1 declined, 2 accelerating):

- move 0 refuses; ``1 + c`` marks the circle of ``c``;
- ``WRITE + (c * 10 + value - 1) * 7 + mark`` writes ``value`` in ``c`` (mark 6: the top
  artefact of a full expedition);
- ``NEXT + c * 7 + mark`` is the continuation accelerating ``c``.

What each box of the sheet carries is part of the state, per box and per part (arrow,
artefact): not known, learned from the first filling (no / yes) or given by a layout (no /
yes), as the engine keeps it (RW-LAYOUT-CONSISTENT). With a layout given, marks are
optional, so several words mean one decision (``R3`` and ``R3+`` on an artefact box):
:meth:`legal_moves` lists each decision once, in its fully marked word, and :meth:`check`
accepts every word the engine accepts.

A word ending with ``>`` is legal when its box may carry an arrow: the expedition just
written is always there to accelerate (its next box, or its top artefact once full).
``lcn.legal_moves`` offers such a word when one of the endings it tries fits, and makes
them from the sheet before the turn; the two differ only where the write fills an
expedition's ninth box while the other five are full with their top artefacts claimed, a
sheet no test game has reached.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import IntEnum

from ...model import GameRecord
from ...variants.rollwrite import (
    ARTEFACT_POINTS,
    BOXES,
    BRIDGE_BOX,
    BRIDGE_POINTS,
    COLOURS,
    DICE_POINTS,
    EXPEDITION_POINTS,
    BoxKind,
    RollWriteVariant,
    player_tokens,
)

#: A player fills at most 54 boxes, 6 top artefacts and 6 circles, and after nine refusals
#: is exhausted; every turn each player fills something or refuses, so after this many
#: turns every player is exhausted and the game has ended (RW-END-CONDITION).
MAX_TURNS = 6 * BOXES + 6 + 6 + BOXES

MARKS = ("", "+", ">-", "+>-", ">", "+>", "^")
TOP = 6
REFUSE = 0
WRITE = 7
NEXT = WRITE + 6 * 10 * 7
MOVES = NEXT + 6 * 7
#: What a record writes besides the decisions, as :meth:`RollWriteCore.play` takes it after
#: them: ``SAID + seat * MOVES + move`` a choice with the player it names (``Ada:R3``,
#: :func:`said`), ``CLOSE`` the end of the record's choices, ``BRIDGES + columns`` its
#: ``bridge:`` word (a bit per column of ``ROYGBPAD``), ``WORN + seats`` its ``exhausted:``
#: word (a bit per seat), ``END`` its ``end``, and ``ROLL + code`` the roll that starts a
#: turn (:func:`encode`).
SAID = MOVES
CLOSE = SAID + 5 * MOVES
BRIDGES = CLOSE + 1
WORN = BRIDGES + 256
END = WORN + 32
ROLL = END + 1
#: ``NUMBER + n``: the move number ``n.`` a record writes before turn ``n`` (after the rolls).
NUMBER = ROLL + 216 * 1000
#: ``NAMED + name * MOVES + move``: a choice with the name it is written under, a number
#: that ``play``'s ``names`` gives the seat of (a reader numbers the names it meets once,
#: for all its games).
NAMED = NUMBER + 4002
#: Column indexes of the bridges (``COLUMNS``): the six expeditions, then A and D.
ART_COLUMN = 6
DICE_COLUMN = 7

#: Box part codes: what the state knows of a box's arrow or artefact.
UNKNOWN, LEARNED_NO, LEARNED_YES, GIVEN_NO, GIVEN_YES = range(5)

#: Roll: (sorted colour dice, sorted number dice), each a tuple of small integers.
Roll = tuple[tuple[int, ...], tuple[int, ...]]


class Rule(IntEnum):
    """Why a step failed; each member names the rule ID today's engine reports first for it.

    The order of the checks is the engine's: the dice, then the circle or the number
    written, then the box's marks (artefact before arrow), then the acceleration's box.
    """

    #: The roller's colour or number die was not rolled.
    TURN_ROLLER_DICE = 1
    #: Another player's die is not among the four the roller left (or the six).
    TURN_OTHERS_DICE = 2
    #: The circle after the expedition started, or marked twice.
    CIRCLE = 3
    #: A 0 (written 10) opening an expedition.
    WRITE_ZERO_START = 4
    #: A number lower than the expedition's top number.
    WRITE_ASCENDING = 5
    #: A number for a full expedition without ``^``.
    WRITE_FULL = 6
    #: ``^`` on an expedition not full, or a top artefact claimed twice.
    TOP_ARTEFACT = 7
    #: An acceleration onto a full expedition without ``^``, or whose top artefact is claimed.
    ACCEL_FULL = 8
    #: ``>`` from a box the given layout shows without an arrow.
    ACCEL_ARROW = 9
    #: ``+`` on a box the given layout shows without an artefact.
    ARTEFACT_BOX = 10
    #: Marks that disagree with what an earlier filling of the box showed.
    LAYOUT_CONSISTENT = 11
    #: A choice where the acceleration's expedition is due (``R3>`` then nothing).
    ACCEL_COPY = 12
    #: A word after the end of the game.
    END_CONDITION = 13
    #: A continuation where no acceleration is pending: not a word of the turn's grammar.
    TURN_SYNTAX = 14
    #: A choice in the name of another player than the one to write, a choice where the
    #: turn has none left, or a turn's choices ended before every player's.
    TURN_ORDER = 15
    #: A ``bridge:`` word that is not the bridges the turn passed first.
    BRIDGE_FIRST = 16
    #: An ``exhausted:`` word that is not the players the turn exhausted.
    DICE_EXHAUSTED = 17
    #: A roll written that is not the turn's roll the state knows.
    SETUP_DICE = 18
    #: A move number that is not the next turn's, or a roll without its move number.
    MOVE_NUMBER = 19

    @property
    def rule_id(self) -> str:
        """The rule's ID in ``seeds/rollwrite.md`` (``RW-WRITE-ASCENDING``), or the
        notation's (``LCN-RW-TURN``)."""
        if self is Rule.TURN_SYNTAX:
            return "LCN-RW-TURN"
        if self is Rule.MOVE_NUMBER:
            return "LCN-MOVE-NUMBER"
        return "RW-" + self.name.replace("_", "-")


# -- move tables (the same for every game) -------------------------------------------------

MOVE_KIND = [0] + [1] * 6 + [2] * (NEXT - WRITE) + [3] * (MOVES - NEXT)
MOVE_COLOUR = [0] + list(range(6)) + [(m - WRITE) // 70 for m in range(WRITE, NEXT)] \
    + [(m - NEXT) // 7 for m in range(NEXT, MOVES)]
MOVE_VALUE = [0] * WRITE + [(m - WRITE) // 7 % 10 + 1 for m in range(WRITE, NEXT)] + [0] * 42
MOVE_MARK = [0] * WRITE + [(m - WRITE) % 7 for m in range(WRITE, NEXT)] \
    + [(m - NEXT) % 7 for m in range(NEXT, MOVES)]
#: The die a choice uses: its number's die (a 10 is a 0), the circle's 0; -1 for none.
MOVE_DIE = [-1] + [0] * 6 + [v % 10 for v in MOVE_VALUE[WRITE:NEXT]] + [-1] * 42
#: Each move's kind, colour, value, mark and die, read in one look-up.
FACTS = [(MOVE_KIND[m], MOVE_COLOUR[m], MOVE_VALUE[m], MOVE_MARK[m], MOVE_DIE[m]) for m in range(MOVES)]
#: The text of each move after the player's ``Token:`` (a continuation has no player).
BODIES = ["-"] + [f"{c}0" for c in COLOURS] \
    + [f"{COLOURS[MOVE_COLOUR[m]]}{MOVE_VALUE[m]}{MARKS[MOVE_MARK[m]]}" for m in range(WRITE, NEXT)] \
    + [f"{COLOURS[MOVE_COLOUR[m]]}{MARKS[MOVE_MARK[m]]}" for m in range(NEXT, MOVES)]
_CHOICE_IDS = {BODIES[m]: m for m in range(NEXT)}
_NEXT_IDS = {BODIES[m]: m for m in range(NEXT, MOVES)}


def _options(part_art: int, part_arrow: int, every: bool) -> tuple[int, ...]:
    """The marks of a box fill: each decision once (its fully marked word), or with
    ``every`` each word the engine accepts (a given layout makes marks optional)."""
    arts = {UNKNOWN: (0, 1), LEARNED_NO: (0,), LEARNED_YES: (1,), GIVEN_NO: (0,),
            GIVEN_YES: (0, 1) if every else (1,)}[part_art]
    arrows = {UNKNOWN: (0, 1, 2), LEARNED_NO: (0,), LEARNED_YES: (1, 2), GIVEN_NO: (0,),
              GIVEN_YES: (0, 1, 2) if every else (1, 2)}[part_arrow]
    return tuple(art + 2 * arrow for arrow in arrows for art in arts)


def _fill(part_art: int, part_arrow: int, mark: int) -> tuple[int, int, int, bool]:
    """What writing a box with ``mark`` does, given what is known of its artefact and its
    arrow: the rule broken (0 none), what is known of them after, and whether the player
    shades an artefact. The artefact is checked before the arrow, as the engine does
    (RW-ARTEFACT-BOX, RW-ACCEL-ARROW, RW-LAYOUT-CONSISTENT)."""
    said_art, said_arrow = mark & 1, mark >> 1
    if said_art:
        if part_art == GIVEN_NO:
            return Rule.ARTEFACT_BOX, part_art, part_arrow, False
        if part_art == LEARNED_NO:
            return Rule.LAYOUT_CONSISTENT, part_art, part_arrow, False
    elif part_art == LEARNED_YES:
        return Rule.LAYOUT_CONSISTENT, part_art, part_arrow, False
    if said_arrow:
        if part_arrow == GIVEN_NO:
            return Rule.ACCEL_ARROW, part_art, part_arrow, False
        if part_arrow == LEARNED_NO:
            return Rule.LAYOUT_CONSISTENT, part_art, part_arrow, False
    elif part_arrow == LEARNED_YES:
        return Rule.LAYOUT_CONSISTENT, part_art, part_arrow, False
    art = (LEARNED_YES if said_art else LEARNED_NO) if part_art == UNKNOWN else part_art
    arrow = (LEARNED_YES if said_arrow else LEARNED_NO) if part_arrow == UNKNOWN else part_arrow
    return 0, art, arrow, bool(said_art) or part_art == GIVEN_YES


#: :func:`_fill` of every (artefact part, arrow part, mark): ``FILLS[(art * 5 + arrow) * 7 + mark]``.
FILLS = [_fill(art, arrow, mark) for art in range(5) for arrow in range(5) for mark in range(7)]
#: Marks of a box fill by (artefact part, arrow part): ``BOX_OPTIONS[art * 5 + arrow]``.
BOX_OPTIONS = [_options(a, r, False) for a in range(5) for r in range(5)]
BOX_ACCEPTED = [_options(a, r, True) for a in range(5) for r in range(5)]


def _multisets(size: int, faces: int) -> list[tuple[int, ...]]:
    if size == 0:
        return [()]
    return [(first, *rest) for first in range(faces) for rest in _multisets(size - 1, faces)
            if not rest or first <= rest[0]]


#: Each sorted dice tuple's distinct faces, and the tuple with one face taken out.
DISTINCT: dict[tuple[int, ...], tuple[int, ...]] = {}
TAKEN: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
for _size in (2, 3):
    for _dice in _multisets(_size, 10):
        DISTINCT[_dice] = tuple(sorted(set(_dice)))
        for _face in set(_dice):
            _rest = list(_dice)
            _rest.remove(_face)
            TAKEN[(_dice, _face)] = tuple(_rest)
#: Every ordered throw of three colour dice (216) and three number dice (1000), sorted. A
#: state keeps its rolls as codes, ``colour throw * 1000 + number throw`` (``THROWS`` of
#: them, equally likely): drawing a roll is one uniform integer, and a roll is decoded only
#: when its turn comes.
#: For each sorted roll of three dice, by face, the two dice left when one showing it is taken
#: (``TAKEN`` read without building its key; () for a face not rolled).
LEFT = {dice: [TAKEN.get((dice, face), ()) for face in range(10)]
        for dice in _multisets(3, 10)}
COLOUR_THROWS = [tuple(sorted((a, b, c))) for a in range(6) for b in range(6) for c in range(6)]
NUMBER_THROWS = [tuple(sorted((a, b, c))) for a in range(10) for b in range(10) for c in range(10)]
THROWS = 216 * 1000
#: The bridges crossed in a turn under way, when none is.
_NO_CROSSING = [0] * 8
#: No name given to :meth:`RollWriteCore.play`, and so no choice under a name expected.
_NO_NAMES: dict[int, int] = {}
_NO_HOMES = [-MOVES] * 5


def decode(code: int) -> Roll:
    """The roll of a code."""
    return COLOUR_THROWS[code // 1000], NUMBER_THROWS[code % 1000]


def encode(roll: Roll) -> int:
    """A code of a roll (of its sorted throw: a roll has several codes, alike in play)."""
    (a, b, c), (x, y, z) = roll
    return (a * 36 + b * 6 + c) * 1000 + x * 100 + y * 10 + z


def said(seat: int, move: int) -> int:
    """A choice with the seat a record names for it, as :meth:`RollWriteCore.play` takes it."""
    return SAID + seat * MOVES + move


def roll_dice(rng: random.Random) -> Roll:
    """One roll of the six dice: each colour die uniform over the six colours, each number
    die over 0-9, all independent (RW-SETUP-DICE)."""
    return decode(int(rng.random() * THROWS))


def roll_text(roll: Roll) -> str:
    """A roll as the record writes it (``ROG037``)."""
    return "".join(COLOURS[c] for c in roll[0]) + "".join(map(str, roll[1]))


def parse_roll(word: str) -> Roll:
    """A roll word (``ROG307``, any case, dice in any order)."""
    letters, digits = word[:3].upper(), word[3:]
    if len(word) != 6 or any(c not in COLOURS for c in letters) or not digits.isdigit():
        raise ValueError(f"`{word}` is not a roll: three colour dice and three number dice")
    return tuple(sorted(COLOURS.index(c) for c in letters)), tuple(sorted(int(d) for d in digits))


def pieces(body: str) -> list[str]:
    """A choice's text after ``Token:`` cut into the words a player writes one by one:
    ``R6>R>Y+`` is ``R6>``, ``R>`` and ``Y+`` (``>-`` declines and cuts nothing)."""
    out: list[str] = []
    start = 0
    for index, char in enumerate(body):
        if char == ">" and body[index + 1:index + 2] not in ("-", ""):
            out.append(body[start:index + 1])
            start = index + 1
    out.append(body[start:])
    return out


class Sheet:
    """What a given layout says of each box, made once per layout: the part codes a new game
    starts from (``colour * 9 + box``), and whether any part is still to be learned."""

    __slots__ = ("arrows", "artefacts", "learning")

    def __init__(self, arrows: Sequence[int], artefacts: Sequence[int]) -> None:
        self.arrows = tuple(arrows)
        self.artefacts = tuple(artefacts)
        self.learning = UNKNOWN in self.arrows or UNKNOWN in self.artefacts


_SHEETS: dict[tuple[tuple[int, ...], tuple[int, ...]], Sheet] = {}


def sheet_for(layout: dict[str, list[BoxKind]] | None) -> Sheet:
    """The tables of a layout (``rollwrite.parse_layout``'s shape; None: nothing known)."""
    def part(value: bool | None) -> int:
        return UNKNOWN if value is None else (GIVEN_YES if value else GIVEN_NO)

    if layout is None:
        arrows = artefacts = (UNKNOWN,) * (6 * BOXES)
    else:
        arrows = tuple(part(layout[c][b].arrow) for c in COLOURS for b in range(BOXES))
        artefacts = tuple(part(layout[c][b].artefact) for c in COLOURS for b in range(BOXES))
    sheet = _SHEETS.get((arrows, artefacts))
    if sheet is None:
        sheet = _SHEETS[(arrows, artefacts)] = Sheet(arrows, artefacts)
    return sheet


class RollWriteCore:
    """A position with every roll that matters known: the sheets, the bridges, the layout as
    known, the turn and who writes next.

    Per player and colour at index ``seat * 6 + colour``: boxes filled (``count``), the top
    number (``top``), the circle (0 open, 1 marked, 2 struck) and the top artefact claimed
    (``claimed``); per player the artefacts and dice shaded. ``bridges`` holds per column
    (``ROYGBPAD``) the seats that scored it as a bit mask (0: not passed yet). Within a turn,
    ``step`` is the roller's offset of the player writing, ``pool`` the dice left to the
    others, ``pending`` 1 while an acceleration's expedition is due.
    """

    __slots__ = ("arrows", "art", "artefacts", "bridges", "circle", "claimed", "count",
                 "crossed", "dice", "exhausted", "fresh", "learning", "over", "passed", "pending",
                 "players", "pool", "roll", "rolls", "sheet", "step_in_turn", "tokens", "top",
                 "turn", "wearing", "worn")

    def __init__(self, players: int, sheet: Sheet, rolls: Iterable[Roll] = (),
                 tokens: Sequence[str] | None = None) -> None:
        if not 2 <= players <= 5:
            raise ValueError(f"Lost Cities: Roll & Write is for 2-5 players, not {players}")
        cells = players * 6
        self.players = players
        self.tokens = list(tokens) if tokens is not None else [f"P{s + 1}" for s in range(players)]
        self.sheet = sheet
        self.arrows = list(sheet.arrows)
        self.artefacts = list(sheet.artefacts)
        self.learning = sheet.learning
        self.count = [0] * cells
        self.top = [0] * cells
        self.circle = [0] * cells
        self.claimed = [0] * cells
        self.art = [0] * players
        self.dice = [0] * players
        self.bridges = [0] * 8
        self.crossed = [0] * 8
        self.passed = 0
        self.exhausted = 0
        self.over = False
        self.turn = 0
        self.step_in_turn = 0
        self.pending = 0
        #: What the last turn ended did by the rules alone, as a record's annotations say it:
        #: the columns whose bridges it passed first, the seats it exhausted (bit masks);
        #: ``wearing`` gathers the seats exhausted in the turn under way.
        self.fresh = 0
        self.worn = 0
        self.wearing = 0
        #: The codes of the rolls known, by turn (:func:`decode`).
        self.rolls = [encode(roll) for roll in rolls]
        self.roll: Roll | None = decode(self.rolls[0]) if self.rolls else None
        self.pool: Roll | None = self.roll

    # -- construction ------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, layout: dict[str, list[BoxKind]] | None, rng: random.Random,
            names: Sequence[str] | None = None) -> RollWriteCore:
        """A new game on ``layout``, every roll it can need drawn now from ``rng`` (a seeded
        roller: the future dice are part of the full state)."""
        rolls = [roll_dice(rng) for _ in range(MAX_TURNS)]
        tokens = player_tokens(list(names)) if names is not None else None
        return cls(players, sheet_for(layout), rolls, tokens)

    @classmethod
    def from_record(cls, record: GameRecord, variant: RollWriteVariant | None = None
                    ) -> RollWriteCore:
        """A record's game at its start: its players, the layout its tags (and the engine's
        option or layout file) give, and the rolls of its turns as the known dice.

        Raises ValueError when the players are not 2-5 or a turn does not start with a roll.
        """
        variant = variant or RollWriteVariant()
        state, problems = variant.setup(record)
        errors = [p for p in problems if p.code == "player-count"]
        if errors:
            raise ValueError(errors[0].message)
        layout = {c: list(state.given[c]) for c in COLOURS}
        rolls = [parse_roll(turn.text.split(None, 1)[0]) for turn in record.turns]
        return cls(state.players, sheet_for(layout), rolls, state.tokens)

    def copy(self) -> RollWriteCore:
        """An independent copy: lists of small integers, copied by slicing (the rolls and a
        layout that has nothing left to learn are shared: nothing changes them in place)."""
        other = RollWriteCore.__new__(RollWriteCore)
        other.players = self.players
        other.tokens = self.tokens
        other.sheet = self.sheet
        if self.learning:
            other.arrows = self.arrows[:]
            other.artefacts = self.artefacts[:]
        else:
            other.arrows = self.arrows
            other.artefacts = self.artefacts
        other.learning = self.learning
        other.count = self.count[:]
        other.top = self.top[:]
        other.circle = self.circle[:]
        other.claimed = self.claimed[:]
        other.art = self.art[:]
        other.dice = self.dice[:]
        other.bridges = self.bridges[:]
        other.crossed = self.crossed[:]
        other.passed = self.passed
        other.exhausted = self.exhausted
        other.over = self.over
        other.turn = self.turn
        other.step_in_turn = self.step_in_turn
        other.pending = self.pending
        other.rolls = self.rolls
        other.roll = self.roll
        other.pool = self.pool
        other.fresh = self.fresh
        other.worn = self.worn
        other.wearing = self.wearing
        return other

    def key(self) -> tuple[object, ...]:
        """Everything the position is, as a hashable value (the rolls to come included)."""
        return (tuple(self.arrows), tuple(self.artefacts), tuple(self.count), tuple(self.top),
                tuple(self.circle), tuple(self.claimed), tuple(self.art), tuple(self.dice),
                tuple(self.bridges), tuple(self.crossed), self.over, self.turn,
                self.step_in_turn, self.pending, self.roll, self.pool,
                tuple(decode(code) for code in self.rolls[self.turn + 1:]))

    # -- the position ------------------------------------------------------------------
    @property
    def roller(self) -> int:
        """The seat that rolls the current turn (Player1 rolls the first, then clockwise)."""
        return self.turn % self.players

    @property
    def player(self) -> int:
        """The seat whose word comes next."""
        return (self.turn + self.step_in_turn) % self.players

    def to_move(self) -> int:
        """The seat whose word comes next (:attr:`player`): several players choose on one
        roll, in the record's word order, so a search asks whose word it is, not whose turn."""
        return self.player

    def is_over(self) -> bool:
        """All players exhausted or all eight bridges passed, at the end of a turn."""
        return self.over

    def needs_roll(self) -> bool:
        """The game goes on but this turn's dice are not known yet: :meth:`set_roll`."""
        return not self.over and self.roll is None

    def set_roll(self, roll: Roll) -> None:
        """The dice of the current turn, when the state did not know them."""
        if not self.needs_roll():
            raise ValueError("the dice of this turn are known already")
        self.rolls = [*self.rolls[:self.turn], encode(roll)]
        self.roll = self.pool = roll

    def score(self) -> tuple[int, ...]:
        """Each sheet's total as ``rollwrite.score_sheet`` computes it (RW-SCORE-*)."""
        totals = []
        count, circle = self.count, self.circle
        for seat in range(self.players):
            total = 0
            for cell in range(seat * 6, seat * 6 + 6):
                filled = count[cell]
                doubled = circle[cell] == 1
                base = EXPEDITION_POINTS[filled] if filled else (-50 if doubled else 0)
                total += base * 2 if doubled else base
            bit = 1 << seat
            total += ARTEFACT_POINTS[self.art[seat]] + DICE_POINTS[self.dice[seat]]
            for won in self.bridges:
                if won & bit:
                    total += BRIDGE_POINTS
            totals.append(total)
        return tuple(totals)

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """Every decision of the player to write, each once (fully marked)."""
        if self.over or self.roll is None:
            return []
        if self.pending:  # an acceleration under way: the dice play no part
            return self._listed(BOX_OPTIONS, (), ())
        colours, numbers = self.roll if self.step_in_turn == 0 else self.pool  # type: ignore[misc]
        return self._listed(BOX_OPTIONS, DISTINCT[colours], DISTINCT[numbers])

    def record_moves(self, written: Roll | None = None) -> list[int]:
        """Every word a record may write next, each once, in the order ``lcn.legal_moves``
        offers them: as :meth:`legal_moves`, but with each word :meth:`check` accepts (where
        a given layout makes marks optional, ``R3`` besides ``R3+``), and the choices by
        colour and number in the order the roll's dice are written (``written``, as
        :func:`parse_roll` reads them but unsorted; by default the sorted roll).
        """
        if self.over or self.roll is None:
            return []
        if self.pending:
            return self._listed(BOX_ACCEPTED, (), ())
        colours, numbers = self.roll if self.step_in_turn == 0 else self.pool  # type: ignore[misc]
        order = written or self.roll
        return self._listed(BOX_ACCEPTED, [colour for colour in dict.fromkeys(order[0]) if colour in colours],
                            [die for die in dict.fromkeys(order[1]) if die in numbers])

    def _listed(self, marks: Sequence[Sequence[int]], colours: Iterable[int], dies: Sequence[int]
                ) -> list[int]:
        """The decisions of the player to write: the boxes an acceleration under way may take,
        or else each choice of the ``colours`` and ``dies`` left (each once, in that order),
        a box written with each set of ``marks`` its kind takes (the rules written once for
        both listings)."""
        base = self.player * 6
        count, claimed = self.count, self.claimed
        arrows, artefacts = self.arrows, self.artefacts
        if self.pending:
            moves = []
            for colour in range(6):
                filled = count[base + colour]
                at = NEXT + colour * 7
                if filled == BOXES:
                    if not claimed[base + colour]:
                        moves.append(at + TOP)
                else:
                    box = colour * BOXES + filled
                    moves += [at + mark for mark in marks[artefacts[box] * 5 + arrows[box]]]
            return moves
        moves = [REFUSE]
        top, circle = self.top, self.circle
        for colour in colours:
            cell = base + colour
            filled = count[cell]
            highest = top[cell]
            for die in dies:
                if die == 0 and filled == 0:
                    if circle[cell] == 0:
                        moves.append(1 + colour)
                    continue
                value = die or 10
                if value < highest:
                    continue
                at = WRITE + (colour * 10 + value - 1) * 7
                if filled == BOXES:
                    if not claimed[cell]:
                        moves.append(at + TOP)
                else:
                    box = colour * BOXES + filled
                    moves += [at + mark for mark in marks[artefacts[box] * 5 + arrows[box]]]
        return moves

    def playout_move(self, rng: random.Random) -> int:
        """The rule-based player's decision (:func:`heuristic_move`), which a search plays its
        lines with: random moves would make every line a game nobody plays."""
        return heuristic_move(self, rng)

    def random_move(self, rng: random.Random) -> int:
        """A move drawn uniformly from :meth:`legal_moves`."""
        moves = self.legal_moves()
        return moves[int(rng.random() * len(moves))]

    def check(self, move: int) -> int:
        """0 when ``move`` is a word the engine accepts here, else the :class:`Rule` it breaks
        first; nothing changes."""
        return self.copy().play((move,))

    def step(self, move: int) -> int:
        """Write ``move``: 0 when done, else the :class:`Rule` broken and the state unchanged."""
        return self.play((move,))

    def play(self, moves: Iterable[int], *, numbered: bool = False,
             names: dict[int, int] | None = None) -> int:
        """Play ``moves`` in turn: 0 when all were played, else the :class:`Rule` the first
        refused one breaks, with the state as it was after the one before it.

        This is the whole of the rules, written once: :meth:`step` plays one decision,
        :meth:`check` judges one on a copy, and the quick verdict of validation plays a
        record's words in one call (the loop's names are looked up once, not once a word).
        Besides the decisions, ``moves`` may hold what a record writes around them: a choice
        with the seat it names (``SAID``), the end of a turn's choices (``CLOSE``), the
        annotations checked against what the rules did (``BRIDGES``, ``WORN``, ``END``), the
        roll of a turn (``ROLL``). The checks of a decision come in the engine's order (the
        dice, then the circle or the number written, then the box's marks, artefact before
        arrow), so the code is the rule the engine reports first for the same word; every
        check of a decision comes before anything of it is done.

        ``names`` gives the seat of each name a ``NAMED`` choice is written under.
        ``numbered`` says that ``moves`` write each turn's move number before its roll
        (``NUMBER``), as a record does, and that the annotations of a turn come in their
        order, each once (``bridge:``, ``exhausted:``, ``end``).

        Raises ValueError for a decision where the turn's dice are not known (:meth:`set_roll`).
        """
        players = self.players
        count, top, circle, claimed = self.count, self.top, self.circle, self.claimed
        art, dice, crossed, bridges = self.art, self.dice, self.crossed, self.bridges
        arrows, artefacts = self.arrows, self.artefacts
        facts, left, fills = FACTS, LEFT, FILLS
        colour_throws, number_throws = COLOUR_THROWS, NUMBER_THROWS
        over, roll, pool = self.over, self.roll, self.pool
        turn, at, pending = self.turn, self.step_in_turn, self.pending
        passed, exhausted = self.passed, self.exhausted
        fresh, worn, wearing = self.fresh, self.worn, self.wearing
        rolls = self.rolls
        own_rolls = False
        crossing = crossed != _NO_CROSSING
        rolled = False  # a roll written, and no choice of its turn yet
        unnumbered = numbered  # the next roll's move number not written yet
        noted = 0  # the last annotation of the turn: 1 bridge:, 2 exhausted:, 3 end
        seat = (turn + at) % players
        base = seat * 6
        named = names or _NO_NAMES
        # The choices of each seat under its first name (the one it is written under most).
        homes = _NO_HOMES
        if named:
            homes = [-MOVES] * players
            for name, seat_named in reversed(named.items()):
                homes[seat_named] = NAMED + name * MOVES
        home = homes[seat]
        code = 0
        try:
            for move in moves:
                if move >= MOVES:
                    if move >= NAMED:
                        # A choice with the name it is written under (RW-TURN-ORDER).
                        if 0 <= move - home < MOVES:
                            move -= home
                        else:
                            name, move = divmod(move - NAMED, MOVES)
                            if named.get(name) != seat:
                                code = Rule.TURN_ORDER
                                break
                        if roll is None or over:
                            code = Rule.TURN_ORDER
                            break
                    elif move < CLOSE:
                        # A choice with the seat it names (RW-TURN-ORDER): played below.
                        move -= SAID + seat * MOVES
                        if not 0 <= move < MOVES or roll is None or over:
                            code = Rule.TURN_ORDER
                            break
                    else:
                        # -- what a record writes around the decisions
                        if move >= NUMBER:
                            if at or pending or rolled:
                                code = Rule.TURN_ORDER
                                break
                            if not unnumbered or move - NUMBER != turn + 1:
                                code = Rule.MOVE_NUMBER
                                break
                            unnumbered = False
                        elif move >= ROLL:
                            if over:
                                code = Rule.END_CONDITION
                                break
                            if at or pending or rolled:
                                code = Rule.TURN_ORDER
                                break
                            if unnumbered:
                                code = Rule.MOVE_NUMBER
                                break
                            move -= ROLL
                            rolled_now = (colour_throws[move // 1000], number_throws[move % 1000])
                            if roll is None:
                                if not own_rolls:  # the rolls known may be another state's
                                    rolls = list(rolls)
                                    own_rolls = True
                                rolls.append(move)
                                roll = pool = rolled_now
                            elif rolled_now != roll:
                                code = Rule.SETUP_DICE
                                break
                            rolled = True
                            unnumbered = numbered
                            noted = 0
                        elif at or pending or rolled:
                            # The end of a turn's choices, or an annotation, before every
                            # player has chosen.
                            code = Rule.TURN_ORDER
                            break
                        elif move == CLOSE:
                            if numbered and not unnumbered:  # a move number without its turn
                                code = Rule.MOVE_NUMBER
                                break
                        elif numbered and (noted >= (1 if move < WORN else 2 if move < END else 3)
                                           or not unnumbered):
                            # An annotation out of its place, or twice.
                            code = Rule.TURN_SYNTAX
                            break
                        elif move < WORN:
                            if move - BRIDGES != fresh:
                                code = Rule.BRIDGE_FIRST
                                break
                            noted = 1
                        elif move < END:
                            if move - WORN != worn:
                                code = Rule.DICE_EXHAUSTED
                                break
                            noted = 2
                        elif not over:
                            code = Rule.END_CONDITION
                            break
                        else:
                            noted = 3
                        continue
                # -- a decision
                elif over:
                    code = Rule.END_CONDITION
                    break
                elif roll is None:
                    raise ValueError("the dice of this turn are not known: set_roll first")
                if not move:
                    # A refusal shades a dice symbol (RW-DICE-SHADE, RW-DICE-EXHAUSTED).
                    if pending:
                        code = Rule.ACCEL_COPY
                        break
                    shaded = dice[seat]
                    if shaded < BOXES:
                        shaded += 1
                        dice[seat] = shaded
                        if shaded == BRIDGE_BOX:
                            crossed[DICE_COLUMN] |= 1 << seat
                            crossing = True
                        elif shaded == BOXES:
                            exhausted += 1
                            wearing |= 1 << seat
                else:
                    kind, colour, value, mark, die = facts[move]
                    cell = base + colour
                    filled = count[cell]
                    shade = False
                    if kind == 3:
                        # The expedition an acceleration copies its number into (RW-ACCEL-COPY).
                        if not pending:
                            code = Rule.TURN_SYNTAX
                            break
                        if filled == BOXES:
                            if mark != TOP or claimed[cell]:
                                code = Rule.ACCEL_FULL
                                break
                            claimed[cell] = 1
                            shade = True
                            pending = 0
                        elif mark == TOP:
                            code = Rule.TOP_ARTEFACT
                            break
                        else:
                            value = top[cell] or 1
                    else:
                        if pending:
                            code = Rule.ACCEL_COPY
                            break
                        if at:
                            colours, numbers = pool  # type: ignore[misc]
                            if colour not in colours or die not in numbers:
                                code = Rule.TURN_OTHERS_DICE
                                break
                        else:
                            colours, numbers = roll
                            if colour not in colours or die not in numbers:
                                code = Rule.TURN_ROLLER_DICE
                                break
                        if kind == 1:
                            if filled or circle[cell] == 1:
                                code = Rule.CIRCLE
                                break
                            circle[cell] = 1
                        else:
                            if value == 10 and not filled:
                                code = Rule.WRITE_ZERO_START
                                break
                            if value < top[cell]:
                                code = Rule.WRITE_ASCENDING
                                break
                            if filled == BOXES:
                                if mark != TOP:
                                    code = Rule.WRITE_FULL
                                    break
                                if claimed[cell]:
                                    code = Rule.TOP_ARTEFACT
                                    break
                                claimed[cell] = 1
                                shade = True
                                value = 0  # no box filled
                            elif mark == TOP:
                                code = Rule.TOP_ARTEFACT
                                break
                    if value:
                        # A box filled: its marks against the layout as known (RW-ARTEFACT-BOX,
                        # RW-ACCEL-ARROW, RW-LAYOUT-CONSISTENT), then the box.
                        box = colour * BOXES + filled
                        code, artefacts[box], arrows[box], shaded_art = \
                            fills[(artefacts[box] * 5 + arrows[box]) * 7 + mark]
                        if code:
                            break
                        if shaded_art:
                            shade = True
                        if not filled and not circle[cell]:
                            circle[cell] = 2
                        count[cell] = filled + 1
                        top[cell] = value
                        if filled + 1 == BRIDGE_BOX:
                            crossed[colour] |= 1 << seat
                            crossing = True
                        pending = mark >> 2
                    if shade:
                        shaded = art[seat]
                        if shaded < BOXES:
                            art[seat] = shaded + 1
                            if shaded + 1 == BRIDGE_BOX:
                                crossed[ART_COLUMN] |= 1 << seat
                                crossing = True
                    if not at and kind != 3:
                        # The roller's dice leave the others two of each (RW-TURN-OTHERS-DICE).
                        pool = (left[colours][colour], left[numbers][die])
                    if pending:
                        continue
                at += 1
                if at < players:
                    seat = seat + 1 if seat + 1 < players else 0
                    base = seat * 6
                    home = homes[seat]
                    continue
                # -- the end of the turn: the bridges passed first, the end of the game
                fresh = 0
                if crossing:
                    for column in range(8):
                        seats = crossed[column]
                        if seats:
                            if not bridges[column]:
                                bridges[column] = seats
                                passed += 1
                                fresh |= 1 << column
                            crossed[column] = 0
                    crossing = False
                worn, wearing = wearing, 0
                turn += 1
                at = 0
                rolled = False
                seat = turn % players
                base = seat * 6
                home = homes[seat]
                if passed == 8 or exhausted == players:
                    over = True
                    roll = pool = None
                else:
                    roll = pool = decode(rolls[turn]) if turn < len(rolls) else None
        finally:
            self.over, self.roll, self.pool = over, roll, pool
            self.turn, self.step_in_turn, self.pending = turn, at, pending
            self.passed, self.exhausted = passed, exhausted
            self.fresh, self.worn, self.wearing = fresh, worn, wearing
            self.rolls = rolls
        return code

    def playout(self, rng: random.Random) -> int:
        """Play uniformly random legal decisions to the end of the game, rolling from ``rng``
        the dice not known; the decisions played."""
        played = 0
        step, legal = self.step, self.legal_moves
        rand = rng.random
        while not self.over:
            if self.roll is None:
                self.set_roll(roll_dice(rng))
            moves = legal()
            step(moves[int(rand() * len(moves))])
            played += 1
        return played

    def heuristic_playout(self, rng: random.Random) -> int:
        """Play :func:`heuristic_move` to the end of the game; the decisions played."""
        played = 0
        while not self.over:
            if self.roll is None:
                self.set_roll(roll_dice(rng))
            self.step(heuristic_move(self, rng))
            played += 1
        return played

    # -- words -------------------------------------------------------------------------
    def word(self, move: int) -> str:
        """The word of ``move`` for the player to write, as ``lcn.legal_moves`` offers it:
        ``Ada:R3+>`` for a choice, ``G+`` for a continuation."""
        if MOVE_KIND[move] == 3:
            return BODIES[move]
        return f"{self.tokens[self.player]}:{BODIES[move]}"

    def move(self, word: str) -> int:
        """The move of a word, in any letter case; a choice may leave out its ``Token:``
        (while an acceleration is due, a word without one is its continuation).

        Raises ValueError for a word that is no single decision, or a choice in the name of
        another player than the one to write.
        """
        who, colon, body = word.rpartition(":")
        body = body.upper()
        if colon:
            seat = self._seat(who)
            if seat != self.player:
                raise ValueError(f"`{word}`: {self.tokens[self.player]} writes next")
            found = _CHOICE_IDS.get(body)
        else:
            found = _NEXT_IDS.get(body) if self.pending else _CHOICE_IDS.get(body)
        if found is None:
            raise ValueError(f"`{word}` is not one word of a choice")
        return found

    def _seat(self, token: str) -> int | None:
        folded = token.casefold()
        for seat, name in enumerate(self.tokens):
            if name.casefold() == folded:
                return seat
        if len(token) == 2 and token[0] in "Pp" and token[1].isdigit() \
                and 1 <= int(token[1]) <= self.players:
            return int(token[1]) - 1
        return None

    def play_turn(self, text: str) -> None:
        """Play a record's turn (``ROG037 Ada:R3+>G Bo:-``): its roll, which must be the one
        known, and each choice word by word. What the rules decide by themselves
        (``bridge:``, ``exhausted:``, ``end``) the core computes, so those words are passed
        over. Raises ValueError when a word breaks a rule or the game is over."""
        if self.over:
            raise ValueError(f"`{text}` comes after the end of the game ({Rule.END_CONDITION.rule_id})")
        words = text.split()
        roll = parse_roll(words[0])
        if self.roll is None:
            self.set_roll(roll)
        elif roll != self.roll:
            raise ValueError(f"`{words[0]}` is not the roll of turn {self.turn + 1}")
        for word in words[1:]:
            who, _, body = word.partition(":")
            if who.lower() in ("bridge", "exhausted") or word.lower() == "end":
                continue
            for index, piece in enumerate(pieces(body)):
                code = self.step(self.move(f"{who}:{piece}" if index == 0 else piece))
                if code:
                    raise ValueError(f"`{word}` breaks {Rule(code).rule_id}")


def heuristic_move(core: RollWriteCore, rng: random.Random) -> int:
    """A quick, sensible decision: small steps up started expeditions, few new ones and low,
    artefacts and top artefacts taken, accelerations towards long expeditions, refusals
    while they still pay; ties broken at random.

    Its weights are modelled on the players of ``rollwrite_play``, without their noise: a
    playout that looks like a game (it scores about 200 points a sheet more than random
    moves) at about twice the cost of a random one.
    """
    moves = core.legal_moves()
    base = core.player * 6
    count, top, circle = core.count, core.top, core.circle
    best = -1e9
    chosen = moves[0]
    rand = rng.random
    if core.pending:
        for move in moves:
            cell = base + MOVE_COLOUR[move]
            filled = count[cell]
            if MOVE_MARK[move] == TOP:
                worth = 3.0
            elif filled:
                worth = 1.0 + 0.25 * filled + (0.8 if filled == BRIDGE_BOX - 1 else 0.0)
            else:
                worth = 1.2 if circle[cell] == 1 else 0.3
            worth += 0.5 * (MOVE_MARK[move] & 1) + 0.3 * (MOVE_MARK[move] >= 4) + 0.1 * rand()
            if worth > best:
                best, chosen = worth, move
        return chosen
    dice = core.dice[core.player]
    started = sum(1 for cell in range(base, base + 6) if count[cell])
    late = min(core.turn / 60, 1.0)
    for move in moves:
        kind = MOVE_KIND[move]
        if kind == 0:
            worth = 0.6 - 0.25 * max(0, dice - 5) - (3.0 if dice == BOXES - 1 else 0.0)
        elif kind == 1:
            worth = 1.6 - 1.2 * late - 0.3 * started
        else:
            cell = base + MOVE_COLOUR[move]
            mark = MOVE_MARK[move]
            value = MOVE_VALUE[move]
            filled = count[cell]
            if mark == TOP:
                worth = 2.5
            else:
                bonus = 1.2 * (mark & 1) + (0.9 if mark >= 4 else 0.4 if mark >= 2 else 0.0)
                if filled:
                    room = (10 - value) / max(BOXES - filled, 1)
                    worth = 2.8 - 0.9 * (value - top[cell]) + 0.3 * room + bonus
                else:
                    worth = 2.2 - 0.7 * (value - 1) - 0.45 * started - 1.5 * late + bonus
                    if circle[cell] == 1:
                        worth += 1.5
        worth += 0.1 * rand()
        if worth > best:
            best, chosen = worth, move
    return chosen


def layout_of(core: RollWriteCore) -> dict[str, list[BoxKind]]:
    """The layout as the state knows it (given or learned), in ``parse_layout``'s shape."""
    def part(code: int) -> bool | None:
        return None if code == UNKNOWN else code in (LEARNED_YES, GIVEN_YES)

    return {c: [BoxKind(part(core.arrows[i * BOXES + b]), part(core.artefacts[i * BOXES + b]))
                for b in range(BOXES)] for i, c in enumerate(COLOURS)}


def replay(record: GameRecord, turns: int | None = None, variant: RollWriteVariant | None = None
           ) -> RollWriteCore:
    """The core after a record's first ``turns`` turns (all by default)."""
    core = RollWriteCore.from_record(record, variant)
    for turn in record.turns[:turns]:
        core.play_turn(turn.text)
    return core


__all__ = ["MAX_TURNS", "MOVES", "RollWriteCore", "Rule", "Sheet", "decode", "encode",
           "heuristic_move", "layout_of", "parse_roll", "pieces", "replay", "roll_dice", "roll_text", "said",
           "sheet_for"]
