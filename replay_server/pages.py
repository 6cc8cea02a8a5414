"""The pages people see: the home page (paste, upload, import, samples) and the replays.

The pages' routes and the helpers their templates call; what they show is made by the
services (:mod:`replay_server.services`): a file stored through ``services.storing``, a
stored game found and read through ``services.games``, its replay page rendered by
``services.replays``. Stored games never change (their id is the hash of their text), so
rendered pages are cached in the process and sent with an ETag and an immutable
Cache-Control; every cache is bounded in bytes (:mod:`replay_server.caches`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.exceptions import BadRequest

from lcn import Reader
from lcn.describe import card_name, colour_words
from lcn.games import colours
from lcn.importers import ImportError_, TooManyGames, decode, formats
from lcn.messages import Message

from .caches import cached_response as _cached_response
from .caches import page_cache as _page_cache
from .forms import QueryError, load_query
from .i18n import _, current_language, say
from .samples import app_samples, samples_by_variant
from .security import write_limit
from .services.documents import game_document
from .services.games import (
    DATA_CACHE,
    digest,
    download_name,
    overview_of,
    replays_of,
    stored_text,
)
from .services.replays import (
    GAMES_AROUND,
    MOVES_PAGE_BYTES,
    POSITIONS_CHUNK,
    SOURCE_CACHE,
    annotate_source,
    linker,
    moves_list,
    render_replay,
    view_arg,
)
from .services.storing import canonical_text, games_past, known_formats, store_file, store_text
from .storage import StoreUnavailable

bp = Blueprint("pages", __name__)

#: The colours' letters, as a score sheet's columns are told from its other parts.
COLOUR_NAMES = frozenset(colours.COLOUR_WORDS)


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
    key = ("annotate-turns", digest(lcn_text), game, start, stop, current_language())
    return DATA_CACHE.get_or_make(key, lambda: Markup(render_template(
        "_annotate_turns.html", turns=form.turns[start - 1:stop], glyph_choices=form.glyph_choices)))


@bp.app_template_global("graph_hits")
def graph_hits(graph: dict[str, Any], link: Callable[..., str], lcn_text: str, game: int) -> Markup:
    """The score graph's click targets (``_graph_hits.html``), as HTML.

    Two strings and a link a target: rendered once per text, game, links (``link()`` without
    a turn: the arguments every link keeps) and language, as the targets do not move with
    the turn shown (only the marker does, drawn by ``_graph.html``).
    """
    key = ("graph-hits", digest(lcn_text), game, link(), current_language())
    return DATA_CACHE.get_or_make(key, lambda: Markup(render_template(
        "_graph_hits.html", graph=graph, link=link)))


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


#: The fragments a replay page serves (``?part=``); any other value gives the whole page.
PAGE_PARTS = ("positions", "moves")


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
    known = known_formats()
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
        outcome = store_file(text, fmt, most_games=max_games)
    except TooManyGames:
        return _home(413, error=_("The file holds too many games, more than the %(max)s one "
                                  "upload may hold: split it, or check it with `lcn validate`.",
                                  max=max_games),
                     pasted=pasted, chosen_format=fmt)
    except ImportError_ as exc:
        diagnostics = [d.to_json() for d in exc.diagnostics]
        return _home(400, error=exc.message, pasted=text if name is None else pasted,
                     chosen_format=fmt, problems=_problems(diagnostics, text), source_name=name)
    result = outcome.result
    if outcome.game_id is None:
        diagnostics = outcome.problems()
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
    return redirect(url_for("pages.stored", game_id=outcome.game_id), 303)


def _problems(diagnostics: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return annotate_source(text, diagnostics) if text else {"rows": [], "general": diagnostics}


def _replay_args() -> tuple[int | None, int | None, str]:
    game, turn = _number_args()
    return game, turn, view_arg(None)


@bp.get("/g/<gid:game_id>")
def stored(game_id: str) -> ResponseReturnValue:
    """The replay of a stored game (``?game=K`` for the K-th game of a file, ``?turn=N``)."""
    game, turn, view = _replay_args()

    def render() -> str:
        text = stored_text(game_id)
        games = overview_of(text)
        if game is None and len(games) > 1:
            return render_template("games.html", game_id=game_id, games=list(games),
                                   link=linker(1, view, True), lcn_text=text)
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
            game_id: str | None = store_text(canonical)[0]
        except StoreUnavailable:  # the replay still works; only its share links need the store
            game_id = None
        entry = stored[name] = (canonical, game_id)
    canonical, game_id = entry
    game, turn, view = _replay_args()

    def render() -> str:
        return render_replay(canonical, game_id=game_id, game=game or 1, turn=turn, view=view)

    key = _page_key(("s", name, game_id), game, turn, view, lambda: canonical)
    return _cached_response(key, render, immutable=False)


#: The services' names the site's tests and tools have always read here.
__all__ = ["DATA_CACHE", "GAMES_AROUND", "MOVES_PAGE_BYTES", "POSITIONS_CHUNK", "SOURCE_CACHE", "bp", "card",
           "card_parts", "download_name", "games_past", "moves_list", "overview_of", "render_replay",
           "replays_of", "stored_text"]
