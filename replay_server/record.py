"""The recorder: a page for a phone held at the table, where each turn is tapped, not typed.

The page (``/record``) is a shell: its script keeps the record in the browser
(``localStorage``), asks ``POST /api/v1/moves`` for the legal continuations after every tap,
and shows the board of the record so far through ``POST /record/position``, which renders
the replay page's own position fragment (``_position.html`` and the variant's board), so the
recorder has no second renderer. A service worker (``/record/sw.js``) keeps the page and its
assets for use without a connection; moves and boards need the server, and the record is never
lost while it is away (see ``docs/recording.md``).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from lcn.games.colours import COLOUR_WORDS, colour_name
from lcn.variants import find_variant

from .errors import json_error
from .i18n import say
from .security import count_heavy_read
from .services.games import (
    HEAVY_TEXT_BYTES,
    TooLongToReplay,
    outline_of,
    overview_of,
    positions_of,
    refuse_long_game,
    told_of,
)

bp = Blueprint("record", __name__)

#: The games the recorder has a part of its page for.
RECORDED = ("classic", "rivals", "rollwrite")


def variant_players() -> dict[str, tuple[int, int]]:
    """The fewest and most players of each game the recorder offers, as the game says."""
    found = {name: find_variant(name) for name in RECORDED}
    return {name: (variant.min_players, variant.max_players)
            for name, variant in found.items() if variant is not None}


class _Bad(ValueError):
    """A request the position route cannot answer: a 400 with this message."""


def _bad(message: str, status: int = 400, code: str = "bad-input") -> Response:
    return json_error(status, message, code=code, with_status=False)


def _body() -> tuple[str, int]:
    """The ``lcn`` text and the ``game`` number (1-based) of a JSON request."""
    try:
        body = json.loads(request.get_data(cache=False).decode("utf-8", "strict"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _Bad('expected a JSON object {"lcn": "<the LCN text>", "game": <1 or more>}') from None
    if not isinstance(body, dict) or not isinstance(body.get("lcn"), str):
        raise _Bad('expected a JSON object {"lcn": "<the LCN text>", "game": <1 or more>}')
    game = body.get("game", 1)
    if not isinstance(game, int) or isinstance(game, bool) or game < 1:
        raise _Bad('"game" is the number of a game of the text: 1 or more')
    return body["lcn"], game


@bp.get("/record")
def record_page() -> ResponseReturnValue:
    """The recorder: choose the game and the players, then tap each turn."""
    # The colours' names as the games say them, in the page's language.
    words = {letter: say(colour_name(letter)) for letter in COLOUR_WORDS}
    response = Response(render_template("record.html", variant_players=variant_players(),
                                        colour_words=words))
    response.cache_control.no_cache = True
    response.vary.update(("Accept-Language", "Cookie"))
    return response


@bp.post("/record/position")
def position_route() -> ResponseReturnValue:
    """The board, the totals and the match totals after the last turn of one game of a text.

    Answers ``{"html": ..., "turn": N, "totals": [...], "over": bool, "valid": bool,
    "match": {...} | null, "diagnostics": [...]}``, the HTML being the replay page's position
    fragment for turn N.
    """
    try:
        text, game = _body()
    except _Bad as exc:
        return _bad(str(exc))
    if len(text) > HEAVY_TEXT_BYTES:
        count_heavy_read()
    games = overview_of(text)
    if game > len(games):
        return _bad(f"the text has no game {game}")
    try:
        refuse_long_game(games[game - 1]["turns"], game)  # the replay page's cap, and its 422
    except TooLongToReplay as exc:
        return _bad(str(exc.description), 422, "too-long")
    data = outline_of(text, game)
    if data is None:
        return _bad(f"the text has no game {game}")
    applied = data["applied"]
    html = ""
    if data["known_variant"]:
        position = positions_of(text, game, applied, 1, applied).get(applied)
        if position is not None:
            diagnostics_by_turn: dict[int, list[dict[str, Any]]] = {}
            for d in data["diagnostics"]:
                if d.get("turn"):
                    diagnostics_by_turn.setdefault(d["turn"], []).append(
                        dict(d, message=say(d["message"])))
            # The last turn told in words and marked on the board, as the replay page does.
            told = told_of(text, game, applied, applied) if applied else {}
            html = render_template(
                "_position.html", replay=data, pos=position, n=applied, turn=applied,
                diagnostics_by_turn=diagnostics_by_turn, told=told,
                board_templates=[f"board/{data['variant']}.html", "board/generic.html"])
    running = data["running"]
    return jsonify({
        "html": html, "turn": applied, "totals": list(running[applied]) if running else [],
        "over": bool(data.get("over")), "valid": bool(data["valid"]),
        "players": data["players"], "match": data.get("match"),
        "diagnostics": [dict(d, message=say(d["message"])) for d in data["diagnostics"]
                        if d.get("severity") == "error"][:current_app.config.get(
                            "MAX_DIAGNOSTICS", 50)],
    })


@bp.get("/record/sw.js")
def service_worker() -> ResponseReturnValue:
    """The recorder's service worker, allowed to control ``/record`` (its own folder is
    ``/record/``, which would not cover the page itself)."""
    response = current_app.send_static_file("sw.js")
    response.headers["Service-Worker-Allowed"] = "/record"
    response.cache_control.no_cache = True
    response.cache_control.max_age = 0
    return response


__all__ = ["RECORDED", "bp", "variant_players"]
