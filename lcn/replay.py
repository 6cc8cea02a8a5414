"""Replays: a game as JSON-ready data, with the position and the scores after every turn.

The site's pages and its API both show games through this one function, so what a page
shows and what ``GET /api/v1/games/<id>`` returns cannot disagree; it knows no variant and
asks each variant for its own picture of the state (``Variant.snapshot``).

>>> data = replay_text('[Player1 "Ada"]\\n[Player2 "Bo"]\\n\\n1. R5/d R4/d *\\n')[0]
>>> data["players"], data["valid"], len(data["positions"]), data["running"][-1]
(['Ada', 'Bo'], True, 3, [-15, -16])
>>> [(t["index"], t["number"], t["text"], t["player"]) for t in data["turns"]]
[(1, 1, 'R5/d', 0), (2, 1, 'R4/d', 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .model import GameRecord
from .reader import Reader, Source
from .validate import GameReport, validate_games, validate_record
from .variants import Variant, find_variant


def _turns(report: GameReport, seats: list[int | None]) -> list[dict[str, Any]]:
    """The turns of a game as shown; ``seats[i]`` is who is to move before turn ``i + 1``."""
    record = report.record
    variant = report.variant
    turns = []
    for i, turn in enumerate(record.turns):
        number: int = i + 1
        numbered = True
        if variant is not None and report.state is not None:
            try:
                number, numbered = variant.move_number(report.state, i)
            except Exception:  # a third-party variant that needs more: keep the plain count
                number, numbered = i + 1, True
        seat = seats[i] if i < len(seats) else None
        turns.append({
            "index": i + 1,
            "number": number,
            "numbered": numbered,
            "text": turn.text,
            "player": seat if isinstance(seat, int) else None,
            "glyphs": list(turn.glyphs),
            "comments": list(turn.comments),
            "line": turn.line,
            "column": turn.column,
        })
    return turns


def walk(record: GameRecord, variant: Variant[Any, Any], applied: int, wanted: range | None = None
         ) -> tuple[list[int | None], dict[int, dict[str, Any]]]:
    """Play the first ``applied`` turns again: who is to move before each turn, and the
    positions numbered in ``wanted`` (0: before the first turn), nothing else.

    A position costs far more than a turn (a snapshot is a picture of the whole table), so a
    page that shows one position of a long game pays for the turns before it, not for a
    snapshot of each. ``applied`` is what validation found (``replay_outline``): the turns
    up to it are known to be readable and playable, and are played with the same calls as
    the validator makes. With ``wanted``, the walk stops at its last position (the seats
    listed stop there too).
    """
    state, _ = variant.setup(record)
    seats: list[int | None] = []
    shots: dict[int, dict[str, Any]] = {}
    last = min(applied, len(record.turns))
    if wanted is not None:
        last = min(last, wanted.stop - 1)
    for i in range(last + 1):
        if wanted is not None and i in wanted:
            shots[i] = variant.snapshot(state)
        seats.append(None if variant.is_over(state) else variant.current_player(state))
        if i == last:
            break
        variant.apply(state, variant.parse_move(state, record.turns[i].text))
    return seats, shots


def replay_report(report: GameReport, *, positions: bool = True) -> dict[str, Any]:
    """The replay of a game already validated with ``keep_running`` (and ``keep_snapshots``
    unless ``positions`` is False, when ``positions`` is left empty: see ``replay_outline``).
    """
    record = report.record
    variant = report.variant
    running = list(report.running or [])
    if positions:
        snapshots = list(report.snapshots or [])
        seats = [p.get("next_player") if isinstance(p, dict) else None for p in snapshots]
        seats = [s if isinstance(s, int) else None for s in seats]
    else:
        snapshots = []
        seats = walk(record, variant, len(running) - 1)[0] if variant is not None and running else []
    score = report.score
    final = None
    if score is not None and report.complete:
        final = {"totals": list(score.totals), "breakdown": [dict(b) for b in score.breakdown],
                 "details": list(score.details)}
    return {
        "index": report.index,
        "variant": record.variant_name,
        "variant_title": variant.title if variant is not None else None,
        "known_variant": variant is not None,
        "tags": [[name, value] for name, value in record.tags.items()],
        "players": report.players,
        "valid": report.valid,
        "diagnostics": [d.to_json() for d in report.diagnostics],
        "intro_comments": list(record.intro_comments),
        "closing_comments": list(record.closing_comments),
        "termination": record.termination,
        "line": record.line,
        "turns": _turns(report, seats),
        "applied": max(len(running) - 1, 0),
        "positions": snapshots,
        "running": running,
        "scores": final,
        "over": report.over,
        "complete": report.complete,
        "match": report.extra.get("match"),
    }


def replay(record: GameRecord, index: int = 1) -> dict[str, Any]:
    """Replay one game: tags, turns, every position and the running and final scores.

    ``positions[0]`` is the state before the first turn and ``positions[n]`` the state
    after turn ``n``; ``running[n]`` holds the totals after turn ``n``. Both stop at
    ``applied``, the last turn that could be replayed (a turn the variant cannot read, or
    a turn after the game's end, stops the replay; ``diagnostics`` says why). Match totals
    need the games before this one: use :func:`replay_games` for a whole file.
    """
    report = validate_record(record, index, keep_snapshots=True, keep_running=True)
    return replay_report(report)


def replay_games(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """Replay the games of a file in order, with the checks and totals that span games."""
    return [replay_report(report) for report in
            validate_games(records, keep_snapshots=True, keep_running=True)]


def replay_text(text: Source) -> list[dict[str, Any]]:
    """Replay every game of a file (text, bytes or a path), in order."""
    return replay_games(Reader(text))


def _reports(records: Iterable[GameRecord], full: int | None, *,
             snapshots: bool = True) -> Iterator[GameReport]:
    """Validate games in order, keeping positions for game ``full`` only.

    Positions cost far more than checking (a snapshot per turn), so a page that shows one
    game of a long file replays that game alone; the games before it are still checked, in
    order, because the checks and totals of a match span games (as in ``validate_games``).
    """
    trackers: dict[str, Any] = {}
    for index, record in enumerate(records, 1):
        keep = index == full
        report = validate_record(record, index, keep_snapshots=keep and snapshots,
                                 keep_running=keep)
        if report.variant is not None:
            name = report.variant.name
            if name not in trackers:
                trackers[name] = report.variant.match_tracker()
            if trackers[name] is not None:
                trackers[name].add(report)
        yield report
        if full is not None and index >= full:
            return


def replay_game(text: Source, game: int) -> dict[str, Any] | None:
    """The replay of the ``game``-th game of a file (1-based), or None if it has fewer.

    The same as ``replay_text(text)[game - 1]``, without the positions of the other games.
    """
    for report in _reports(Reader(text), game):
        if report.index == game:
            return replay_report(report)
    return None


def replay_outline(text: Source, game: int) -> dict[str, Any] | None:
    """What ``replay_game`` gives, without the positions (``positions`` is empty).

    Its cost grows with the number of turns (the move list, the running scores), not with
    turns times the size of a position; :func:`replay_positions` gives positions on demand.
    """
    for report in _reports(Reader(text), game, snapshots=False):
        if report.index == game:
            return replay_report(report, positions=False)
    return None


def replay_positions(text: Source, game: int, wanted: range, applied: int) -> dict[int, dict[str, Any]]:
    """The positions numbered in ``wanted`` of the ``game``-th game of a file, by number.

    ``applied`` is the outline's: positions past it do not exist and are left out. The same
    pictures as ``replay_game(text, game)["positions"][n]``.
    """
    for index, record in enumerate(Reader(text), 1):
        if index < game:
            continue
        variant = find_variant(record.variant_name)
        if variant is None or index > game:
            return {}
        return walk(record, variant, applied,
                    range(max(wanted.start, 0), min(wanted.stop, applied + 1)))[1]
    return {}


def summarize_text(text: Source) -> list[dict[str, Any]]:
    """What a list of a file's games shows, without replaying them: cheap for long files.

    Each entry has the game's ``index``, ``line``, ``variant``, ``players``, ``valid``,
    ``termination``, ``turns`` (how many), the ``Event`` and ``Game`` tags and ``match``.
    """
    summaries = []
    for report in _reports(Reader(text), None):
        record = report.record
        summaries.append({
            "index": report.index, "line": record.line, "variant": record.variant_name,
            "players": report.players, "valid": report.valid,
            "termination": record.termination, "turns": len(record.turns),
            "event": record.tags.get("Event"), "game_tag": record.tags.get("Game"),
            "match": report.extra.get("match"),
        })
    return summaries


__all__ = ["replay", "replay_game", "replay_games", "replay_outline", "replay_positions",
           "replay_report", "replay_text", "summarize_text", "walk"]
