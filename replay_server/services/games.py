"""Finding a stored game and reading a file: its games checked, replayed and outlined.

What every surface that shows a game needs (the replay pages, the API's documents, the
recorder, the pictures), computed once per text and kept in ``DATA_CACHE`` under a digest of
the text (a stored game never changes under its id, and a text never changes under its
digest). Nothing in the rules forces a game to end, so the caps of what one request may
replay are here too, one for every surface: ``refuse_long_game`` (``MAX_REPLAY_TURNS``) and
the positions of one JSON document (``MAX_DOCUMENT_POSITIONS``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app, has_request_context
from werkzeug.exceptions import HTTPException, NotFound

from lcn import Reader
from lcn.describe import TurnStory, describe_text
from lcn.replay import replay_game, replay_outline, replay_positions, replay_text, summarize_text

from ..caches import ByteCache
from ..config import DEFAULT_MAX_DOCUMENT_POSITIONS, DEFAULT_MAX_REPLAY_TURNS
from ..i18n import _
from ..storage import get_store

#: A file longer than this is a heavy read: rendering it counts against READ_RATELIMIT.
HEAVY_TEXT_BYTES = 32 * 1024
#: Bytes kept per process of each kind of computed data (see replay_server.caches).
DATA_CACHE_BYTES = 64 * 1024 * 1024
TEXT_CACHE_BYTES = 32 * 1024 * 1024


class TooLongToReplay(HTTPException):
    """A game (or a JSON document) longer than the site renders: a clear 422."""

    code = 422


#: Replays, outlines and overviews of files, keyed by a digest of the text (a key holding
#: the text itself would be as large as the file, and uncounted).
DATA_CACHE: ByteCache[Any] = ByteCache(DATA_CACHE_BYTES)


def digest(text: str) -> bytes:
    """The key of a text's computed data: a key holding the text would be as large as it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def _cached(kind: str, text: str, make: Callable[[], Any], *args: Any) -> Any:
    return DATA_CACHE.get_or_make((kind, digest(text), *args), make)


#: The same under a public name, for the site's other modules (the annotation form's values).
cached_data = _cached


def _setting(name: str, default: int) -> int:
    return int(current_app.config.get(name) or default) if has_request_context() else default


def _check_document(text: str) -> None:
    """Refuse (422) a JSON document of every position of a file longer than the site serves."""
    limit = _setting("MAX_DOCUMENT_POSITIONS", DEFAULT_MAX_DOCUMENT_POSITIONS)
    positions = sum(g["turns"] + 1 for g in overview_of(text))
    if positions > limit:
        raise TooLongToReplay(
            _("this file has %(positions)s positions, more than the %(limit)s one document of "
              "every position may hold: ask for one game with ?game=K, or replay it with `lcn show`",
              positions=positions, limit=limit))


def replays_of(text: str) -> tuple[dict[str, Any], ...]:
    """The replays of every game of a file, every position included (cached, bounded)."""
    _check_document(text)
    return _cached("replays", text, lambda: tuple(replay_text(text)))


def overview_of(text: str) -> tuple[dict[str, Any], ...]:
    """The games of a file, checked but not replayed (what lists of games show)."""
    return _cached("overview", text, lambda: tuple(summarize_text(text)))


def game_replay_of(text: str, game: int) -> dict[str, Any] | None:
    """One game of a file, replayed with every position: a document never pays for the
    positions of other games (and a game longer than the site serves is refused)."""
    games = overview_of(text)
    if 1 <= game <= len(games):
        limit = _setting("MAX_DOCUMENT_POSITIONS", DEFAULT_MAX_DOCUMENT_POSITIONS)
        if games[game - 1]["turns"] + 1 > limit:
            raise TooLongToReplay(
                _("game %(game)s has %(turns)s turns, more positions than the %(limit)s one "
                  "document may hold: replay it on its page, or with `lcn show`", game=game,
                  turns=games[game - 1]["turns"], limit=limit))
    return _cached("replay", text, lambda: replay_game(text, game), game)


@dataclass(frozen=True, slots=True)
class Move:
    """A turn as the move list shows it: the outline's turn, in a fifth of a dict's memory
    (a long game's outline holds tens of thousands of them)."""

    index: int
    number: int
    numbered: bool
    text: str
    player: int | None
    glyphs: tuple[str, ...]
    comments: tuple[str, ...]


def _lean_outline(text: str, game: int) -> dict[str, Any] | None:
    data = replay_outline(text, game)
    if data is None:
        return None
    data["turns"] = [Move(t["index"], t["number"], t["numbered"], t["text"], t["player"],
                          tuple(t["glyphs"]), tuple(t["comments"])) for t in data["turns"]]
    data["running"] = [tuple(totals) for totals in data["running"]]
    data["intro_comments"] = tuple(data["intro_comments"])
    data["closing_comments"] = tuple(data["closing_comments"])
    return data


def outline_of(text: str, game: int) -> dict[str, Any] | None:
    """One game of a file without its positions: what a replay page shows besides a board."""
    return _cached("outline", text, lambda: _lean_outline(text, game), game)


def positions_of(text: str, game: int, first: int, count: int, applied: int) -> dict[int, dict[str, Any]]:
    """Positions ``first`` .. ``first + count - 1`` of one game (fewer past its last turn)."""
    return _cached("positions", text,
                   lambda: replay_positions(text, game, range(first, first + count), applied),
                   game, first, count)


def told_of(text: str, game: int, first: int, last: int) -> dict[int, TurnStory]:
    """Turns ``first`` .. ``last`` of one game told in words (what the move list and each
    position say), played again up to ``last`` only."""
    return _cached("told", text, lambda: describe_text(text, game, range(first, last + 1)),
                   game, first, last)


def refuse_long_game(turns: int, game: int) -> None:
    """TooLongToReplay (422) for a game of more than ``MAX_REPLAY_TURNS`` turns.

    The one cap of every surface that replays a game (the replay page, the recorder's board,
    the legal moves, the annotation form): a game refused on one surface was answered on
    another, at seconds of CPU a request.
    """
    longest = _setting("MAX_REPLAY_TURNS", DEFAULT_MAX_REPLAY_TURNS)
    if turns > longest:
        raise TooLongToReplay(
            _("game %(game)s of this file has %(turns)s turns: this site replays games of at most "
              "%(longest)s turns. Check it with `lcn validate`, or step through it with `lcn show`.",
              game=game, turns=turns, longest=longest))


def stored_text(game_id: str) -> str:
    """The text of a stored game (kept in the process: stored games never change)."""
    texts = current_app.extensions.get("lcn_texts")
    if texts is None:
        texts = current_app.extensions["lcn_texts"] = ByteCache(
            int(current_app.config.get("TEXT_CACHE_BYTES", TEXT_CACHE_BYTES)))
    text = texts.get(game_id)
    if text is None:
        text = get_store().get(game_id)
        if text is None:
            raise NotFound(_("there is no game %(game)s here: check the link", game=game_id))
        texts.put(game_id, text)
    return text


def download_name(text: str, extension: str, fallback: str) -> str:
    """A file name for a download, from the first game's tags: ``2026-07-12-pia-vs-sami.lcn``.

    The date (``Date``, its unknown parts left out) and the players' names, in plain ASCII
    letters and digits (accents dropped: a name is also a header value and a path on the
    reader's disk); ``fallback`` when the tags give neither.
    """
    import unicodedata

    def plain(value: str) -> str:
        folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
        return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")

    record = next(iter(Reader(text)), None)
    parts: list[str] = []
    if record is not None:
        date = record.tags.get("Date") or ""
        numbers = re.findall(r"[0-9]+", date)
        if numbers and len(numbers[0]) == 4:
            parts.append("-".join(numbers[:3]))
        names = [plain(name) for name in record.players()]
        names = [name for name in names if name]
        if names:
            parts.append("-vs-".join(names))
    stem = "-".join(parts)[:120].strip("-") or fallback
    return f"{stem}.{extension}"


__all__ = ["DATA_CACHE", "HEAVY_TEXT_BYTES", "Move", "TooLongToReplay", "cached_data", "digest",
           "download_name", "game_replay_of", "outline_of", "overview_of", "positions_of",
           "refuse_long_game", "replays_of", "stored_text", "told_of"]
