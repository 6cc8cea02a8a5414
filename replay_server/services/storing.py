"""Storing a file: whatever its format, read, every game checked, stored in canonical LCN.

The home page's form (``POST /``) and the API (``POST /api/v1/games``) store a file the same
way, through :func:`store_file`; they differ only in how they answer (a page, or JSON). The
store holds only files whose every game is valid, and always in canonical form, so that a
file's id (the hash of its text) names it however it was sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lcn import write_games
from lcn.importers import ImportResult, formats, get_importer, import_text

from ..storage import get_store


def canonical_text(records: Sequence[Any]) -> str:
    return write_games(records) or ""


def games_past(text: str, fmt: str, limit: int) -> bool:
    """Whether ``text``, in format ``fmt``, holds more than ``limit`` games, found before
    anything is validated.

    Validating keeps each game's report, so a body of a few hundred kilobytes of one-line
    games once took gigabytes before its count was compared. LCN (the format of every
    self-contained link) is counted as the reader streams it, a game at a time, and the count
    stops at ``limit + 1``. An upload is counted by ``import_text(..., most_games=limit)``
    instead, in the one detection and read of its import. An input that cannot be read is
    left for what follows to report.
    """
    try:
        counted = get_importer(fmt).games_past(text, limit)
        return len(get_importer(fmt).read(text).records) > limit if counted is None else counted
    except Exception:  # whatever stops it, what follows reports it as it should
        return False

def known_formats() -> list[str]:
    """The names of the formats a file may be sent in (besides "auto": detected)."""
    return [name for name, _ in formats()]


@dataclass(frozen=True, slots=True)
class StoreOutcome:
    """What storing a file came to: the import's result, and the stored file's id (and whether
    it was new) when every game was valid. ``game_id`` None: nothing was stored."""

    result: ImportResult
    game_id: str | None = None
    created: bool = False

    def problems(self) -> list[dict[str, Any]]:
        """Every diagnostic of the file, each with the 1-based game it is about."""
        return [dict(d.to_json(), game=d.extra.get("game")) for d in self.result.diagnostics]


def store_file(text: str, fmt: str, *, most_games: int) -> StoreOutcome:
    """Read ``text`` in format ``fmt`` ("auto": detected), check every game, and store the file
    in canonical LCN if every game is valid.

    One detection and one read: the games are counted before any is validated, and past
    ``most_games`` TooManyGames is raised; a text that cannot be read raises ImportError_
    with its diagnostics. Each caller answers these in its own form.
    """
    result = import_text(text, None if fmt == "auto" else fmt, most_games=most_games)
    if not result.valid:
        return StoreOutcome(result)
    game_id, created = store_text(canonical_text(result.records))
    return StoreOutcome(result, game_id, created)


def store_text(canonical: str) -> tuple[str, bool]:
    """Store a text already checked and in canonical form (a file's games as
    :func:`store_file` leaves them, a sample, an annotated game): its ID, and whether it is
    new. Every road into the store goes through here, so that what a stored game is (valid,
    canonical, found again by its ID) is said in one place."""
    return get_store().put(canonical)


__all__ = ["StoreOutcome", "canonical_text", "games_past", "known_formats", "store_file", "store_text"]
