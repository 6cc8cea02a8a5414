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


def _turns(report: GameReport, positions: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
        before = positions[i] if i < len(positions) else None
        seat = before.get("next_player") if isinstance(before, dict) else None
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


def replay_report(report: GameReport) -> dict[str, Any]:
    """The replay of a game already validated with ``keep_snapshots`` and ``keep_running``."""
    record = report.record
    variant = report.variant
    positions = list(report.snapshots or [])
    running = list(report.running or [])
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
        "turns": _turns(report, positions),
        "applied": max(len(positions) - 1, 0),
        "positions": positions,
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


def _reports(records: Iterable[GameRecord], full: int | None) -> Iterator[GameReport]:
    """Validate games in order, keeping positions for game ``full`` only.

    Positions cost far more than checking (a snapshot per turn), so a page that shows one
    game of a long file replays that game alone; the games before it are still checked, in
    order, because the checks and totals of a match span games (as in ``validate_games``).
    """
    trackers: dict[str, Any] = {}
    for index, record in enumerate(records, 1):
        keep = index == full
        report = validate_record(record, index, keep_snapshots=keep, keep_running=keep)
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


__all__ = ["replay", "replay_game", "replay_games", "replay_report", "replay_text", "summarize_text"]
