"""Sharing games: self-contained links, embeds for other sites, and annotation in the browser.

Three kinds of link reach a replay:

- the permalink ``/g/<id>`` of a stored game (its ID is the hash of its canonical text);
- the self-contained link ``/v?g=<token>``, where the token *is* the game: its canonical LCN,
  deflated in the zlib format (whose checksum catches a link damaged in copying) and written
  in URL-safe base64 without padding. Nothing is stored; the server renders the replay
  from the link alone, exactly as it renders the stored game;
- the embed ``/embed/<id>`` (or ``/embed/v?g=<token>``), a compact replay for an iframe. Embeds
  are the only pages other sites may frame.

Annotating stores a new game: the original text is read with the library, the comments,
glyphs and ``Annotator`` tag are changed on the record, and the record is written back in
canonical form, which gives it its own permalink. A stored game never changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    has_request_context,
    redirect,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup

import lcn
from lcn.messages import DEFAULT_LANGUAGE

from .errors import error_response
from .forms import (
    AnnotationError,
    LinkQuerySchema,
    QueryError,
    load_annotation_form,
    load_query,
)
from .i18n import current_language, gettext
from .schemas import AnnotationSavedSchema
from .security import allow_framing, write_limit
from .services.annotations import GLYPH_CHOICES, AnnotationForm, annotate, annotation_form
from .services.games import stored_text
from .services.links import MAX_LINK_TEXT, MAX_TOKEN_LENGTH, LinkError, decode_link, encode_link, site_url
from .services.replays import VIEWS, render_replay
from .services.storing import games_past, store_text
from .storage import is_game_id

bp = Blueprint("sharing", __name__)


# --- links shown on replay pages -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShareLinks:
    """Every link the share panel offers for one game of a file, at one turn."""

    permalink: str | None
    at_turn: str
    self_contained: str
    embed: str
    embed_code: str
    download: str | None
    token_too_long: bool
    #: The picture of the position at the turn (what link previews show), and the game's GIF.
    image: str | None = None
    animation: str | None = None


def _query(game: int, turn: int | None, view: str | None = None) -> dict[str, int | str]:
    params: dict[str, int | str] = {}
    if game and game != 1:
        params["game"] = game
    if turn is not None:
        params["turn"] = turn
    if view is not None:
        params["view"] = view
    return params


def _shown_view() -> str | None:
    """The hands view of the page being made (``?view=``), kept in the links to a turn; None
    for the default (every hand)."""
    view = request.args.get("view") if has_request_context() else None
    return view if view in VIEWS and view != "all" else None


def share_links(game_id: str | None, lcn_text: str, game: int = 1, turn: int | None = None) -> ShareLinks:
    """The links of the share panel (absolute with ``BASE_URL``; see :func:`site_url`)."""
    token = encode_link(lcn_text)
    too_long = len(token) > MAX_TOKEN_LENGTH
    at_game = _query(game, None)
    at_turn = _query(game, turn, _shown_view())
    # The pictures speak the page's language (they are cached under their address alone).
    language = current_language()
    said = {"lang": language} if language != DEFAULT_LANGUAGE else {}
    self_contained = site_url("sharing.view_link", g=token, **at_turn)
    if game_id is not None:
        permalink: str | None = site_url("pages.stored", game_id=game_id, **at_game)
        turn_link = site_url("pages.stored", game_id=game_id, **at_turn)
        embed = site_url("sharing.embed", game_id=game_id, **at_turn)
        download: str | None = url_for("pages.download_lcn", game_id=game_id)
        image: str | None = url_for("preview.stored_png", game_id=game_id, **at_turn, **said)
        animation: str | None = url_for("preview.stored_gif", game_id=game_id, **at_game, **said)
    else:
        permalink = None
        turn_link = self_contained
        embed = site_url("sharing.embed_link", g=token, **at_turn)
        download = None
        image = None if too_long else url_for("preview.link_png", g=token, **at_turn, **said)
        animation = None if too_long else url_for("preview.link_gif", g=token, **at_game, **said)
    code = Markup(
        '<iframe src="{}" width="720" height="480" title="{}" '
        'loading="lazy"></iframe>').format(embed, gettext("Lost Cities replay"))
    return ShareLinks(permalink, turn_link, self_contained, embed, str(code), download, too_long,
                      image, animation)


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    return {"share_links": share_links, "annotation_form": annotation_form, "link_token": encode_link}


#: Where games are shown: unlisted, so search engines are asked not to index them even when a
#: link to one is published somewhere.
_GAME_PATHS = ("/g/", "/v", "/embed/", "/api/v1/games/")


@bp.after_app_request
def _unlisted(response: Response) -> Response:
    if request.path.startswith(_GAME_PATHS):
        response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


# --- annotation ----------------------------------------------------------------------------


def _source_text(form: dict[str, Any]) -> tuple[str, str | None]:
    """The text being annotated, from the stored game ``source`` or the link token ``g`` of
    the loaded form."""
    source = form.get("source", "")
    token = form.get("g", "")
    if source:
        if not is_game_id(source):
            abort(400, description=gettext("source %(source)s is not a game ID",
                                           source=repr(source[:40])))
        return stored_text(source), source
    if token:
        try:
            return decode_link(token), None
        except LinkError as exc:
            abort(exc.status, description=exc.message)
    abort(400, description=gettext("the form names no game: expected a source ID or a link "
                                   "token g"))


@bp.post("/annotate")
@write_limit
def save_annotation() -> ResponseReturnValue:
    """Store the annotated version under its own permalink and open it at the same turn.
    ---
    post:
      summary: Save an annotated version of a game under its own permalink
      tags: [pages]
      requestBody:
        required: true
        description: >-
          The annotation form. Besides these fields, each turn N of the game (1 to its
          number of turns) has comment-N (its comments, with the limits of game_comment)
          and glyph-N (its suffix glyph, empty for none).
        content:
          application/x-www-form-urlencoded:
            schema: AnnotationFormSchema
      responses:
        201:
          description: stored (format=json); the new version's id and its replay page
          content:
            application/json:
              schema: AnnotationSavedSchema
        303:
          description: stored; redirects to the new version's replay page
        400:
          description: a field is unknown, too long or not as expected, or a game breaks the rules
        404:
          description: no game has the source ID
        413:
          description: the file holds more games than one request may store
        414:
          description: the link token g is longer than the site accepts
        422:
          description: the game has more turns than the site replays (MAX_REPLAY_TURNS)
        429:
          description: too many writes from this address
    """
    try:
        head = load_annotation_form(request.form)
    except AnnotationError as exc:
        return error_response(400, str(exc), code="bad-annotation")
    text, _ = _source_text(head)
    max_games = current_app.config["MAX_GAMES"]
    if games_past(text, "lcn", max_games):  # a link can carry thousands of one-line games
        return error_response(413, gettext(
            "this file holds too many games, more than the %(max)s one request may store: split it",
            max=max_games), code="too-large")
    game, turn = head["game"], head.get("turn")
    try:
        annotated = annotate(text, game, request.form)
    except AnnotationError as exc:
        return error_response(400, str(exc), code="bad-annotation")
    # The store holds only files whose every game is valid, whichever way they arrive; a
    # self-contained link can carry anything, so its games are checked here.
    broken = [report.index for report in lcn.validate(annotated) if not report.valid]
    if broken:
        return error_response(
            400,
            gettext("games %(games)s of this file break the rules, and only valid games are stored: "
                    "fix the file and open it again", games=", ".join(map(str, broken)))
            if len(broken) > 1 else
            gettext("game %(games)s of this file break the rules, and only valid games are stored: "
                    "fix the file and open it again", games=", ".join(map(str, broken))),
            code="invalid-game")
    new_id, _ = store_text(annotated)
    params = _query(game, turn)
    if head.get("format") == "json":
        saved = {"id": new_id, "url": site_url("pages.stored", game_id=new_id, **params)}
        return AnnotationSavedSchema().dump(saved), 201
    return redirect(url_for("pages.stored", game_id=new_id, **params, saved=1), code=303)


# --- self-contained links and embeds -------------------------------------------------------


def _link_text() -> str:
    try:
        return decode_link(request.args.get("g", ""))
    except LinkError as exc:
        abort(exc.status, description=exc.message)


#: How long browsers and caches may keep a link's or an embed's page: its address fixes its
#: content (the game is in the token or never changes under its ID).
PAGE_MAX_AGE = 24 * 3600


def _render(text: str, game_id: str | None, *, embed: bool) -> Response:
    try:
        query = load_query(request.args, LinkQuerySchema)
    except QueryError as exc:
        abort(400, description=str(exc))
    game = query.get("game") or 1
    turn = query.get("turn")
    response = Response(render_replay(text, game_id=game_id, game=game, turn=turn, embed=embed),
                        mimetype="text/html")
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = PAGE_MAX_AGE
    return response.make_conditional(request)


@bp.get("/v")
def view_link() -> ResponseReturnValue:
    """A replay from a self-contained link: nothing stored, the link is the game."""
    return _render(_link_text(), None, embed=False)


@bp.get("/embed/<game_id>")
@allow_framing
def embed(game_id: str) -> ResponseReturnValue:
    """The compact replay of a stored game, for an iframe on any site."""
    return _render(stored_text(game_id), game_id, embed=True)


@bp.get("/embed/v")
@allow_framing
def embed_link() -> ResponseReturnValue:
    """The compact replay of a self-contained link, for an iframe on any site."""
    return _render(_link_text(), None, embed=True)


#: The self-contained links' names (services.links) that the site's tests and tools have always
#: read here.
__all__ = ["GLYPH_CHOICES", "MAX_LINK_TEXT", "MAX_TOKEN_LENGTH", "AnnotationError", "AnnotationForm",
           "LinkError", "ShareLinks", "annotate", "annotation_form", "bp", "decode_link", "encode_link",
           "share_links", "site_url"]
