"""The pages people see: the home page (paste, upload, import, samples) and the replays.

Every turn of a replay is a plain link rendered by the server, so the site works without
JavaScript; the page also carries every position's board, so the small script only shows
and hides them (no second renderer in the browser). Stored games never change (their id is
the hash of their text), so rendered pages are cached in the process and sent with an ETag
and an immutable Cache-Control.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
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
from werkzeug.exceptions import BadRequest, NotFound

from lcn import Reader, write_games
from lcn.importers import ImportError_, decode, formats, import_text
from lcn.replay import replay_game, replay_text, summarize_text

from .samples import app_samples, samples_by_variant
from .security import write_limit
from .storage import StoreUnavailable, get_store

bp = Blueprint("pages", __name__)

VIEWS = ("all", "1", "2", "3", "4", "5", "none")
COLOUR_NAMES = {"Y": "yellow", "B": "blue", "W": "white", "G": "green", "R": "red",
                "P": "purple", "O": "orange"}
#: Largest source shown whole next to its diagnostics; longer ones show the lines around them.
SOURCE_LINES_SHOWN = 400
#: Bytes of rendered pages kept per process (the pages of stored games never change).
PAGE_CACHE_BYTES = 64 * 1024 * 1024


class PageCache:
    """A least-recently-used map of rendered pages, bounded by their total size."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._items: OrderedDict[Any, tuple[bytes, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> tuple[bytes, str] | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Any, html: str) -> tuple[bytes, str]:
        """Keep a page, encoded once (a cached page is sent as bytes, as a static file is)."""
        body = html.encode("utf-8")
        etag = hashlib.sha256(body).hexdigest()[:32]
        item = (body, etag)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= len(old[0])
            self._items[key] = item
            self.size += len(body)
            while self.size > self.budget and len(self._items) > 1:
                _, (dropped, _) = self._items.popitem(last=False)
                self.size -= len(dropped)
        return item


def _page_cache() -> PageCache:
    cache = current_app.extensions.get("lcn_page_cache")
    if cache is None:
        cache = current_app.extensions["lcn_page_cache"] = PageCache(
            int(current_app.config.get("PAGE_CACHE_BYTES", PAGE_CACHE_BYTES)))
    return cache


@lru_cache(maxsize=8)
def replays_of(text: str) -> tuple[dict[str, Any], ...]:
    """The replays of every game of a file (cached: the same text always replays the same)."""
    return tuple(replay_text(text))


@lru_cache(maxsize=64)
def overview_of(text: str) -> tuple[dict[str, Any], ...]:
    """The games of a file, checked but not replayed (what lists of games show)."""
    return tuple(summarize_text(text))


@lru_cache(maxsize=64)
def game_replay_of(text: str, game: int) -> dict[str, Any] | None:
    """One game of a file, replayed: a page never pays for the positions of other games."""
    return replay_game(text, game)


def canonical_text(records: Sequence[Any]) -> str:
    return write_games(records) or ""


# -- small helpers for templates ------------------------------------------------------------

@bp.app_template_global("card_parts")
def card_parts(card: str) -> tuple[str, str, str]:
    """A card's colour letter, its face ("5", or "w" for a wager) and a description."""
    colour, value = card[:1], card[1:]
    name = COLOUR_NAMES.get(colour.upper(), colour)
    described = f"{name} wager" if value == "w" else f"{name} {value}"
    return colour.upper(), value, described


@bp.app_template_filter("colour_name")
def colour_name(letter: str) -> str:
    return COLOUR_NAMES.get(letter.upper(), letter)


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    return {"colour_names": COLOUR_NAMES,
            "asset_version": current_app.config.get("ASSET_VERSION", "")}


def _int_arg(name: str, default: int | None) -> int | None:
    value = request.args.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise BadRequest(f"?{name}={value[:40]}: expected a whole number") from None


def _view_arg(view: str | None) -> str:
    if view is None and has_request_context():
        view = request.args.get("view")
    return view if view in VIEWS else "all"


def _linker(game: int, view: str, multi: bool) -> Callable[..., str]:
    """Builds ``?...`` links that keep the request's other arguments (``/v?g=...``)."""
    kept: list[tuple[str, str]] = []
    if has_request_context():
        kept = [(k, v) for k, v in request.args.items(multi=True)
                if k not in ("turn", "game", "view", "part")]

    def link(turn: int | None = None, *, to_game: int | None = None, to_view: str | None = None,
             part: str | None = None) -> str:
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


def move_rows(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Turns grouped into the move list's rows: a row starts at every numbered turn.

    Alternating games (classic) get ``1. R5/d R4/d`` rows; games that number every turn
    (Rivals) one turn a row. Nothing here knows which variant it shows.
    """
    rows: list[dict[str, Any]] = []
    for turn in turns:
        if turn["numbered"] or not rows:
            rows.append({"number": turn["number"], "turns": []})
        rows[-1]["turns"].append(turn)
    return rows


def score_graph(running: list[list[int]], players: list[str], turn: int) -> dict[str, Any] | None:
    """Coordinates of the score graph (an SVG drawn by the server, clickable per turn)."""
    if len(running) < 2 or not players:
        return None
    width, height, left, right, top, bottom = 640, 180, 36, 10, 10, 22
    count = len(running) - 1
    values = [v for totals in running for v in totals]
    low, high = min(0, *values), max(1, *values)
    span_x = (width - left - right) / count
    span_y = (height - top - bottom) / (high - low)

    def x(i: int) -> float:
        return round(left + i * span_x, 1)

    def y(v: float) -> float:
        return round(top + (high - v) * span_y, 1)

    lines = []
    for seat in range(len(players)):
        points = " ".join(f"{x(i)},{y(t[seat] if seat < len(t) else 0)}" for i, t in enumerate(running))
        lines.append({"seat": seat, "name": players[seat], "points": points,
                      "final": running[-1][seat] if seat < len(running[-1]) else 0})
    ticks = sorted({low, 0, high})
    return {
        "width": width, "height": height, "left": left, "step": round(span_x, 3),
        "lines": lines, "zero": y(0), "ticks": [{"value": v, "y": y(v)} for v in ticks],
        "hits": [{"turn": i, "x": round(x(i) - span_x / 2, 1), "w": round(span_x, 1)}
                 for i in range(count + 1)],
        "marker": x(min(turn, count)), "bottom": height - bottom, "top": top,
        "right": width - right,
    }


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


@lru_cache(maxsize=64)
def highlight_lcn(source: str, first_line: int, marked: tuple[int, ...]) -> Markup:
    """The source highlighted by the project's Pygments lexer, with line numbers and anchors."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    from lcn.pygments_lexer import LCNLexer

    formatter = HtmlFormatter(linenos="table", linenostart=first_line, cssclass="highlight",
                              lineanchors="L", anchorlinenos=True, wrapcode=True,
                              hl_lines=[line - first_line + 1 for line in marked])
    return Markup(highlight(source, LCNLexer(), formatter))


def render_replay(text: str, *, game_id: str | None, game: int = 1, turn: int | None = None,
                  embed: bool = False, view: str | None = None) -> str:
    """The replay page of game ``game`` of a file, opened at ``turn`` (0: before the first).

    ``embed`` gives the compact page made for iframes. ``view`` chooses whose hands show
    (``all``, a seat ``1``-``5``, ``none``; from ``?view=`` when not given). Raises NotFound
    for a game the file does not have and BadRequest for a file without games.

    The page holds the current position only; with ``?part=positions`` the answer is every
    position as an HTML fragment instead, which replay.js fetches once for instant stepping
    (so any route that renders through here serves the fragment too).
    """
    games = overview_of(text)
    if not games:
        raise BadRequest("the record holds no game")
    if not 1 <= game <= len(games):
        raise NotFound(f"this file has {len(games)} game{'s' if len(games) != 1 else ''}: "
                       f"there is no game {game}")
    data = game_replay_of(text, game)
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
    source, first_line = _source_of_game(text, games, game)
    marked = tuple(sorted({d["line"] for d in data["diagnostics"] if isinstance(d.get("line"), int)}))
    board = f"board/{data['variant']}.html" if data["known_variant"] else "board/generic.html"
    tags = dict((k, v) for k, v in data["tags"])
    context = {
        "replay": data,
        "games": list(games) if multi else [],
        "game_index": game,
        "game_id": game_id,
        "turn": current,
        "view": shown_view,
        "embed": embed,
        "lcn_text": text,
        "tags": tags,
        "link": link,
        "rows": move_rows(data["turns"]),
        "graph": score_graph(data["running"], data["players"], current),
        "diagnostics_by_turn": diagnostics_by_turn,
        "board_templates": [board, "board/generic.html"],
        "has_hands": bool(data["positions"]) and "hands" in data["positions"][0],
        "source_html": highlight_lcn(source, first_line, marked) if not embed else None,
        "source_annotated": (annotate_source(source, data["diagnostics"], first_line)
                             if not data["valid"] and not embed else None),
    }
    if has_request_context() and request.args.get("part") == "positions":
        return render_template("_positions.html", **context)
    if embed:  # embed_replay.html (the sharing module's) extends replay.html
        return render_template(["embed_replay.html", "replay.html"], **context)
    return render_template("replay.html", **context)


def _cached_response(key: Any, render: Callable[[], str], *, immutable: bool) -> Response:
    cache = _page_cache()
    item = cache.get(key)
    if item is None:
        item = cache.put(key, render())
    body, etag = item
    response = Response(body, mimetype="text/html")
    response.set_etag(etag)
    if immutable:
        response.cache_control.public = True
        response.cache_control.max_age = 7 * 24 * 3600
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    return response.make_conditional(request)


def stored_text(game_id: str) -> str:
    """The text of a stored game (kept in the process: stored games never change)."""
    texts: OrderedDict[str, str] = current_app.extensions.setdefault("lcn_texts", OrderedDict())
    text = texts.get(game_id)
    if text is None:
        text = get_store().get(game_id)
        if text is None:
            raise NotFound(f"there is no game {game_id} here: check the link")
        texts[game_id] = text
        while len(texts) > 1024:
            texts.popitem(last=False)
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
        return _home(400, error=f"unknown format {fmt!r}: choose one of {', '.join(known)}",
                     pasted=data if isinstance(data, str) else "", chosen_format="auto")
    pasted = data if isinstance(data, str) else ""
    if not data.strip():
        return _home(400, error="Paste a game, choose a file or open a sample: the input was empty.",
                     pasted=pasted, chosen_format=fmt)
    try:
        text = decode(data)
    except ImportError_ as exc:
        return _home(400, error=f"{name or 'the input'}: {exc.message}", pasted=pasted,
                     chosen_format=fmt, problems=_problems([d.to_json() for d in exc.diagnostics], ""))
    try:
        result = import_text(text, None if fmt == "auto" else fmt)
    except ImportError_ as exc:
        diagnostics = [d.to_json() for d in exc.diagnostics]
        return _home(400, error=exc.message, pasted=text if name is None else pasted,
                     chosen_format=fmt, problems=_problems(diagnostics, text), source_name=name)
    max_games = current_app.config["MAX_GAMES"]
    if len(result.records) > max_games:
        return _home(413, error=f"The file holds {len(result.records)} games, more than the "
                     f"{max_games} one upload may hold: split it, or check it with `lcn validate`.",
                     pasted=pasted, chosen_format=fmt)
    if not result.valid:
        diagnostics = [dict(d.to_json(), game=d.extra.get("game")) for d in result.diagnostics]
        games = [dict(report.to_json(), event=report.record.tags.get("Event"))
                 for report in result.reports]
        errors = sum(1 for d in diagnostics if d["severity"] == "error")
        cap = current_app.config["MAX_DIAGNOSTICS"]
        shown = ""
        if len(diagnostics) > cap:  # the page stays bounded, whatever the file holds
            shown = f" The first {cap} are shown."
            diagnostics = diagnostics[:cap]  # (each game's list is only counted, not shown)
        return _home(400, error=f"{errors} problem{'s' if errors != 1 else ''} found "
                     f"(read as {result.format}): nothing was stored.{shown}",
                     pasted=text if name is None else pasted, chosen_format=fmt,
                     problems=_problems(diagnostics, text), games_found=games, source_name=name)
    canonical = canonical_text(result.records)
    game_id, _created = get_store().put(canonical)
    return redirect(url_for("pages.stored", game_id=game_id), 303)


def _problems(diagnostics: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return annotate_source(text, diagnostics) if text else {"rows": [], "general": diagnostics}


def _replay_args() -> tuple[int | None, int | None, str]:
    return _int_arg("game", None), _int_arg("turn", None), _view_arg(None)


@bp.get("/g/<gid:game_id>")
def stored(game_id: str) -> ResponseReturnValue:
    """The replay of a stored game (``?game=K`` for the K-th game of a file, ``?turn=N``)."""
    game, turn, view = _replay_args()
    key = ("g", game_id, request.host, request.query_string)

    def render() -> str:
        text = stored_text(game_id)
        games = overview_of(text)
        if game is None and len(games) > 1:
            return render_template("games.html", game_id=game_id, games=list(games),
                                   link=_linker(1, view, True), lcn_text=text)
        return render_replay(text, game_id=game_id, game=game or 1, turn=turn, view=view)

    return _cached_response(key, render, immutable=True)


@bp.get("/g/<gid:game_id>.lcn")
def download_lcn(game_id: str) -> ResponseReturnValue:
    """The stored file as LCN text."""
    text = stored_text(game_id)
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.lcn"'
    response.cache_control.public = True
    response.cache_control.max_age = 7 * 24 * 3600
    response.cache_control.immutable = True
    return response


@bp.get("/g/<gid:game_id>.json")
def download_json(game_id: str) -> ResponseReturnValue:
    """The stored file's games as JSON: tags, turns, every position and the scores."""
    from .api import game_document

    response = current_app.json.response(game_document(game_id, stored_text(game_id)))
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.json"'
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
        abort(404, description=f"there is no sample called {name!r}")
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
    key = ("s", name, game_id, request.host, request.query_string)

    def render() -> str:
        return render_replay(canonical, game_id=game_id, game=game or 1, turn=turn, view=view)

    return _cached_response(key, render, immutable=False)


__all__ = ["bp", "card_parts", "render_replay", "replays_of", "stored_text"]
