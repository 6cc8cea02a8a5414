"""The best move of a position and the analysis of a whole game, judged as the player knew it.

:func:`best_move` and :func:`analyse` take a record, check it as ``lcn validate`` does (an
invalid record is refused with its diagnostics, never judged), and ask the game for the
deciding player's information set (:meth:`lcn.variants.Variant.information_set`): what that
player had seen when deciding, nothing more — a record with the whole deal is judged as the
player's own view of it would be. :mod:`lcn.search` then plays every candidate on the same
sampled deals.

How a loss becomes a mark. A move's *loss* is the expected final margin the best move would
have kept, less the played move's, measured again on fresh deals once the search has named
its best moves (:data:`DUEL_SHARE` of the budget; ``lcn.search.duel`` says why): the played
move meets the search's :data:`CONTENDERS` best others there, and the loss is against the
stronger, measured again on more deals while its mark is in doubt (:func:`unsettled`), so
that two seeds mark the same moves. Lost Cities is scored over a match
of rounds whose points add up, so a point lost in a round already lost is as real as one lost
in a close round: the loss is turned into a drop of the chance of winning *an even match*,
``100 · tanh(loss / (4 · SCALE))`` percentage points — the win chance of a logistic model
``1 / (1 + exp(−margin / SCALE))`` moved by the loss around an even margin — and marked as
lichess marks moves: 5 points an inaccuracy, 10 a mistake, 15 a blunder (with SCALE 20: a
loss of about 4, 8 and 12 points). Only the part of the loss that clears the Monte Carlo
noise of that very decision counts: its one-sided 95 % lower bound, not its estimate, is
turned into the drop that is compared with the thresholds, so a move is never marked for
what a few unlucky deals made it look like (nor marked at all when the two moves met fewer
than :data:`MIN_MARK_SAMPLES` deals, too few to trust the error itself).
The accuracy of a player is the mean over their decisions of lichess's per-move accuracy
``103.1668 · exp(−0.04354 · drop) − 3.1669`` (drop in win-% points of the estimate, clamped
to 0-100).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, Severity
from .games import Judge, Point
from .messages import msg
from .model import GameRecord
from .reader import read_games
from .search import Z_95, Judged, SearchResult, duel, lower_bound, search
from .validate import validate_record
from .variants import Variant, find_variant

#: The logistic scale (points of margin) that turns a loss into a win-chance drop.
SCALE = 20.0
#: Win-chance drops (percentage points) from which a move is marked, worst first.
MARKS = (("blunder", 15.0), ("mistake", 10.0), ("inaccuracy", 5.0))
#: The glyph each mark is written with in LCN and on the site.
GLYPHS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
#: The share of a decision's budget spent measuring the loss of the move played against the
#: search's best on fresh deals (``lcn.search.duel``); the rest finds the best.
DUEL_SHARE = 0.3
#: The fewest deals both moves must have met for a mark: below it the standard error itself
#: is too uncertain to bound the loss with.
MIN_MARK_SAMPLES = 30
#: How many more times a loss whose mark is not yet settled is measured again on fresh deals
#: (each time with the duel's budget; see :func:`unsettled`).
SETTLE_ROUNDS = 3
#: The search's best moves (other than the one played) that the move played meets again on
#: fresh deals, its loss being against the stronger there.
CONTENDERS = 2
#: The per-decision budget of an analysis when none is given, in seconds: a classic game of
#: some 50 decisions in about half a minute on two cores (``lcn analyse --jobs 2``).
ANALYSIS_SECONDS = 1.0
#: The most decisions one analysis judges: a whole game of any of the games has a few hundred
#: at most, and a record far longer is not a game to spend hours of search on.
MAX_DECISIONS = 2_000
#: The most seconds (per decision) and playouts a caller may ask for.
MAX_SECONDS = 60.0
MAX_PLAYOUTS = 1_000_000


class NotAnalysable(ValueError):
    """The record is valid, but there is nothing to judge or the game cannot be searched."""


def _figure(value: float, digits: int) -> float | None:
    """A figure for JSON: rounded, or None where no deal judged it (JSON has no NaN)."""
    return round(value, digits) if math.isfinite(value) else None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move the search judged: its word, expected final margin and chance of winning."""

    lcn: str
    value: float
    win: float
    samples: int

    @classmethod
    def of(cls, judged: Judged) -> Candidate:
        return cls(judged.lcn, judged.value, judged.win, judged.samples)

    def to_json(self) -> dict[str, Any]:
        return {"lcn": self.lcn, "value": _figure(self.value, 2), "win": _figure(100 * self.win, 1),
                "samples": self.samples}


@dataclass(frozen=True, slots=True)
class BestMove:
    """The move the search prefers for the player to move, with the runners-up.

    ``lcn`` is one of the words :func:`lcn.legal_moves` offers at the position; ``value`` is
    the expected final score margin after it (the mover's score less the best other
    seat's), ``win`` the chance of winning with it (0-1).
    """

    lcn: str
    value: float
    win: float
    player: str
    seat: int
    turn: int
    runners_up: tuple[Candidate, ...]
    samples: int
    playouts: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"lcn": self.lcn, "value": round(self.value, 2), "win": round(100 * self.win, 1),
                "player": self.player, "seat": self.seat, "turn": self.turn,
                "runners_up": [c.to_json() for c in self.runners_up], "samples": self.samples,
                "playouts": self.playouts, "seconds": round(self.seconds, 3)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a game, judged from what the deciding player knew."""

    #: The 1-based turn (the numbering of diagnostics) and who decided.
    turn: int
    player: str
    seat: int
    played: str
    best: str
    #: Expected final margin with the best move and with the move played.
    value_best: float
    value_played: float
    #: Points lost (0 when the played move is the best), and its standard error.
    loss: float
    loss_error: float
    #: The chance of winning an even match lost, in percentage points, and its standard error.
    win_drop: float
    win_drop_error: float
    #: ``inaccuracy``, ``mistake``, ``blunder`` or None.
    mark: str | None
    #: The player's accuracy on this decision (0-100).
    accuracy: float
    samples: int
    #: Why the best move is better, in one line, when a plain fact of the position says it.
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "seat": self.seat, "played": self.played,
                "best": self.best, "value_best": _figure(self.value_best, 2),
                "value_played": _figure(self.value_played, 2), "loss": _figure(self.loss, 2),
                "loss_error": _figure(self.loss_error, 2), "win_drop": _figure(self.win_drop, 1),
                "win_drop_error": _figure(self.win_drop_error, 1), "mark": self.mark,
                "glyph": GLYPHS.get(self.mark or ""), "accuracy": round(self.accuracy, 1),
                "samples": self.samples, "reason": None if self.reason is None else str(self.reason)}


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every decision of one game and each player's accuracy.

    A record written from one seat's view (the other hands unknown) gives only that seat's
    decisions: the others' are listed in ``unjudged`` (by turn), their deciders' knowledge
    being what the record does not tell.
    """

    players: tuple[str, ...]
    decisions: tuple[Decision, ...]
    accuracy: dict[str, float]
    seed: int | None
    seconds: float | None
    playouts: int | None
    unjudged: tuple[int, ...] = ()
    #: Whether every decision was judged with every card known (the open-cards view) rather
    #: than from what its player knew.
    open_cards: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "decisions": [d.to_json() for d in self.decisions],
                "accuracy": {name: round(value, 1) for name, value in self.accuracy.items()},
                "budget": {"seconds": self.seconds, "playouts": self.playouts, "seed": self.seed},
                "unjudged": list(self.unjudged),
                "view": "open cards" if self.open_cards else "players"}


def move_accuracy(drop: float) -> float:
    """lichess's accuracy of one move from the win-% points it lost."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(0.0, drop)) - 3.1669))


def win_drop(loss: float) -> float:
    """The win-% points an even match loses with ``loss`` points of expected margin."""
    return 100.0 * math.tanh(max(0.0, loss) / (4.0 * SCALE))


def mark_of(loss: float, error: float) -> str | None:
    """The mark a loss of points earns once its Monte Carlo noise is taken off."""
    sure = win_drop(lower_bound(loss, error))
    for name, threshold in MARKS:
        if sure >= threshold:
            return name
    return None


def unsettled(loss: float, error: float, samples: int) -> bool:
    """Whether another measure of the same loss could well give it another mark.

    A mark is read from the loss's lower bound, which is itself a noisy figure: its standard
    error is about the loss's. A decision whose bound lies within that noise of a mark's
    threshold (or that has met too few deals to be marked at all) gets one mark with one seed
    and another with the next, which is what players see as an analysis that contradicts
    itself. Measuring such a loss again on more deals shrinks the band until the threshold
    falls outside it; decisions far from every threshold, most of them, cost nothing more.
    """
    if samples < MIN_MARK_SAMPLES:
        return True
    if not math.isfinite(error):
        return True
    low = win_drop(loss - 2 * Z_95 * error)
    high = win_drop(loss)
    return any(low < threshold <= high for _, threshold in MARKS)


def _record(record: GameRecord | str) -> GameRecord:
    if isinstance(record, GameRecord):
        return record
    last = None
    for game in read_games(record):
        last = game
    if last is None:
        raise ValueError(msg("the text has no game"))
    return last


def _checked(record: GameRecord, *, unfinished: bool = False) -> tuple[Variant[Any, Any], list[str]]:
    """The record's variant and players, or the validator's diagnostics as an error.

    With ``unfinished``, a last turn still being written (an auction's calls so far, a roll
    and some choices) is no error: :func:`best_move` judges the next word within it, as
    ``lcn.legal_moves`` lists it.
    """
    from .moves import InvalidRecord, _unfinished

    variant = find_variant(record.variant_name)
    if variant is None:
        raise ValueError(msg('unknown variant "{variant}"', variant=record.tags.get("Variant")))
    report = validate_record(record, variant=variant)
    errors = [d for d in report.diagnostics if d.is_error]
    if errors and not (unfinished and variant.partial_codes
                       and _unfinished(report, variant, len(record.turns))):
        raise InvalidRecord(errors)
    return variant, list(report.players)


def _budget(seconds: float | None, playouts: int | None) -> None:
    if seconds is not None and not (0 < seconds <= MAX_SECONDS):
        raise ValueError(msg("seconds must be more than 0 and at most {most}", most=MAX_SECONDS))
    if playouts is not None and not (1 <= playouts <= MAX_PLAYOUTS):
        raise ValueError(msg("playouts must be 1 to {most}", most=MAX_PLAYOUTS))


def _judge(variant: Variant[Any, Any]) -> Judge:
    judge = variant.judge()
    if judge is None:
        raise NotAnalysable(msg("the {title} engine cannot judge moves yet", title=variant.title))
    return judge


def _view(judge: Judge, record: GameRecord, point: Point | None) -> tuple[Any, int | None]:
    try:
        return judge.view(record, point)
    except ValueError as exc:
        seat = "?" if point is None else point.seat + 1
        raise NotAnalysable(msg("the position cannot be judged from seat {seat}'s view: {why}",
                                seat=seat, why=str(exc))) from None


def best_move(record: GameRecord | str, *, seed: int | None = None, seconds: float | None = 1.0,
              playouts: int | None = None) -> BestMove:
    """The best move for the player to move after the record's last game's last turn.

    Judged from that player's view alone (their hand and what they saw), with a search of
    ``seconds`` (wall time) or, when given, ``playouts`` instead (repeatable: the answer then
    depends only on ``seed``). Raises :class:`lcn.moves.InvalidRecord` for a record that breaks a rule,
    :class:`NotAnalysable` for a finished game or one whose engine does not search.
    """
    from .moves import legal_moves

    _budget(seconds, playouts)
    if playouts is not None:
        seconds = None  # a count of playouts replaces the clock: the answer is repeatable
    game = _record(record)
    variant, names = _checked(game, unfinished=True)
    judge = _judge(variant)
    position = legal_moves(game)
    if position.over or position.seat is None:
        raise NotAnalysable(msg("the game is over: there is no move to judge"))
    infoset, _ = _view(judge, game, None)
    if infoset.seat != position.seat:  # pragma: no cover - a game's judge and lister disagree
        raise AssertionError(f"seat {infoset.seat} judged where seat {position.seat} moves")
    result = search(infoset, seed=seed, seconds=seconds, playouts=playouts)
    best = result.best
    return BestMove(best.lcn, best.value, best.win, position.player or names[position.seat],
                    position.seat, position.turn,
                    tuple(Candidate.of(c) for c in result.candidates[1:]), best.samples,
                    result.playouts, result.seconds)


def _open_view(judge: Judge, record: GameRecord, point: Point) -> tuple[Any, int]:
    opened = getattr(judge, "open_view", None)
    if opened is None:
        raise NotAnalysable(msg("the open-cards view is not offered for this game: its analysis "
                                "is from what each player knew only"))
    try:
        infoset, move = opened(record, point)
    except ValueError as exc:
        raise NotAnalysable(msg("the open-cards view cannot be made: {why}", why=str(exc))) from None
    return infoset, move


def _decide(judge: Judge, game: GameRecord, names: list[str], point: Point,
            seed: int | None, seconds: float | None, playouts: int | None,
            open_cards: bool = False) -> Decision | None:
    """The judgement of one decision of a game; None when the record does not give what
    its decider knew (with ``open_cards``: the position with every card known, which the
    record must give)."""
    text, seat = point.played, point.seat
    move: int | None
    if open_cards:
        infoset, move = _open_view(judge, game, point)
    else:
        try:
            infoset, move = _view(judge, game, point)
        except NotAnalysable:
            return None
    assert move is not None
    share = 1.0 - DUEL_SHARE
    result: SearchResult = search(infoset, seed=seed, keep=(move,),
                                  seconds=None if seconds is None else seconds * share,
                                  playouts=None if playouts is None else max(1, int(playouts * share)))
    # The loss is measured again on fresh deals: on the search's own, the best move is the
    # highest of many noisy means and looks better than it is (``lcn.search.duel``). The
    # played move meets the search's two best others there, not its best alone: two seeds'
    # searches often rank two near moves either way, and a move the player chose that the
    # search happened to rank first is still measured against the next. A loss near a mark's
    # threshold is measured again, on more fresh deals, until its mark is settled or the
    # rounds are spent (``unsettled``).
    rivals = [candidate.move for candidate in result.candidates if candidate.move != move][:CONTENDERS]
    played = result.judged(move)
    best = played
    loss = error = 0.0
    samples = played.samples
    if rivals:
        pooled_margins: list[list[int]] = [[] for _ in range(1 + len(rivals))]
        for round_ in range(1 + SETTLE_ROUNDS):
            again = duel(infoset, move, *rivals, seed=None if seed is None else seed + 1 + round_,
                         seconds=None if seconds is None else seconds * DUEL_SHARE,
                         playouts=None if playouts is None
                         else max(1 + len(rivals), int(playouts * DUEL_SHARE)))
            for margins, judged in zip(pooled_margins, again.candidates, strict=True):
                margins.extend(judged.margins)
            pooled = SearchResult(again.seat, tuple(
                Judged(judged.move, judged.lcn, tuple(margins))
                for margins, judged in zip(pooled_margins, again.candidates, strict=True)),
                len(pooled_margins[0]), 0, 0.0)
            strongest = max(pooled.candidates[1:], key=lambda judged: judged.value)
            difference = pooled.difference(strongest.move, move)
            loss, error = max(0.0, difference.points), difference.points_error
            samples = difference.samples
            if not unsettled(loss, error, samples):
                break
        played = pooled.judged(move)
        best = strongest if difference.points > 0 else played
    drop = win_drop(loss)
    # The drop's error, by the slope of the drop at the loss (the delta method).
    drop_error = 100.0 / (4.0 * SCALE) / math.cosh(loss / (4.0 * SCALE)) ** 2 * error \
        if math.isfinite(error) else math.inf
    explain = getattr(infoset, "reason", None)  # a game's information set may say why
    reason = explain(best.move, move) if explain is not None and best.move != move and loss > 0 else None
    return Decision(point.turn, names[seat], seat, text, best.lcn, best.value, played.value, loss,
                    error, drop, drop_error,
                    mark_of(loss, error) if samples >= MIN_MARK_SAMPLES else None,
                    move_accuracy(drop), samples, reason)


def _decide_task(task: tuple[str, int, int | None, float | None, int | None, bool]) -> Decision | None:
    """One decision judged in a worker process, from the game's text."""
    text, index, seed, seconds, playouts, open_cards = task
    game = _record(text)
    variant, names = _checked(game)
    judge = _judge(variant)
    return _decide(judge, game, names, judge.points(game)[index], seed, seconds, playouts, open_cards)


def analyse(record: GameRecord | str, *, seed: int | None = None,
            seconds: float | None = ANALYSIS_SECONDS, playouts: int | None = None,
            progress: Callable[[int, int], None] | None = None,
            turns: Iterable[int] | None = None, jobs: int = 1, open_cards: bool = False) -> Analysis:
    """Every decision of the record's last game (or those of ``turns``, 1-based), judged from the
    deciding player's information, with a budget of ``seconds`` or ``playouts`` *per
    decision* (``playouts`` replaces the clock when given). ``progress(done, total)`` is
    called after each decision.

    With ``open_cards`` every decision is judged with every card known instead (classic: the
    record's whole deal; Rivals: the piles' order; Roll & Write hides no card, and refuses it):
    what was best given the cards, which no player could know, so
    a mark there says what the deal would have rewarded, not a mistake of judgement. The
    analysis says which view it is (:attr:`Analysis.open_cards`).

    The same ``seed`` and ``playouts`` give the same analysis; each decision's search is
    seeded from ``seed`` and the turn, so one decision's result does not depend on which
    others were asked for, nor on ``jobs``: the number of processes the decisions are
    judged on (each decision is a search of its own, so they share nothing).
    """
    if not 1 <= jobs <= 64:
        raise ValueError(msg("jobs must be 1 to {most}", most=64))
    _budget(seconds, playouts)
    if playouts is not None:
        seconds = None
    game = _record(record)
    variant, names = _checked(game)
    judge = _judge(variant)
    if turns is not None:
        for turn in turns:
            if not 1 <= turn <= len(game.turns):
                raise ValueError(msg("no turn {turn}: the game has {count} turns", turn=turn,
                                     count=len(game.turns)))
    asked = None if turns is None else set(turns)
    points = judge.points(game)
    if open_cards and points:
        _open_view(judge, game, points[0])  # refused at once, not decision by decision
    wanted = [index for index, point in enumerate(points) if asked is None or point.turn in asked]
    if len(wanted) > MAX_DECISIONS:
        raise _too_many(len(wanted))
    base = random.Random(seed).getrandbits(32) if seed is not None else None
    seeds = [None if base is None else base * 1_000_003 + points[index].turn * 4096 + points[index].word
             for index in wanted]
    judged: list[Decision | None] = []
    if jobs > 1 and len(wanted) > 1:
        from concurrent.futures import ProcessPoolExecutor

        from .writer import write_game

        text = write_game(game)
        tasks = [(text, index, point_seed, seconds, playouts, open_cards)
                 for index, point_seed in zip(wanted, seeds, strict=True)]
        with ProcessPoolExecutor(min(jobs, len(wanted))) as pool:
            for decision in pool.map(_decide_task, tasks):
                judged.append(decision)
                if progress is not None:
                    progress(len(judged), len(wanted))
    else:
        for index, point_seed in zip(wanted, seeds, strict=True):
            judged.append(_decide(judge, game, names, points[index], point_seed, seconds, playouts,
                                  open_cards))
            if progress is not None:
                progress(len(judged), len(wanted))
    decisions = [decision for decision in judged if decision is not None]
    unjudged = tuple(sorted({points[index].turn for index, decision in zip(wanted, judged, strict=True)
                             if decision is None}))
    if wanted and not decisions:
        raise _no_view()
    accuracy = {}
    for name in names:
        mine = [d.accuracy for d in decisions if d.player == name]
        if mine:
            accuracy[name] = sum(mine) / len(mine)
    return Analysis(tuple(names), tuple(decisions), accuracy, seed, seconds, playouts, unjudged,
                    open_cards)


def _too_many(count: int) -> NotAnalysable:
    return NotAnalysable(msg("the game has {count} decisions to judge; an analysis judges at most "
                             "{most} (ask for some turns)", count=count, most=MAX_DECISIONS))


def _no_view() -> NotAnalysable:
    return NotAnalysable(msg("the record does not tell what any player knew when deciding "
                             "(no hand of a player is given)"))


def check(record: GameRecord | str) -> None:
    """Refuse, as :func:`analyse` would, a record it would not judge, without searching:
    :class:`lcn.moves.InvalidRecord` (with the validator's diagnostics) for a record that
    breaks a rule, :class:`NotAnalysable` for a game whose engine does not judge moves, one
    of more decisions than :data:`MAX_DECISIONS`, or one that tells no decider's view.

    A service that queues analyses asks this first, so that a job it accepts is one the
    analysis will run (the site answers 422 at once rather than a job that fails later).
    """
    game = _record(record)
    variant, _ = _checked(game)
    judge = _judge(variant)
    points = judge.points(game)
    if len(points) > MAX_DECISIONS:
        raise _too_many(len(points))
    for point in points:
        try:
            _view(judge, game, point)
        except NotAnalysable:
            continue
        return
    if points:
        raise _no_view()


def refusal(exc: Exception) -> list[Diagnostic]:
    """The diagnostics that say why a record was not analysed."""
    diagnostics = getattr(exc, "diagnostics", None)
    if diagnostics:
        return list(diagnostics)
    return [Diagnostic("not-analysable", str(exc), Severity.ERROR)]
