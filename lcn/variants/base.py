"""The one small interface every game plugs into: state, moves, apply, score.

The reader, the writer, the validator, the CLI and the site only talk to a variant through
this class, so adding a game means adding one module and registering it; nothing in the
parser core or the site's views changes.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from ..diagnostics import Severity
from ..messages import msg

if TYPE_CHECKING:
    from ..describe import TurnStory
    from ..games import Judge, MoveLister
    from ..model import GameRecord

S = TypeVar("S")
M = TypeVar("M")


@dataclass(slots=True)
class Problem:
    """A rule broken by a turn or by the setup, before it is given a place in the file.

    ``offset``/``length`` locate the bad part inside the turn's text; ``tag`` names the tag
    a setup problem is about.
    """

    code: str
    rule: str
    message: str
    severity: Severity = Severity.ERROR
    offset: int = 0
    length: int = 0
    tag: str | None = None
    #: What was probably meant and how to write it (``lcn.diagnostics.HINTS``).
    hint: str | None = None


class MoveSyntaxError(ValueError):
    """A turn's text is not a move of the variant; ``offset`` is where it goes wrong."""

    def __init__(self, message: str, offset: int = 0, length: int = 1,
                 code: str = "move-syntax", rule: str = "LCN-MOVE",
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint
        self.message = message
        self.offset = offset
        self.length = length
        self.code = code
        self.rule = rule


def name_hint(exc: MoveSyntaxError, text: str, names: list[str], tokens: list[str]) -> None:
    """Add a hint to an unknown-player error whose player is written like a player's name.

    People write ``Jean-Luc3`` or ``Mary Ann:R3`` for the tokens ``JeanLuc`` and ``MaryAnn``,
    or a name whose token is the seat form (``Player 2`` is ``P2``): the hint names the
    token to write; a token with a letter wrong or missing (``Aad3``) gets the closest one
    (``difflib`` measures the likeness). The error itself is unchanged.
    """
    from ..diagnostics import hint

    if exc.code != "unknown-player" or exc.hint is not None:
        return
    written = text[exc.offset:exc.offset + exc.length]
    folded = "".join(ch for ch in written if ch.isalnum()).casefold()
    if not folded:
        return
    for seat, name in enumerate(names):
        plain = "".join(ch for ch in name if ch.isalnum()).casefold()
        letters = "".join(ch for ch in name if ch.isalpha()).casefold()
        if folded in (plain, letters) and written != tokens[seat]:
            exc.hint = hint("name-for-token", written=written, name=name, token=tokens[seat])
            return
    from difflib import get_close_matches

    close = get_close_matches(written.casefold(), [t.casefold() for t in tokens], n=1, cutoff=0.6)
    if close:
        token = tokens[[t.casefold() for t in tokens].index(close[0])]
        exc.hint = hint("keyword-typo", meant=token)


@dataclass(slots=True)
class Score:
    """Final or running scores: totals in seat order and a per-player breakdown.

    ``breakdown[p]`` maps a part of the score (an expedition's colour letter, ``gold``,
    ``bridges``...) to its points; ``details`` is variant-specific JSON for people.
    """

    totals: list[int]
    breakdown: list[dict[str, int]]
    details: list[Any] = field(default_factory=list)


@dataclass(slots=True)
class ExpressResult:
    """What an express check found: the game breaks no rule, and how it ends."""

    players: list[str]
    totals: list[int]
    over: bool
    turns: int


class Variant(ABC, Generic[S, M]):
    """A game of the Lost Cities family, as the rest of LCN sees it."""

    #: The value of the ``Variant`` tag.
    name: ClassVar[str]
    #: A human title.
    title: ClassVar[str]
    #: ``word``: every word of the movetext is one turn; ``numbered``: a turn starts at its
    #: move number and spans the words up to the next one.
    turn_unit: ClassVar[str] = "word"
    #: Rule IDs for the checks the generic validator makes on behalf of the variant.
    rule_game_over: ClassVar[str]
    rule_result: ClassVar[str]
    rule_turn_order: ClassVar[str]
    #: Fewest and most players.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: Whether :meth:`express_check` can decide games (the reader then keeps their plain
    #: movetext unread for it).
    express: ClassVar[bool] = False
    #: Codes of problems that, once an earlier turn broke a rule, most likely follow from it
    #: (the engine's picture of the game drifted from the table's): the validator reports
    #: them as warnings that name the first error, so that one slip gives one error.
    consequences: ClassVar[frozenset[str]] = frozenset()

    # -- setup ------------------------------------------------------------------------
    @abstractmethod
    def setup(self, record: GameRecord) -> tuple[S, list[Problem]]:
        """The state before the first turn, from the tags, and any problem with the setup."""

    def express_check(self, record: GameRecord, words: list[str]) -> ExpressResult | None:
        """Decide a record from its tags and its movetext's words, when that is quick.

        An optional fast path for the validator, which runs it on records whose movetext
        is only words (no comment, glyph or odd character) and whose reader found nothing
        wrong. ``words`` holds every word before the termination, move numbers included.
        Return a result only when full validation would find no problem at all, not even
        a warning, in the setup or in any turn (the termination is the validator's to
        check); return None whenever in doubt, and the game is validated in full. Full
        validation stays the reference: tests compare the two on every kind of record.
        """
        return None

    # -- turns ------------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Parse a turn's text; raise MoveSyntaxError with what was expected."""

    @abstractmethod
    def apply(self, state: S, move: M) -> list[Problem]:
        """Apply a turn to the state and return the rules it breaks.

        The move is applied even when it breaks a rule (as far as it can be), so that the
        checks of later turns still make sense and one run reports every problem.
        """

    @abstractmethod
    def format_move(self, move: M) -> str:
        """The canonical text of a move."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Whether the rules have ended the game."""

    @abstractmethod
    def current_player(self, state: S) -> int:
        """Seat (0-based) of the player whose turn is next."""

    @abstractmethod
    def score(self, state: S) -> Score:
        """Scores of the state as it stands (final once the game is over)."""

    def end_problems(self, state: S, record: GameRecord) -> list[Problem]:
        """Checks made once the last turn is applied (besides the Result check)."""
        return []

    def end_reason(self, state: S) -> str:
        """Why the game is over, in words (for the diagnostic of a turn after the end)."""
        return msg("the rules ended it")

    def progress(self, state: S) -> str:
        """How far from its end an unfinished game is, in words."""
        return msg("the game is not over")

    def match_tracker(self) -> Any:
        """An object whose ``add(report)`` checks games that form a match, or None."""
        return None

    # -- legal continuations (lcn.moves) ---------------------------------------------
    #: Whether :meth:`candidate_moves` lists what may come next (``lcn.legal_moves``).
    lists_moves: ClassVar[bool] = False
    #: Codes of the MoveSyntaxError that a numbered turn not finished yet raises (the bids
    #: of an auction written, its uncover not yet): ``lcn.legal_moves`` then lists the words
    #: that may follow within the turn.
    partial_codes: ClassVar[frozenset[str]] = frozenset()

    def move_lister(self) -> MoveLister | None:
        """What lists this game's legal continuations on its core (``lcn.games.MoveLister``),
        or None to list :meth:`candidate_moves` that :meth:`apply` accepts.

        ``lcn.legal_moves`` asks the lister first: a core lists a position's moves at a
        fraction of the cost of trying every candidate on the engine, and keeps the rules
        written once. Where the lister gives up (a record its core does not take as valid) the
        engine lists them, or says what is wrong. A game with a core returns its lister here;
        the default serves the built-in games (``lcn.games.built_in_lister``).
        """
        from ..games import built_in_lister

        return built_in_lister(self)

    def candidate_moves(self, state: S, partial: str = "") -> Iterable[tuple[str, str]]:
        """What may be written next, as pairs (text added, a whole turn that shows it legal).

        ``partial`` is the text of the turn written so far ("" at the start of a turn). The
        second text is the whole turn (``partial``, the text added, and a completion of the
        turn when the text added does not finish it). ``lcn.legal_moves`` keeps a candidate
        only when :meth:`apply`, on a copy of the state, finds no error in that turn: the
        engine stays the one judge of the rules, and this method only has to be broad
        enough (complete) and find a completion for every text that has one.
        """
        return ()

    def candidate_draws(self, state: S, text: str) -> Iterable[tuple[str, str]]:
        """Names for what the turn ``text``, played from ``state``, drew unseen, as pairs
        (text added to the turn, the whole turn with it): in classic, ``=R5`` for a draw
        from the draw pile written ``/d``. Whoever saw the card may name it; as for
        :meth:`candidate_moves`, the list only has to be broad enough, and
        ``lcn.legal_moves(..., draws=True)`` keeps a name only when :meth:`apply` accepts the
        turn with it. The default names nothing (no variant but classic draws unseen)."""
        return ()

    # -- judging moves (lcn.search, lcn.analysis) ----------------------------------------
    def judge(self) -> Judge | None:
        """What walks a record's decisions and gives each decider's information set for a
        search (``lcn.games.Judge``), or None: ``lcn.best_move`` and ``lcn.analyse`` then
        say that the game's moves cannot be judged yet. The default serves the built-in
        games whose packages have one (``lcn.games.built_in_judge``)."""
        from ..games import built_in_judge

        return built_in_judge(self)

    def acting_seat(self, state: S, partial: str = "") -> int:
        """The seat of the player who writes the next text (within a turn: a bidder)."""
        return self.current_player(state)

    def move_label(self, state: S, text: str, move: M) -> tuple[str, dict[str, Any]]:
        """The label of ``text`` (a legal candidate; ``move`` its whole turn): the key of a
        template in ``lcn.moves.LABELS`` and the template's parameters (the words live in
        one catalog, ready for other languages)."""
        return "move", {"move": text}

    # -- telling turns (lcn.describe) ---------------------------------------------------
    def describe_move(self, state: S, move: M, names: list[str]) -> TurnStory:
        """The turn ``move`` told in plain words, from ``state`` (the state before it).

        A :class:`lcn.describe.TurnStory`: its line is a message (``lcn.messages.msg``) so
        that it is said in every language with a catalog, and its marks say what a board
        marks (``player``: the seat who played, or None). ``names`` are the players' names
        in seat order. Called before :meth:`apply`, on a move :meth:`parse_move` read; the
        default says who played the turn as written, so a new variant is told from the start.
        """
        from ..describe import default_story

        seat = self.current_player(state)
        return default_story(self.format_move(move), names[seat] if 0 <= seat < len(names)
                             else None, seat)

    # -- numbering --------------------------------------------------------------------
    def move_number(self, state: S, turn_index: int) -> tuple[int, bool]:
        """The move number of a turn and whether a plain ``N.`` stands before it.

        The default numbers every turn (numbered turn units); alternating games number
        rounds, as PGN does.
        """
        return turn_index + 1, True

    # -- presentation -----------------------------------------------------------------
    def seats_from_tags(self, record: GameRecord, rule: str) -> tuple[list[str], list[Problem]]:
        """Player names in seat order from ``Player1``.., and what is wrong with their count.

        Every game names its seats the same way, so a gap, too many players or too few are
        reported alike (citing the variant's own ``rule``); too few are made up to
        ``min_players`` with "Player N" names so the rest of the record can still be checked.
        """
        problems: list[Problem] = []
        names: list[str] = []
        while (name := record.tags.get(f"Player{len(names) + 1}")) is not None:
            names.append(name)
        later = sorted(int(m.group(1)) for tag in record.tags
                       if (m := re.fullmatch(r"Player([1-9][0-9]{0,5})", tag))
                       and int(m.group(1)) > len(names) + 1)
        if later:
            problems.append(Problem(
                "player-count", rule, msg("Player{later} is given but Player{missing} is not: "
                                          "players are named in seat order without gaps",
                                          later=later[0], missing=len(names) + 1),
                tag=f"Player{later[0]}"))
        span = msg("{low}-{high} players", low=self.min_players, high=self.max_players)
        if len(names) > self.max_players:
            problems.append(Problem(
                "player-count", rule, msg("{title} is for {span}, but {count} are given; only "
                                          "Player1..Player{max_players} play",
                                          title=self.title, span=span, count=len(names),
                                          max_players=self.max_players),
                tag=f"Player{self.max_players + 1}"))
            names = names[:self.max_players]
        if len(names) < self.min_players:
            missing = f"Player{len(names) + 1}"
            problems.append(Problem(
                "player-count", rule, msg("no {missing} tag: {title} is for {span}, named by the "
                                          "tags Player1..Player{max_players}; {min_players} players "
                                          "are assumed",
                                          missing=missing, title=self.title, span=span,
                                          max_players=self.max_players,
                                          min_players=self.min_players),
                tag=missing if names else None))
            names += [f"Player {seat}" for seat in range(len(names) + 1, self.min_players + 1)]
        return names, problems

    @abstractmethod
    def players(self, record: GameRecord, state: S) -> list[str]:
        """Player names in seat order."""

    @abstractmethod
    def snapshot(self, state: S) -> dict[str, Any]:
        """A JSON-ready picture of the state, for the site and the API."""

    @abstractmethod
    def render_text(self, state: S, names: list[str], *, view: int | None = None) -> str:
        """The state as plain text for ``lcn show``; ``view`` hides other players' hands."""

    def copy_state(self, state: S) -> S:
        """An independent copy of a state (for replays that keep every position)."""
        import copy

        return copy.deepcopy(state)


class TurnRecordState(Protocol):
    """What :class:`NumberedTurns` keeps in a variant's state: the record's turn texts and
    written numbers, the turns applied so far and how far the record's place is from that,
    and a turn played ahead of its place with its problems."""

    texts: tuple[str, ...]
    numbers: tuple[int | None, ...]
    calls: int
    offset: int
    pending: tuple[Any, list[Problem]] | None


NS = TypeVar("NS", bound=TurnRecordState)


class NumberedTurns(Variant[NS, M]):
    """A variant whose records number every turn, reading those numbers as evidence.

    People copy a game line by line, and two lines written in each other's place show as
    numbers ``n+1`` then ``n``; such a pair is played in the order of its numbers, so that
    neither turn is blamed for the other. Rivals and Roll & Write read their records so;
    classic numbers a pair of turns per line and keeps its own reading.
    """

    def apply(self, state: NS, move: M) -> list[Problem]:
        try:
            return self._turn(state, move)
        finally:
            state.calls += 1

    def move_number(self, state: NS, turn_index: int) -> tuple[int, bool]:
        # Where the turn stands in the record, for ``apply`` to read its number with it.
        state.offset = turn_index - state.calls
        return turn_index + 1, True

    def _turn(self, state: NS, move: M) -> list[Problem]:
        if state.pending is not None:
            (played, done), state.pending = state.pending, None
            if played == move:
                return done
        turn = state.calls + state.offset
        numbers = state.numbers
        if numbers:
            self._numbers(state)
        if turn + 1 < len(numbers) and numbers[turn] == turn + 2 and numbers[turn + 1] == turn + 1:
            # The numbers say that this turn and the next were written in each other's
            # place (two lines swapped): they are played in the order of their numbers.
            try:
                ahead = self.parse_move(state, state.texts[turn + 1])
            except MoveSyntaxError:
                ahead = None
            if ahead is not None:
                self._swapped(state)
                done = self._apply(state, ahead)
                problems = self._apply(state, move)
                state.pending = (ahead, done)
                return problems
        return self._apply(state, move)

    @abstractmethod
    def _apply(self, state: NS, move: M) -> list[Problem]:
        """Play one turn in its place, with the problems it has."""

    @staticmethod
    @abstractmethod
    def _numbers(state: NS) -> None:
        """Read the number written before the turn about to be played as evidence."""

    def _swapped(self, state: NS) -> None:
        """What a variant learns from two turns found swapped (nothing, unless it says)."""
