"""Pictures of a game: the PNG that link previews show, and the whole game as a GIF.

A shared replay link shows, in chat and social apps, a picture of the position at the turn
it opens at (Open Graph and Twitter card tags point here): who plays, the scores, what each
player has laid down. ``/g/<id>.png?turn=N`` and ``/v.png?g=...&turn=N`` draw it on the
server; ``.gif`` strings the positions of a game into an animation, as lichess's game GIFs
do (every one, or ``MAX_GIF_FRAMES`` spread over a longer game).

Pillow draws them: an image library is the only way to answer with an image a crawler can
use (crawlers run no script and read no SVG). The picture is made from the positions the
variants give the pages (``Variant.snapshot``): expeditions of cards (classic, Rivals) or of
numbers written on a sheet (Roll & Write) when the position has them, else the players and
their scores only, so a variant the site does not know still gets a picture.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response, abort, current_app, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, gettext
from PIL import Image, ImageDraw, ImageFont

from lcn.messages import DEFAULT_LANGUAGE, normalise_language

from .caches import ByteCache
from .config import DEFAULT_MAX_REPLAY_TURNS
from .forms import QueryError, load_query
from .i18n import current_language
from .security import count_heavy_read, preview_limit
from .services.games import HEAVY_TEXT_BYTES, outline_of, overview_of, positions_of, stored_text
from .services.links import MAX_TOKEN_LENGTH, LinkError, decode_link, encode_link, site_url

bp = Blueprint("preview", __name__)

#: Open Graph's recommended size (1.91:1), which Twitter's large card uses too.
WIDTH, HEIGHT = 1200, 630
#: The longest game whose GIF is made (positions beyond make a file too large to share).
MAX_GIF_POSITIONS = 400
#: The most characters of one text (a name, the title) a picture measures and draws: a
#: 1200-pixel line holds about a hundred at the smallest size used.
MAX_DRAWN_CHARACTERS = 300
#: The most frames of a GIF: a longer game is shown at turns spread evenly over it, its first
#: and last position always among them. Each frame is kept, paletted at half size (600 × 315,
#: 190 KB), until the file is written.
MAX_GIF_FRAMES = 120
#: How long each position of the GIF is shown, and the last one.
FRAME_MS, LAST_FRAME_MS = 700, 3000
#: Bytes of pictures kept per process.
IMAGE_CACHE_BYTES = 32 * 1024 * 1024

BACKGROUND = (250, 247, 240)
INK = (33, 33, 33)
MUTED = (90, 90, 90)
RULE = (210, 204, 192)
#: The expeditions' colours, by the letter the notation gives them, dark enough for white text
#: (contrast of at least 4.5:1) except white and yellow, which take dark text.
COLOURS: dict[str, tuple[int, int, int]] = {
    "Y": (242, 201, 76), "B": (30, 94, 168), "W": (236, 236, 232), "G": (30, 120, 60),
    "R": (178, 34, 34), "P": (112, 48, 160), "O": (196, 90, 10),
}
LIGHT_CARDS = {"Y", "W"}


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _text_width(draw: ImageDraw.ImageDraw, text: str, size: int) -> float:
    return float(draw.textlength(text, font=_font(size)))


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis to fit in ``width`` pixels.

    A short link can carry names of thousands of characters: only the first
    ``MAX_DRAWN_CHARACTERS`` are ever measured, and the cut is found by a binary search over
    its place, a dozen measurements. Cutting one character at a time measured the whole
    text once per character, which cost a minute for two names of 4,000 characters.
    """
    shown = text[:MAX_DRAWN_CHARACTERS]
    if shown == text and _text_width(draw, text, size) <= width:
        return text
    fits, too_long = 0, len(shown) + 1  # the longest prefix known to fit, the shortest not
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if _text_width(draw, shown[:middle] + "…", size) <= width:
            fits = middle
        else:
            too_long = middle
    return shown[:fits] + "…"


def _rows(position: dict[str, Any] | None, players: int) -> list[dict[str, list[str]]] | None:
    """What each player has laid down, colour by colour, as short labels; None if unknown."""
    if not position:
        return None
    expeditions = position.get("expeditions")
    if isinstance(expeditions, list) and len(expeditions) == players:
        return [{colour: [str(card)[1:] or str(card) for card in cards]
                 for colour, cards in seat.items()} for seat in expeditions]
    sheets = position.get("sheets")
    if isinstance(sheets, list) and len(sheets) == players:
        rows = []
        for sheet in sheets:
            rows.append({colour: [str(n) for n in column.get("numbers", [])]
                         for colour, column in sheet.get("expeditions", {}).items()})
        return rows
    return None


def _totals(data: dict[str, Any], turn: int) -> Sequence[int] | None:
    running = data.get("running") or []
    if 0 <= turn < len(running):
        return list(running[turn])
    return None


def draw_position(data: dict[str, Any], position: dict[str, Any] | None, turn: int) -> Image.Image:
    """The preview of ``data`` (a replay outline) at ``turn``, ``position`` being its snapshot."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    players: list[str] = list(data.get("players") or [])
    totals = _totals(data, turn)
    tags = dict((k, v) for k, v in data.get("tags") or [])
    margin = 36
    title = "  ·  ".join(
        f"{name} {totals[i]}" if totals is not None and i < len(totals) else name
        for i, name in enumerate(players)) or "Lost Cities"
    draw.text((margin, 26), _fit(draw, title, 44, WIDTH - 2 * margin), font=_font(44), fill=INK)
    applied = int(data.get("applied") or 0)
    facts = [str(data.get("variant_title") or data.get("variant") or "Lost Cities")]
    if tags.get("Event"):
        facts.append(str(tags["Event"]))
    facts.append(gettext("turn %(turn)s of %(turns)s", turn=turn, turns=applied)
                 if turn < applied or not data.get("over")
                 else gettext("final position, %(turns)s turns", turns=applied))
    if position and position.get("last_move"):
        facts.append(gettext("last move: %(move)s", move=position["last_move"]))
    draw.text((margin, 84), _fit(draw, "  ·  ".join(facts), 26, WIDTH - 2 * margin),
              font=_font(26), fill=MUTED)
    draw.line((margin, 124, WIDTH - margin, 124), fill=RULE, width=2)

    rows = _rows(position, len(players))
    top, bottom = 140, HEIGHT - 48
    if not players:
        return image
    band = (bottom - top) / len(players)
    name_width = 230
    for seat, name in enumerate(players):
        y0 = top + seat * band
        score = f"{totals[seat]}" if totals is not None and seat < len(totals) else ""
        draw.text((margin, y0 + 6), _fit(draw, name, 30, name_width - 10), font=_font(30), fill=INK)
        draw.text((margin, y0 + 44), score, font=_font(40), fill=INK)
        if rows is None:
            continue
        columns = rows[seat]
        colours = list(position.get("colours") or columns.keys()) if position else list(columns)
        x0 = margin + name_width
        cell = (WIDTH - margin - x0) / max(len(colours), 1)
        height = min(band - 12, 120)
        for k, colour in enumerate(colours):
            x = x0 + k * cell
            fill = COLOURS.get(colour, (120, 120, 120))
            ink = INK if colour in LIGHT_CARDS else (255, 255, 255)
            labels = columns.get(colour, [])
            box = (x + 4, y0 + 4, x + cell - 4, y0 + 4 + height)
            if labels:
                draw.rounded_rectangle(box, radius=10, fill=fill, outline=INK if colour == "W" else None)
            else:
                draw.rounded_rectangle(box, radius=10, outline=RULE, width=2)
                continue
            size = 24 if height >= 70 else 18
            line_height = size + 4
            lines: list[str] = []
            current = ""
            for label in labels:
                trial = f"{current} {label}".strip()
                if current and _text_width(draw, trial, size) > cell - 24:
                    lines.append(current)
                    current = label
                else:
                    current = trial
            if current:
                lines.append(current)
            room = max(1, int((height - 12) // line_height))
            if len(lines) > room:
                lines = [*lines[:room - 1], "… " + lines[-1]]
            for j, line in enumerate(lines):
                draw.text((box[0] + 10, box[1] + 8 + j * line_height), line, font=_font(size), fill=ink)
        if seat < len(players) - 1:
            draw.line((margin, y0 + band - 2, WIDTH - margin, y0 + band - 2), fill=RULE, width=1)
    draw.text((margin, HEIGHT - 38), gettext("LCN · Lost Cities Notation"), font=_font(20), fill=MUTED)
    return image


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def gif_turns(applied: int, most: int = MAX_GIF_FRAMES) -> list[int]:
    """The turns a game's GIF shows: every one, or ``most`` spread evenly from the first
    position to the last (consecutive ones differ by the same number of turns, give or take
    one)."""
    if applied + 1 <= most:
        return list(range(applied + 1))
    return [round(i * applied / (most - 1)) for i in range(most)]


def gif_bytes(turns: Sequence[int], draw: Callable[[int], Image.Image]) -> bytes:
    """The positions at ``turns`` (drawn by ``draw``) as a looping GIF at half size, the last
    one held longer.

    Frames are drawn one at a time as the encoder asks for them, and each is made small and
    paletted at once: keeping every frame at full size took 1,600 MiB for a game of 400
    turns. Every frame is drawn from the same few colours, so the last position's palette
    (it has the most cards) serves them all: quantising each frame on its own costs more
    than drawing it.
    """
    last = draw(turns[-1]).reduce(2)
    palette = last.quantize(colors=128)

    def indexed(frame: Image.Image) -> Image.Image:
        return frame.quantize(palette=palette, dither=Image.Dither.NONE)

    def following() -> Iterator[Image.Image]:
        for turn in turns[1:-1]:
            yield indexed(draw(turn).reduce(2))
        yield indexed(last)

    first = indexed(draw(turns[0]).reduce(2)) if len(turns) > 1 else indexed(last)
    durations = [FRAME_MS] * (len(turns) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    first.save(buffer, format="GIF", save_all=True,
               append_images=following() if len(turns) > 1 else [], loop=0,
               duration=durations, optimize=False)
    return buffer.getvalue()


# -- routes -----------------------------------------------------------------------------------

def _cache() -> ByteCache[bytes]:
    cache = current_app.extensions.get("lcn_image_cache")
    if cache is None:
        cache = current_app.extensions["lcn_image_cache"] = ByteCache(IMAGE_CACHE_BYTES, len)
    return cache


def _language() -> str:
    """The picture's language: ``?lang=`` (the page that names it adds it), else English.

    Not the visitor's headers: a picture is cached as public under its address alone.
    """
    return normalise_language(request.args.get("lang"))


def _game_and_turn() -> tuple[int, int | None]:
    try:
        query = load_query(request.args)
    except QueryError as exc:
        abort(400, description=str(exc))
    return int(query.get("game") or 1), query.get("turn")


def _outline(text: str, game: int) -> dict[str, Any]:
    games = overview_of(text)
    if not 1 <= game <= len(games):
        abort(404, description=f"this file has {len(games)} game{'s' if len(games) != 1 else ''}: "
                               f"there is no game {game}")
    longest = current_app.config.get("MAX_REPLAY_TURNS") or DEFAULT_MAX_REPLAY_TURNS
    if games[game - 1]["turns"] > longest:
        abort(422, description=f"game {game} has {games[game - 1]['turns']} turns: this site "
                               f"draws games of at most {longest} turns")
    if len(text) > HEAVY_TEXT_BYTES:
        count_heavy_read()
    data = outline_of(text, game)
    assert data is not None
    return data


def _image_response(body: bytes, mimetype: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.add_etag()
    response.cache_control.public = True
    response.cache_control.max_age = 7 * 24 * 3600
    response.cache_control.immutable = True
    return response.make_conditional(request)


def _png(text: str, key: tuple[Any, ...]) -> ResponseReturnValue:
    game, turn = _game_and_turn()
    data = _outline(text, game)
    applied = int(data["applied"])
    # Without ?turn= the picture is the game's last position: what a shared game is about.
    shown = applied if turn is None else max(0, min(turn, applied))
    cache = _cache()
    language = _language()
    entry = (*key, game, shown, language)
    body = cache.get(entry)
    if body is None:
        position = None
        if data.get("known_variant"):
            position = positions_of(text, game, shown, 1, applied).get(shown)
        with force_locale(language):
            body = cache.put(entry, png_bytes(draw_position(data, position, shown)))
    return _image_response(body, "image/png")


def _gif(text: str, key: tuple[Any, ...]) -> ResponseReturnValue:
    game, _turn = _game_and_turn()
    data = _outline(text, game)
    applied = int(data["applied"])
    if applied + 1 > MAX_GIF_POSITIONS:
        abort(422, description=f"this game has {applied + 1} positions: its animation is made for "
                               f"games of at most {MAX_GIF_POSITIONS}; the pictures of single "
                               "turns (.png?turn=N) are there for every game")
    cache = _cache()
    language = _language()
    entry = (*key, game, "gif", language)
    body = cache.get(entry)
    if body is None:
        count_heavy_read()  # every position drawn: budgeted like a long file's replay
        positions: dict[int, dict[str, Any]] = {}
        if data.get("known_variant"):
            positions = positions_of(text, game, 0, applied + 1, applied)
        with force_locale(language):
            body = gif_bytes(gif_turns(applied), lambda n: draw_position(data, positions.get(n), n))
        body = cache.put(entry, body)
    return _image_response(body, "image/gif")


def preview_image(game_id: str | None, lcn_text: str, game: int = 1,
                  turn: int | None = None) -> str | None:
    """The address of the picture a replay page names in its Open Graph and Twitter tags.

    ``turn`` None is the game's last position. Absolute when ``LCN_BASE_URL`` is set (as
    crawlers want), the path otherwise (never from the request's Host; see ``site_url``).
    None for a self-contained link too long to be repeated in an image's address.
    """
    params: dict[str, int | str] = {}
    if game != 1:
        params["game"] = game
    if turn is not None:
        params["turn"] = turn
    language = current_language()
    if language != DEFAULT_LANGUAGE:
        params["lang"] = language
    if game_id is not None:
        return site_url("preview.stored_png", game_id=game_id, **params)
    token = encode_link(lcn_text)
    if len(token) > MAX_TOKEN_LENGTH:
        return None
    return site_url("preview.link_png", g=token, **params)


@bp.app_context_processor
def _template_helpers() -> dict[str, Any]:
    return {"preview_image": preview_image, "preview_size": (WIDTH, HEIGHT)}


def _link_text() -> str:
    try:
        return decode_link(request.args.get("g", ""))
    except LinkError as exc:
        abort(exc.status, description=exc.message)


def _link_key() -> tuple[str, str]:
    """A self-contained link's pictures are kept under a digest of its token: the cache
    counts the pictures' bytes, and a token can be 8,000 characters."""
    return "v", hashlib.sha256(request.args.get("g", "").encode("utf-8")).hexdigest()


@bp.get("/g/<gid:game_id>.png")
@preview_limit
def stored_png(game_id: str) -> ResponseReturnValue:
    """The position of a stored game at ``?turn=N`` (the last one without it), as a PNG."""
    return _png(stored_text(game_id), ("g", game_id))


@bp.get("/g/<gid:game_id>.gif")
@preview_limit
def stored_gif(game_id: str) -> ResponseReturnValue:
    """The positions of a stored game, as an animated GIF."""
    return _gif(stored_text(game_id), ("g", game_id))


@bp.get("/v.png")
@preview_limit
def link_png() -> ResponseReturnValue:
    """The position of a self-contained link's game at ``?turn=N``, as a PNG."""
    return _png(_link_text(), _link_key())


@bp.get("/v.gif")
@preview_limit
def link_gif() -> ResponseReturnValue:
    """The positions of a self-contained link's game, as an animated GIF."""
    return _gif(_link_text(), _link_key())


__all__ = ["bp", "draw_position", "gif_bytes", "gif_turns", "png_bytes", "preview_image"]
