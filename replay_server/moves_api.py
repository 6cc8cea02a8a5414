"""``POST /api/v1/moves``: the legal continuations of a game, for recorders and bots.

A thin shell over :func:`lcn.legal_moves`, on the API blueprint of :mod:`replay_server.api`
(its routes, error shape, size limit and rate limit of its own (MOVES_RATELIMIT)), with the
replay page's cap on turns and a budget of the turns it reads (MOVES_TURNS_RATELIMIT).
"""

from __future__ import annotations

import json
from typing import Any

from flask import jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError
from werkzeug.exceptions import TooManyRequests

import lcn
from lcn.messages import translate
from lcn.model import GameRecord
from lcn.moves import InvalidRecord

from .api import bp
from .errors import BadInput, bad_input, json_object
from .schemas import MovesRequestSchema
from .security import moves_limit, spend_moves_turns
from .services.games import refuse_long_game


def _read_body() -> dict[str, Any]:
    body = json_object('{"lcn": "...", "game": 1}')
    if not isinstance(body.get("draws", False), bool):  # 1 == True: the schema alone lets 1 in
        raise BadInput(f'"draws" is true or false, not {json.dumps(body["draws"])[:40]}')
    try:
        loaded: dict[str, Any] = MovesRequestSchema().load(body)
    except ValidationError as exc:
        problems = "; ".join(f"{key}: {', '.join(map(str, msgs)) if isinstance(msgs, list) else msgs}"
                             for key, msgs in exc.normalized_messages().items())
        raise BadInput(f'expected {{"lcn": "<the LCN text>", "game": <1 or more>, "draws": <true or '
                       f'false>}}: {problems}') from None
    return loaded


def _game_of(text: str, game: int) -> GameRecord:
    """Game ``game`` of the text, read (the games after it are not)."""
    for index, record in enumerate(lcn.read_games(text), 1):
        if index == game:
            return record
    raise BadInput(f"the text has no game {game}")


@bp.post("/moves")
@moves_limit
def moves_route() -> ResponseReturnValue:
    """The legal continuations of a game.
    ---
    post:
      summary: The moves that may come next in a game, as LCN with labels (`lcn moves`)
      parameters:
        - in: query
          name: lang
          required: false
          schema:
            type: string
          description: the language of the labels (`de`); English without it
      requestBody:
        required: true
        content:
          application/json:
            schema: MovesRequestSchema
      responses:
        200:
          description: >-
            the player to move, the turn, whether the game is over, the moves (the fixed
            shape); when the body asks `"draws": true`, one more field, `draws`: a list of
            LegalMove, the names the turn before this position may give the card it drew
            from the draw pile unnamed (`=R7`, added to that turn: `R5/d=R7`), each one some
            deal allows, empty when that turn drew no card unseen
          content:
            application/json:
              schema: MovesSchema
        400:
          description: bad JSON or fields, no such game, or a record that breaks a rule (its diagnostics)
          content:
            application/json:
              schema: ErrorSchema
        413:
          description: larger than the size limit
          content:
            application/json:
              schema: ErrorSchema
        422:
          description: >-
            the game has more turns than the site replays (`MAX_REPLAY_TURNS`, as the
            replay page); code `too-long`
          content:
            application/json:
              schema: ErrorSchema
        429:
          description: >-
            too many requests (`MOVES_RATELIMIT`), or too many turns read
            (`MOVES_TURNS_RATELIMIT`: each request costs the turns of its game)
          content:
            application/json:
              schema: ErrorSchema
    """
    try:
        body = _read_body()
        record = _game_of(body["lcn"], body["game"])
        # The turns read are charged to the client's budget (429 past it) before anything
        # else, a game refused included: its reading was the larger part of the work. Then
        # the replay page's cap, and its 422. A game over the cap is answered 422 even when
        # its charge spent the budget: asking again later would not help it.
        try:
            spend_moves_turns(len(record.turns))
        except TooManyRequests:
            refuse_long_game(len(record.turns), body["game"])
            raise
        refuse_long_game(len(record.turns), body["game"])
        try:
            position = lcn.legal_moves(record, draws=body["draws"])
        except InvalidRecord as exc:
            raise BadInput("the record breaks a rule before the position asked for",
                           [d.to_json() for d in exc.diagnostics]) from None
        except ValueError as exc:
            raise BadInput(str(exc)) from None
    except BadInput as exc:
        return bad_input(exc)
    answer = position.to_json()
    # ?lang= (the recorder page adds its language) says the labels in that language; the rest
    # of the answer, and every answer without it, is as fixed (English labels).
    language = request.args.get("lang")
    if language:
        answer["moves"] = [{"lcn": move.lcn, "label": translate(move.label, language)}
                           for move in position.moves]
    if body["draws"]:
        answer["draws"] = [{"lcn": move.lcn, "label": translate(move.label, language)}
                           for move in position.draws]
    return jsonify(answer)
