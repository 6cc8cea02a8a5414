"""The pages people see: the home page (paste, upload, import, samples) and the replays.

Every turn of a replay is a plain link rendered by the server, so the site works without
JavaScript; the page carries the board of its own turn, and the small script fetches the
others in server-rendered chunks of ``POSITIONS_CHUNK`` positions, then only shows and hides
them (no second renderer in the browser). Stored games never change (their id is the hash
of their text), so rendered pages are cached in the process and sent with an ETag and an
immutable Cache-Control.

Nothing in the rules forces a game to end: a legal classic game can pass cards through the
discard piles for tens of thousands of turns. So what one request costs is bounded by the
page it shows, not by the game: one position (or one chunk), a window of ``MOVES_PAGE``
turns of the move list (and of the annotation form), a graph of at most ``GRAPH_POINTS``
points, and the source shown only up to ``SOURCE_SHOWN_BYTES``. Games longer than
``MAX_REPLAY_TURNS`` are not replayed at all (a 422 page), every cache is bounded in bytes
(:mod:`replay_server.caches`), and renders of long files count against the read rate limit.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    has_request_context,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.exceptions import BadRequest, HTTPException, NotFound

from lcn import Reader, write_games
from lcn.describe import TurnStory, card_name, colour_words, describe_text
from lcn.games import colours
from lcn.importers import ImportError_, TooManyGames, decode, formats, get_importer, import_text
from lcn.messages import Message
from lcn.replay import replay_game, replay_outline, replay_positions, replay_text, summarize_text

from .caches import ByteCache
from .caches import cached_response as _cached_response
from .caches import page_cache as _page_cache
from .config import DEFAULT_MAX_DOCUMENT_POSITIONS, DEFAULT_MAX_REPLAY_TURNS
from .forms import QueryError, load_query
from .i18n import _, current_language, say
from .samples import app_samples, samples_by_variant
from .security import count_heavy_read, write_limit
from .storage import StoreUnavailable, get_store

bp = Blueprint("pages", __name__)

VIEWS = ("all", "1", "2", "3", "4", "5", "none")
#: The colours' letters, as a score sheet's columns are told from its other parts.
COLOUR_NAMES = frozenset(colours.COLOUR_WORDS)
#: Largest source shown whole next to its diagnostics; longer ones show the lines around them.
SOURCE_LINES_SHOWN = 400
#: Positions in one fragment fetched by replay.js: every position of a game of usual length
#: (the samples have at most 80 turns), a bounded part of a long one.
POSITIONS_CHUNK = 100
#: Turns in one page of the move list at most; even, so that the rows of an alternating
#: game (two turns a row) never straddle two pages. Every turn is a link that keeps the
#: page's other arguments (a self-contained link's token, up to 8,000 characters), so a page
#: holds fewer turns when its links are long: about MOVES_PAGE_BYTES of links in all.
MOVES_PAGE = 500
MOVES_PAGE_BYTES = 192 * 1024
#: Points of the score graph, and its click targets (each a link, counted as the moves' are
#: in GRAPH_BYTES): beyond these, each stands for several turns.
GRAPH_POINTS = 400
GRAPH_BYTES = 48 * 1024
#: Games listed on each side of the current one in a replay's list of a file's games.
GAMES_AROUND = 25
#: Whatever their links' length, a page of moves and the graph show this many turns each,
#: one by one: a game of usual length is never cut into pages.
LEAST_PER_PAGE = 120
#: Longest source shown highlighted on a replay page (Pygments' HTML is some twenty times
#: its text); longer ones are downloaded.
SOURCE_SHOWN_BYTES = 16 * 1024
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
#: Highlighted sources (Pygments' HTML is many times the size of its text).
SOURCE_CACHE: ByteCache[Markup] = ByteCache(DATA_CACHE_BYTES // 4, lambda html: len(html) * 2)


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def _cached(kind: str, text: str, make: Callable[[], Any], *args: Any) -> Any:
    return DATA_CACHE.get_or_make((kind, _digest(text), *args), make)


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


def canonical_text(records: Sequence[Any]) -> str:
    return write_games(records) or ""


# -- small helpers for templates ------------------------------------------------------------

@bp.app_template_global("card_parts")
def card_parts(card: str) -> tuple[str, str, str]:
    """A card's colour letter, its face ("5", or "w" for a wager) and a description."""
    colour, value = card[:1], card[1:]
    return colour.upper(), value, say(card_name(card))


@bp.app_template_global("card")
def card(code: str, extra: str = "", mark: str = "") -> Markup:
    """A card as the boards draw it: its colour's letter and its value as well as its colour,
    so that no one needs to tell colours apart (a wager shows ×); ``mark`` (a word: "played",
    "taken") is shown on the card, not only by its outline.

    A Jinja macro once, called some thirty times a board: each call cost more than the
    card's few strings, so the card is made here, and kept per card, marks and language
    (a game has at most a few hundred of them).
    """
    return _card(code, str(Markup.escape(extra)), str(Markup.escape(mark)), current_language())


@functools.lru_cache(maxsize=4096)
def _card(code: str, extra: str, mark: str, language: str) -> Markup:
    letter, value, said = card_parts(code)
    letter = str(Markup.escape(letter))
    face = "×" if value == "w" else str(Markup.escape(value))
    classes = f" {extra}" if extra else ""
    if mark:
        return Markup(f'<span class="card c-{letter}{classes} marked" role="img" aria-label="'
                      f'{Markup.escape(said)} ({mark})">{letter}<b>{face}</b><span class="mark-tag" '
                      f'aria-hidden="true">{mark}</span></span>')
    return Markup(f'<span class="card c-{letter}{classes}" role="img" aria-label="'
                  f'{Markup.escape(said)}">{letter}<b>{face}</b></span>')


@bp.app_template_filter("colour_name")
def colour_name(letter: str) -> str:
    """A colour's name in the page's language."""
    return say(colours.colour_name(letter))


@bp.app_template_global("colour_label")
def colour_label(letter: str) -> str:
    """A colour's name in the page's language, for labels read aloud (``R`` → "red")."""
    return say(colour_words(letter))


@bp.app_template_global("annotate_turns")
def annotate_turns(form: Any, lcn_text: str, game: int, first: int | None = None,
                   last: int | None = None) -> Markup:
    """The annotation form's rows of turns ``first``..``last`` (all without them), as HTML.

    Some ten strings a turn made them the larger part of rendering a replay page, yet they do
    not depend on the turn the page shows (annotate.js narrows them in the browser): so they
    are rendered once per text, game, window and language, and kept with the game's other
    computed data (a text never changes under its digest).
    """
    start = 1 if first is None else first
    stop = len(form.turns) if last is None else last
    key = ("annotate-turns", _digest(lcn_text), game, start, stop, current_language())
    return DATA_CACHE.get_or_make(key, lambda: Markup(render_template(
        "_annotate_turns.html", turns=form.turns[start - 1:stop], glyph_choices=form.glyph_choices)))


@bp.app_template_global("graph_hits")
def graph_hits(graph: dict[str, Any], link: Callable[..., str], lcn_text: str, game: int) -> Markup:
    """The score graph's click targets (``_graph_hits.html``), as HTML.

    Two strings and a link a target: rendered once per text, game, links (``link()`` without
    a turn: the arguments every link keeps) and language, as the targets do not move with
    the turn shown (only the marker does, drawn by ``_graph.html``).
    """
    key = ("graph-hits", _digest(lcn_text), game, link(), current_language())
    return DATA_CACHE.get_or_make(key, lambda: Markup(render_template(
        "_graph_hits.html", graph=graph, link=link)))


#: What stands for "this is the current turn" in a move list made once for every turn.
_MARK = "\x00{}\x00"
_MARKS = re.compile("\x00([0-9]+)\x00")


@dataclass(frozen=True, slots=True)
class TurnMarked:
    """A fragment made once for every turn of a game: its text cut where a turn's link says
    whether it is the current one (``pieces`` and ``turns`` alternate)."""

    pieces: tuple[str, ...]
    turns: tuple[int, ...]

    def at(self, turn: int) -> Markup:
        """The fragment as the page of ``turn`` shows it."""
        out = [self.pieces[0]]
        for index, piece in zip(self.turns, self.pieces[1:], strict=True):
            out.append(" current" if index == turn else "")
            out.append(piece)
        return Markup("".join(out))


def render_cached() -> bool:
    """Whether a replay page reuses the parts it shares with the game's other turns
    (``RENDER_CACHE``, on unless turned off: the tests compare both ways)."""
    return bool(current_app.config.get("RENDER_CACHE", True))


def moves_list(context: dict[str, Any], text: str, game: int, links: str) -> TurnMarked | None:
    """The move list's page (``_moves.html``) made once for every turn it holds.

    Only the class of the current turn's link changes from one turn to the next, yet the list
    (a link, the turn told in words and its comments for every turn) was the largest part of
    rendering a replay page. It is rendered once per text, game, window, links and language
    with a mark where each link says whether it is the current one, and kept with the game's
    other computed data. None when the cache is off or the record holds the mark's byte (a NUL),
    which could then be taken for a mark.
    """
    if not render_cached() or "\x00" in text:  # the mark's byte in the record: made as before
        return None
    key = ("moves", _digest(text), game, context["moves_first"], context["moves_last"], links,
           current_language())

    def make() -> TurnMarked | None:
        html = render_template("_moves.html", **dict(
            context, current=lambda index: Markup(_MARK.format(index))))
        parts = _MARKS.split(html)
        pieces, turns = tuple(parts[0::2]), tuple(int(n) for n in parts[1::2])
        return TurnMarked(pieces, turns)

    made: TurnMarked | None = DATA_CACHE.get_or_make(key, make)
    return made


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    return {"colour_names": COLOUR_NAMES,
            "asset_version": current_app.config.get("ASSET_VERSION", "")}


def _number_args() -> tuple[int | None, int | None]:
    """``?game=`` and ``?turn=``, loaded through forms.ReplayQuerySchema (None when absent)."""
    try:
        query = load_query(request.args)
    except QueryError as exc:
        raise BadRequest(str(exc)) from None
    return query.get("game"), query.get("turn")


def _view_arg(view: str | None) -> str:
    if view is None and has_request_context():
        view = request.args.get("view")
    return view if view in VIEWS else "all"


def _linker(game: int, view: str, multi: bool) -> Callable[..., str]:
    """Builds ``?...`` links that keep the request's other arguments (``/v?g=...``)."""
    kept: list[tuple[str, str]] = []
    if has_request_context():
        kept = [(k, v) for k, v in request.args.items(multi=True)
                if k not in ("turn", "game", "view", "part")
                and request.endpoint not in OWN_ARGUMENTS]

    # The common link, to a turn of this game in this view, is the same text around the turn:
    # made once, as a page holds a link per turn of its move list.
    before = urlencode([*kept, *((("game", str(game)),) if multi or game != 1 else ())])
    after = "" if view == "all" else "&" + urlencode([("view", view)])
    head = f"?{before}&turn=" if before else "?turn="

    def link(turn: int | None = None, *, to_game: int | None = None, to_view: str | None = None,
             part: str | None = None) -> str:
        if type(turn) is int and to_game is None and to_view is None and part is None:
            return f"{head}{turn}{after}"
        args = list(kept)
        chosen = game if to_game is None else to_game
        if multi or chosen != 1:
            args.append(("game", str(chosen)))
        if turn is not None:
            args.append(("turn", str(turn)))
        shown = view if to_view is None else to_view
        if shown != "all":
            args.append(("view", shown))
        if part is not None:
            args.append(("part", part))
        return "?" + urlencode(args) if args else "?"

    return link


def move_rows(turns: Sequence[Any]) -> list[dict[str, Any]]:
    """Turns grouped into the move list's rows: a row starts at every numbered turn.

    Alternating games (classic) get ``1. R5/d R4/d`` rows; games that number every turn
    (Rivals) one turn a row. Nothing here knows which variant it shows.
    """
    rows: list[dict[str, Any]] = []
    for turn in turns:
        if turn.numbered or not rows:
            rows.append({"number": turn.number, "turns": []})
        rows[-1]["turns"].append(turn)
    return rows


def score_graph(running: list[list[int]], players: list[str], turn: int,
                link_length: int = 0) -> dict[str, Any] | None:
    """Coordinates of the score graph (an SVG drawn by the server, clickable per turn).

    At most ``GRAPH_POINTS`` points and as many click targets: beyond that, each stands for
    a run of turns (the last turn of the run is drawn, its first is the link), so a long game
    draws a graph of the same size as a short one.
    """
    shape = graph_shape(running, players, link_length)
    if shape is None:
        return None
    span_x, count = shape["span_x"], shape["count"]
    return dict(shape, marker=round(shape["left"] + min(turn, count) * span_x, 1))


def graph_shape(running: list[list[int]], players: list[str], link_length: int = 0
                ) -> dict[str, Any] | None:
    """The score graph without its marker (:func:`score_graph`): the same for every turn of a
    game, so a replay page computes it once per game and length of links."""
    if len(running) < 2 or not players:
        return None
    width, height, left, right, top, bottom = 640, 180, 36, 10, 10, 22
    count = len(running) - 1
    stride = max(1, -(-(count + 1) // GRAPH_POINTS))
    shown = sorted(set(range(0, count + 1, stride)) | {count})
    values = [v for i in shown for v in running[i]]
    low, high = min(0, *values), max(1, *values)
    span_x = (width - left - right) / count
    span_y = (height - top - bottom) / (high - low)

    def x(i: int) -> float:
        return round(left + i * span_x, 1)

    def y(v: float) -> float:
        return round(top + (high - v) * span_y, 1)

    lines = []
    for seat in range(len(players)):
        points = " ".join(f"{x(i)},{y(running[i][seat] if seat < len(running[i]) else 0)}" for i in shown)
        lines.append({"seat": seat, "name": players[seat], "points": points,
                      "final": running[-1][seat] if seat < len(running[-1]) else 0})
    ticks = sorted({low, 0, high})
    targets = max(LEAST_PER_PAGE, min(GRAPH_POINTS, GRAPH_BYTES // (link_length + 160)))
    every = max(1, -(-(count + 1) // targets))
    return {
        "width": width, "height": height, "left": left, "step": round(span_x, 6),
        "lines": lines, "zero": y(0), "ticks": [{"value": v, "y": y(v)} for v in ticks],
        "hits": [{"turn": i, "x": round(x(i) - span_x / 2, 1), "w": round(span_x * every, 1),
                  "last": min(i + every - 1, count)}
                 for i in range(0, count + 1, every)],
        "bottom": height - bottom, "top": top, "right": width - right,
        "span_x": span_x, "count": count,
    }


def moves_page_size(link_length: int) -> int:
    """Turns in one page of the move list whose links are ``link_length`` characters long."""
    size = min(MOVES_PAGE, MOVES_PAGE_BYTES // (link_length + 160))
    return max(LEAST_PER_PAGE, size - size % 2)


def moves_window(turn: int, applied: int, total: int, size: int = MOVES_PAGE) -> tuple[int, int]:
    """The turns (first, last; 1-based) of the move list's page that shows ``turn``."""
    page = max(min(turn, max(applied, 1)) - 1, 0) // size
    first = page * size + 1
    return first, min(first + size - 1, total)


def annotate_source(text: str, diagnostics: Sequence[dict[str, Any]],
                    first_line: int = 1) -> dict[str, Any]:
    """The source as numbered lines with the bad spans marked and each line's diagnostics.

    Long sources show only the lines around the problems, with gaps marked, so that a
    2 MiB paste with one error stays readable.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    by_line: dict[int, list[dict[str, Any]]] = {}
    general = []
    for d in diagnostics:
        line = d.get("line")
        if isinstance(line, int) and first_line <= line < first_line + len(lines):
            by_line.setdefault(line, []).append(d)
        else:
            general.append(d)
    wanted: set[int] | None = None
    if len(lines) > SOURCE_LINES_SHOWN:
        wanted = set()
        for line in by_line:
            wanted.update(range(line - 2, line + 3))
        if not wanted:
            wanted.update(range(first_line, first_line + 20))
    rows: list[dict[str, Any]] = []
    previous = None
    for offset, content in enumerate(lines):
        number = first_line + offset
        if wanted is not None and number not in wanted:
            continue
        if previous is not None and number != previous + 1:
            rows.append({"gap": True})
        previous = number
        rows.append({"gap": False, "number": number, "html": _marked(content, by_line.get(number, [])),
                     "diagnostics": by_line.get(number, [])})
    return {"rows": rows, "general": general}


def _marked(content: str, diagnostics: list[dict[str, Any]]) -> Markup:
    spans = []
    for d in diagnostics:
        column = d.get("column")
        if isinstance(column, int) and column >= 1:
            start = min(column - 1, len(content))
            end = min(max(start + max(int(d.get("length") or 1), 1), start + 1), max(len(content), start + 1))
            spans.append((start, end, d.get("severity", "error")))
    if not spans:
        return Markup.escape(content)
    spans.sort()
    out: list[str] = []
    at = 0
    for start, end, severity in spans:
        if start < at:
            start = at
        if end <= start:
            continue
        out.append(str(Markup.escape(content[at:start])))
        piece = content[start:end] or " "
        out.append(f'<mark class="{severity}">{Markup.escape(piece)}</mark>')
        at = end
    out.append(str(Markup.escape(content[at:])))
    return Markup("".join(out))


def _source_of_game(text: str, games: Sequence[dict[str, Any]], index: int) -> tuple[str, int]:
    """The lines of one game of a file, and the number of its first line."""
    lines = text.split("\n")
    start = games[index - 1]["line"]
    end = games[index]["line"] - 1 if index < len(games) else len(lines)
    chunk = lines[start - 1:end]
    while chunk and not chunk[-1].strip():
        chunk.pop()
    return "\n".join(chunk) + "\n", start


def highlight_lcn(source: str, first_line: int, marked: tuple[int, ...]) -> Markup:
    """The source highlighted by the project's Pygments lexer, with line numbers and anchors
    (cached, bounded in bytes)."""
    key = ("source", _digest(source), first_line, marked)
    return SOURCE_CACHE.get_or_make(key, lambda: _highlight(source, first_line, marked))


def _highlight(source: str, first_line: int, marked: tuple[int, ...]) -> Markup:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    from lcn.pygments_lexer import LCNLexer

    formatter = HtmlFormatter(linenos="table", linenostart=first_line, cssclass="highlight",
                              lineanchors="L", anchorlinenos=True, wrapcode=True,
                              hl_lines=[line - first_line + 1 for line in marked])
    return Markup(highlight(source, LCNLexer(), formatter))


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


def render_replay(text: str, *, game_id: str | None, game: int = 1, turn: int | None = None,
                  embed: bool = False, view: str | None = None) -> str:
    """The replay page of game ``game`` of a file, opened at ``turn`` (0: before the first).

    ``embed`` gives the compact page made for iframes. ``view`` chooses whose hands show
    (``all``, a seat ``1``-``5``, ``none``; from ``?view=`` when not given). Raises NotFound
    for a game the file does not have, BadRequest for a file without games and
    TooLongToReplay for a game longer than ``MAX_REPLAY_TURNS``.

    The page holds the current position and the move list's page around it. Any route that
    renders through here also answers ``?part=positions&turn=N`` (the chunk of
    ``POSITIONS_CHUNK`` positions that holds turn N, as an HTML fragment, which replay.js
    fetches as the reader steps) and ``?part=moves&turn=N`` (the move list's page of turn N).
    """
    games = overview_of(text)
    if not games:
        raise BadRequest(_("the record holds no game"))
    if not 1 <= game <= len(games):
        raise NotFound(_("this file has 1 game: there is no game %(game)s", game=game)
                       if len(games) == 1 else
                       _("this file has %(count)s games: there is no game %(game)s",
                         count=len(games), game=game))
    refuse_long_game(games[game - 1]["turns"], game)
    if len(text) > HEAVY_TEXT_BYTES:
        count_heavy_read()
    data = outline_of(text, game)
    assert data is not None
    applied = data["applied"]
    current = 0 if turn is None else max(0, min(turn, applied))
    shown_view = _view_arg(view)
    multi = len(games) > 1
    link = _linker(game, shown_view, multi)
    diagnostics_by_turn: dict[int, list[dict[str, Any]]] = {}
    for d in data["diagnostics"]:
        if d.get("turn"):
            diagnostics_by_turn.setdefault(d["turn"], []).append(d)
    part = request.args.get("part") if has_request_context() else None
    known = data["known_variant"]
    if part == "positions":
        first = current // POSITIONS_CHUNK * POSITIONS_CHUNK
        chunk = positions_of(text, game, first, POSITIONS_CHUNK, applied) if known else {}
        positions = [(n, chunk[n]) for n in sorted(chunk)]
    else:
        positions = list(positions_of(text, game, current, 1, applied).items()) if known else []
    link_length = len(link(applied))
    first_turn, last_turn = moves_window(current, applied, len(data["turns"]),
                                         moves_page_size(link_length))
    # The annotation form, many times the size of a move, covers the chunk of positions.
    chunk_first = current // POSITIONS_CHUNK * POSITIONS_CHUNK
    annotate_first = max(chunk_first, 1) if current else 1
    window = data["turns"][first_turn - 1:last_turn]
    board = f"board/{data['variant']}.html" if known else "board/generic.html"
    shown_turns = [n for n, _ in positions if n > 0] + [first_turn, min(last_turn, applied)]
    told = told_of(text, game, max(1, min(shown_turns)), max(shown_turns)) if known else {}
    context: dict[str, Any] = {
        "replay": data,
        "positions": positions,
        "position": positions[0][1] if positions else None,
        "chunk": POSITIONS_CHUNK,
        # The list of a file's games shows those around this one: a self-contained link can
        # carry thousands of one-line games, and each entry is a link that carries them all.
        "games": list(games[max(0, game - 1 - GAMES_AROUND):game + GAMES_AROUND]) if multi else [],
        "games_total": len(games),
        "game_index": game,
        "game_id": game_id,
        "turn": current,
        "view": shown_view,
        "embed": embed,
        "lcn_text": text,
        "tags": dict((k, v) for k, v in data["tags"]),
        "link": link,
        "rows": move_rows(window),
        "moves_first": first_turn,
        "moves_last": last_turn,
        "annotate_first": annotate_first,
        "annotate_last": min(chunk_first + POSITIONS_CHUNK, len(data["turns"])),
        "diagnostics_by_turn": diagnostics_by_turn,
        "board_templates": [board, "board/generic.html"],
        "has_hands": bool(positions) and "hands" in positions[0][1],
        "told": told,
    }
    context["current"] = lambda index: " current" if index == current else ""
    if part != "positions":
        moves = moves_list(context, text, game, link())
        if moves is not None:
            context["moves_html"] = moves.at(current)
    if part == "positions":
        return render_template("_positions.html", **context)
    if part == "moves":
        return render_template("_moves.html", **context)
    source, first_line = _source_of_game(text, games, game)
    marked = tuple(sorted({d["line"] for d in data["diagnostics"] if isinstance(d.get("line"), int)}))
    whole = len(source) <= SOURCE_SHOWN_BYTES
    context.update({
        "graph": _graph(text, game, data, current, link_length),
        "source_html": highlight_lcn(source, first_line, marked) if not embed and whole else None,
        "source_too_long": not whole,
        "download_name": _cached("download-name", text, lambda: download_name(text, "lcn", "game")),
        "source_annotated": (annotate_source(source, data["diagnostics"], first_line)
                             if not data["valid"] and not embed else None),
    })
    if embed:  # embed_replay.html (the sharing module's) extends replay.html
        return render_template(["embed_replay.html", "replay.html"], **context)
    return render_template("replay.html", **context)


def _graph(text: str, game: int, data: dict[str, Any], turn: int, link_length: int
           ) -> dict[str, Any] | None:
    """:func:`score_graph` of a replay page, its shape computed once per game."""
    shape = _cached("graph", text, lambda: graph_shape(data["running"], data["players"], link_length),
                    game, link_length)
    if shape is None:
        return None
    return dict(shape, marker=round(shape["left"] + min(turn, shape["count"]) * shape["span_x"], 1))


#: The fragments a replay page serves (``?part=``); any other value gives the whole page.
PAGE_PARTS = ("positions", "moves")
#: Routes whose pages read only their own arguments (``game``, ``turn``, ``view``, ``part``,
#: ``saved``): any other is ignored, kept neither in the page's links nor in its cache key.
OWN_ARGUMENTS = ("pages.stored", "pages.sample")


def _page_key(head: tuple[Any, ...], game: int | None, turn: int | None, view: str,
              text: Callable[[], str]) -> tuple[Any, ...]:
    """The page cache's key of a replay page: what the page reads, normalised.

    Keyed on the raw query string, ``?turn=20&r=1`` missed the entry of ``?turn=20`` and
    anyone could flush the cache with made-up arguments. The key holds the arguments as the
    page uses them, not as they were spelled: other arguments are ignored (``OWN_ARGUMENTS``:
    the page's links do not keep them either, so the page is the same), and ``?turn=07``,
    ``?turn=7&turn=9``, ``?view=junk`` and ``?part=junk`` render as ``?turn=7``, the default
    view and the whole page, and share their entries. A turn past either end of the game
    opens the replay at that end, so once such a turn misses it is keyed as the end (the
    game's length is read from the cached overview): no made-up argument can grow the cache
    past the pages the game really has.
    """
    part = request.args.get("part")
    rest = (view, part if part in PAGE_PARTS else None, bool(request.args.get("saved")))
    key = (*head, game, turn, *rest)
    if turn is None or _page_cache().get(key) is not None:
        return key
    games = overview_of(text())
    chosen = game or 1
    if not 1 <= chosen <= len(games):
        return key  # a 404, never kept
    return (*head, game, max(0, min(turn, games[chosen - 1]["turns"])), *rest)


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


# -- routes -----------------------------------------------------------------------------------

def _home(status: int = 200, **context: Any) -> ResponseReturnValue:
    samples = app_samples(current_app)
    return render_template("home.html", sample_groups=samples_by_variant(samples),
                           formats=formats(), **context), status


@bp.get("/")
def home() -> ResponseReturnValue:
    """Home page: paste, upload or import a game, or open a sample."""
    return _home()


@bp.post("/")
@write_limit
def submit() -> ResponseReturnValue:
    """Store a pasted or uploaded game (any importable format) and open its replay."""
    upload = request.files.get("file")
    data: str | bytes = request.form.get("text", "")
    name = None
    if upload is not None and upload.filename:
        data = upload.read()
        name = upload.filename
    fmt = request.form.get("format", "auto") or "auto"
    known = [n for n, _ in formats()]
    if fmt != "auto" and fmt not in known:
        return _home(400, error=_("unknown format %(format)s: choose one of %(formats)s",
                                  format=repr(fmt), formats=", ".join(known)),
                     pasted=data if isinstance(data, str) else "", chosen_format="auto")
    pasted = data if isinstance(data, str) else ""
    if not data.strip():
        return _home(400, error=_("Paste a game, choose a file or open a sample: the input was "
                                  "empty."),
                     pasted=pasted, chosen_format=fmt)
    try:
        text = decode(data)
    except ImportError_ as exc:
        return _home(400, error=Message("{name}: {message}", {
                         "name": name or _("the input"), "message": exc.message}), pasted=pasted,
                     chosen_format=fmt, problems=_problems([d.to_json() for d in exc.diagnostics], ""))
    max_games = current_app.config["MAX_GAMES"]
    try:  # one detection and one read: the games are counted before any is validated
        result = import_text(text, None if fmt == "auto" else fmt, most_games=max_games)
    except TooManyGames:
        return _home(413, error=_("The file holds too many games, more than the %(max)s one "
                                  "upload may hold: split it, or check it with `lcn validate`.",
                                  max=max_games),
                     pasted=pasted, chosen_format=fmt)
    except ImportError_ as exc:
        diagnostics = [d.to_json() for d in exc.diagnostics]
        return _home(400, error=exc.message, pasted=text if name is None else pasted,
                     chosen_format=fmt, problems=_problems(diagnostics, text), source_name=name)
    if not result.valid:
        diagnostics = [dict(d.to_json(), game=d.extra.get("game")) for d in result.diagnostics]
        games = [dict(report.to_json(), event=report.record.tags.get("Event"))
                 for report in result.reports]
        errors = sum(1 for d in diagnostics if d["severity"] == "error")
        cap = current_app.config["MAX_DIAGNOSTICS"]
        shown = ""
        if len(diagnostics) > cap:  # the page stays bounded, whatever the file holds
            shown = " " + _("The first %(count)s are shown.", count=cap)
            diagnostics = diagnostics[:cap]  # (each game's list is only counted, not shown)
        found = _("1 problem found (read as %(format)s): nothing was stored.",
                  format=result.format) if errors == 1 else \
            _("%(count)s problems found (read as %(format)s): nothing was stored.", count=errors,
              format=result.format)
        return _home(400, error=found + shown,
                     pasted=text if name is None else pasted, chosen_format=fmt,
                     problems=_problems(diagnostics, text), games_found=games, source_name=name)
    canonical = canonical_text(result.records)
    game_id, _created = get_store().put(canonical)
    return redirect(url_for("pages.stored", game_id=game_id), 303)


def _problems(diagnostics: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return annotate_source(text, diagnostics) if text else {"rows": [], "general": diagnostics}


def _replay_args() -> tuple[int | None, int | None, str]:
    game, turn = _number_args()
    return game, turn, _view_arg(None)


@bp.get("/g/<gid:game_id>")
def stored(game_id: str) -> ResponseReturnValue:
    """The replay of a stored game (``?game=K`` for the K-th game of a file, ``?turn=N``)."""
    game, turn, view = _replay_args()

    def render() -> str:
        text = stored_text(game_id)
        games = overview_of(text)
        if game is None and len(games) > 1:
            return render_template("games.html", game_id=game_id, games=list(games),
                                   link=_linker(1, view, True), lcn_text=text)
        return render_replay(text, game_id=game_id, game=game or 1, turn=turn, view=view)

    key = _page_key(("g", game_id), game, turn, view, lambda: stored_text(game_id))
    return _cached_response(key, render, immutable=True)


@bp.get("/g/<gid:game_id>.lcn")
def download_lcn(game_id: str) -> ResponseReturnValue:
    """The stored file as LCN text."""
    text = stored_text(game_id)
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = \
        f'attachment; filename="{download_name(text, "lcn", game_id)}"'
    response.cache_control.public = True
    response.cache_control.max_age = 7 * 24 * 3600
    response.cache_control.immutable = True
    return response


@bp.get("/g/<gid:game_id>.json")
def download_json(game_id: str) -> ResponseReturnValue:
    """The stored file's games as JSON: tags, turns, every position and the scores."""
    from .api import game_document

    response = current_app.json.response(game_document(game_id, stored_text(game_id)))
    response.headers["Content-Disposition"] = \
        f'attachment; filename="{download_name(stored_text(game_id), "json", game_id)}"'
    response.cache_control.public = True
    response.cache_control.max_age = 7 * 24 * 3600
    response.cache_control.immutable = True
    return response


@bp.get("/samples/<path:name>")
def sample(name: str) -> ResponseReturnValue:
    """A sample game's replay; the sample is stored too, so its links can be shared."""
    found = {s.name: s for s in app_samples(current_app)}
    chosen = found.get(name)
    if chosen is None:
        abort(404, description=_("there is no sample called %(name)s", name=repr(name)))
    stored: dict[str, tuple[str, str | None]] = current_app.extensions.setdefault("lcn_sample_ids", {})
    entry = stored.get(name)
    if entry is None or entry[1] is None:
        canonical = canonical_text(list(Reader(chosen.text())))
        try:
            game_id: str | None = get_store().put(canonical)[0]
        except StoreUnavailable:  # the replay still works; only its share links need the store
            game_id = None
        entry = stored[name] = (canonical, game_id)
    canonical, game_id = entry
    game, turn, view = _replay_args()

    def render() -> str:
        return render_replay(canonical, game_id=game_id, game=game or 1, turn=turn, view=view)

    key = _page_key(("s", name, game_id), game, turn, view, lambda: canonical)
    return _cached_response(key, render, immutable=False)


__all__ = ["bp", "card_parts", "games_past", "render_replay", "replays_of", "stored_text"]
