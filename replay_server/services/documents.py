"""The JSON documents of a file: what ``lcn validate --format json`` prints, and a stored
file with every game replayed (``GET /api/v1/games/<id>``, ``/g/<id>.json``).
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from werkzeug.exceptions import NotFound

from lcn.validate import ValidationRun

from .games import game_replay_of, replays_of

INPUT_NAME = "<input>"


def bound_diagnostics(games: list[dict[str, Any]], budget: int | None) -> int:
    """List at most ``budget`` diagnostics over all ``games``, in order; return how many were
    left out. A game that lost some says how many in ``diagnostics_omitted``."""
    if budget is None:
        return 0
    omitted = 0
    for game in games:
        listed = game["diagnostics"]
        if len(listed) > budget:
            game["diagnostics"] = listed[:budget]
            game["diagnostics_omitted"] = len(listed) - budget
            omitted += len(listed) - budget
        budget -= len(game["diagnostics"])
    return omitted


class TooManyGames(ValueError):
    """A body holding more games than one request may validate (answered with 413)."""


def validation_document(text: str, *, max_games: int | None = None,
                        max_diagnostics: int | None = None) -> dict[str, Any]:
    """What ``lcn validate --format json`` prints for a file holding ``text``, bounded.

    The answer must not grow without bound with the request: past ``max_games`` games the
    request is refused (TooManyGames), and past ``max_diagnostics`` diagnostics in the whole
    answer a game lists no more of them and says in ``diagnostics_omitted`` how many it left
    out; ``valid`` and the counts stay exact.
    """
    run = ValidationRun(text)
    games = []
    valid = 0
    for report in run:
        if max_games is not None and len(games) >= max_games:
            raise TooManyGames(f"the body holds more than {max_games} games, the most one request "
                               "may validate: split the file, or run `lcn validate` on it")
        entry = report.to_json()
        entry["file"] = INPUT_NAME
        games.append(entry)
        valid += report.valid
    omitted_total = bound_diagnostics(games, max_diagnostics)
    summary = {"games": len(games), "valid": valid, "invalid": len(games) - valid}
    if omitted_total:
        summary["diagnostics_omitted"] = omitted_total
    return {"games": games,
            "files": [{"file": INPUT_NAME, "diagnostics": [d.to_json() for d in run.file_diagnostics]}],
            "summary": summary}


def game_document(game_id: str, text: str, game: int | None = None) -> dict[str, Any]:
    """A stored file for programs: its id, text and every game replayed (or game ``game``)."""
    if game is None:
        games = list(replays_of(text))
    else:
        chosen = game_replay_of(text, game)
        if chosen is None:
            raise NotFound(f"game {game_id} has no game {game}")
        games = [chosen]
    return {"id": game_id, "url": url_for("pages.stored", game_id=game_id), "lcn": text,
            "games": games}


__all__ = ["INPUT_NAME", "TooManyGames", "bound_diagnostics", "game_document", "validation_document"]
