"""The JSON API (``/api/v1``): validate, store and fetch games; its OpenAPI document.

Requests and answers are described by marshmallow schemas, from which apispec builds the
OpenAPI document at ``GET /api/v1/openapi.json``. The document lists every route of the
site: the API's with their schemas, and the pages (HTML) with their summaries, so that it
stays complete when a route is added.
"""

from __future__ import annotations

import json
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.yaml_utils import load_operations_from_docstring
from flask import Blueprint, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_limiter.util import get_remote_address
from marshmallow import ValidationError

import lcn
from lcn.importers import ImportError_, decode, formats
from lcn.importers import TooManyGames as TooManyToImport

from .caches import cached_response
from .errors import BadInput, bad_input, error_response, json_error, json_object
from .i18n import _
from .schemas import (
    AnalysisJobSchema,
    AnalysisRequestSchema,
    AnalysisStateSchema,
    ErrorSchema,
    GameDocumentSchema,
    GameQuerySchema,
    LCNInputSchema,
    StoredSchema,
    ValidateResultSchema,
)
from .security import write_limit
from .services.analyses import Refusal, job_answer, job_url, request_analysis
from .services.documents import TooManyGames, bound_diagnostics, game_document, validation_document
from .services.games import stored_text
from .services.storing import known_formats, store_file

bp = Blueprint("api", __name__, url_prefix="/api/v1")


# -- input ------------------------------------------------------------------------------------

def _read_input() -> tuple[str, str]:
    """The text and the chosen format of a request.

    The body is JSON ``{"lcn": ..., "format": ...}``, a multipart form with an ``lcn`` file
    or field (``curl -F lcn=@game.lcn``), or the text itself, whatever its content type
    (``curl --data-binary @game.lcn`` says form-urlencoded but sends the file as it is).
    """
    mimetype = request.mimetype or ""
    if mimetype == "multipart/form-data":
        upload = request.files.get("lcn")
        field: str | bytes | None = upload.read() if upload is not None else request.form.get("lcn")
        if field is None:
            raise BadInput('expected a form with an "lcn" file or field')
        try:
            return decode(field), request.form.get("format") or "auto"
        except ImportError_ as exc:
            raise BadInput(exc.message, [d.to_json() for d in exc.diagnostics]) from None
    data = request.get_data(cache=False)
    if mimetype == "application/json" or (mimetype in ("", "application/x-www-form-urlencoded")
                                          and data.lstrip()[:1] == b"{"):
        try:
            body = json.loads(data.decode("utf-8", "strict"))
        except UnicodeDecodeError:
            raise BadInput("the JSON body is not UTF-8") from None
        except json.JSONDecodeError as exc:
            raise BadInput(f"the body is not valid JSON: {exc.msg} at line {exc.lineno}, "
                           f"column {exc.colno}") from None
        except RecursionError:
            raise BadInput("the JSON body is nested too deeply") from None
        except ValueError:  # json.loads's other refusal: a number of more than 4300 digits
            raise BadInput("the JSON body has a number with too many digits") from None
        if not isinstance(body, dict):
            raise BadInput('expected a JSON object {"lcn": "..."} or the LCN text itself')
        try:
            loaded = LCNInputSchema().load(body)
        except ValidationError as exc:
            problems = "; ".join(f"{key}: {', '.join(map(str, msgs)) if isinstance(msgs, list) else msgs}"
                                 for key, msgs in exc.normalized_messages().items())
            raise BadInput(f'expected {{"lcn": "<the LCN text>"}}: {problems}') from None
        return loaded["lcn"], loaded["format"]
    try:
        return decode(data), "auto"
    except ImportError_ as exc:
        raise BadInput(exc.message, [d.to_json() for d in exc.diagnostics]) from None


# -- routes -----------------------------------------------------------------------------------

@bp.post("/validate")
@write_limit
def validate_route() -> ResponseReturnValue:
    """Validate a file without storing it.
    ---
    post:
      summary: Validate LCN text; answers as `lcn validate --format json` does
      requestBody:
        required: true
        content:
          application/json:
            schema: LCNInputSchema
          text/plain:
            schema: {type: string}
          multipart/form-data:
            schema: LCNInputSchema
      responses:
        200:
          description: every game's diagnostics (a game with errors is still a 200)
          content:
            application/json:
              schema: ValidateResultSchema
        400:
          description: the body is not a file of text (bad JSON, not UTF-8)
          content:
            application/json:
              schema: ErrorSchema
        413:
          description: larger than the size limit
          content:
            application/json:
              schema: ErrorSchema
        429:
          description: too many requests
          content:
            application/json:
              schema: ErrorSchema
    """
    try:
        text, fmt = _read_input()
    except BadInput as exc:
        return bad_input(exc)
    if fmt not in ("auto", "lcn"):  # never ignore what the client asked for
        known = {name for name, _ in formats()}
        what = "a format of another site or engine" if fmt in known else "not a known format"
        return bad_input(BadInput(f"format {fmt!r} is {what}: this route checks LCN text "
                             "(format \"lcn\" or \"auto\"); to check a log of another format, "
                             "store it with POST /api/v1/games, which imports it, or convert it "
                             "with `lcn convert` first"))
    try:
        document = validation_document(text, max_games=current_app.config["MAX_GAMES"],
                                       max_diagnostics=current_app.config["MAX_DIAGNOSTICS"])
    except TooManyGames as exc:
        return error_response(413, str(exc))
    return jsonify(ValidateResultSchema().dump(document))


@bp.post("/games")
@write_limit
def store_route() -> ResponseReturnValue:
    """Store a file of games (LCN or any importable format) after checking every game.
    ---
    post:
      summary: Store a valid file; answers its id and replay URL
      requestBody:
        required: true
        content:
          application/json:
            schema: LCNInputSchema
          text/plain:
            schema: {type: string}
          multipart/form-data:
            schema: LCNInputSchema
      responses:
        201:
          description: stored
          content:
            application/json:
              schema: StoredSchema
        200:
          description: the same file was stored before; the same id
          content:
            application/json:
              schema: StoredSchema
        400:
          description: a game breaks the rules or cannot be read; every diagnostic is given
          content:
            application/json:
              schema: ErrorSchema
        413:
          description: larger than the size limit
          content:
            application/json:
              schema: ErrorSchema
        429:
          description: too many requests
          content:
            application/json:
              schema: ErrorSchema
        503:
          description: the database cannot be reached; nothing was stored
          content:
            application/json:
              schema: ErrorSchema
    """
    try:
        text, fmt = _read_input()
    except BadInput as exc:
        return bad_input(exc)
    if fmt != "auto" and fmt not in known_formats():
        known = ", ".join(known_formats())
        return bad_input(BadInput(f"unknown format {fmt!r}: the formats are auto, {known}"))
    max_games = current_app.config["MAX_GAMES"]
    try:  # one detection and one read: the games are counted before any is validated
        outcome = store_file(text, fmt, most_games=max_games)
    except TooManyToImport:
        return error_response(413, f"the body holds too many games, more than the {max_games} "
                              "one request may store: split the file")
    except ImportError_ as exc:
        return bad_input(BadInput(exc.message, [d.to_json() for d in exc.diagnostics]))
    result = outcome.result
    if outcome.game_id is None:
        diagnostics = outcome.problems()
        errors = sum(1 for d in diagnostics if d["severity"] == "error")
        extra: dict[str, Any] = {"diagnostics": diagnostics,
                                 "games": [r.to_json() for r in result.reports]}
        cap = current_app.config["MAX_DIAGNOSTICS"]
        if len(diagnostics) > cap:  # the answer stays bounded, whatever the body holds
            extra["diagnostics"] = diagnostics[:cap]
            extra["diagnostics_omitted"] = len(diagnostics) - cap
        bound_diagnostics(extra["games"], cap)
        return error_response(400, f"{errors} problem{'s' if errors != 1 else ''} found "
                              f"(read as {result.format}): nothing was stored", extra=extra)
    game_id, created = outcome.game_id, outcome.created
    body = {"id": game_id, "url": url_for("pages.stored", game_id=game_id), "created": created,
            "format": result.format}
    response = jsonify(StoredSchema().dump(body))
    response.status_code = 201 if created else 200
    response.headers["Location"] = body["url"]
    return response


@bp.get("/games/<gid:game_id>")
def game_route(game_id: str) -> ResponseReturnValue:
    """A stored file: tags, turns, the state and the scores after every turn.
    ---
    get:
      summary: A stored file's games, replayed
      parameters:
        - in: path
          name: game_id
          required: true
          schema: {type: string}
        - in: query
          schema: GameQuerySchema
      responses:
        200:
          description: the file and every game's replay (or the chosen game's)
          content:
            application/json:
              schema: GameDocumentSchema
        400:
          description: the game argument is not a game number
          content:
            application/json:
              schema: ErrorSchema
        404:
          description: no game has this id (or the file has no such game)
          content:
            application/json:
              schema: ErrorSchema
        503:
          description: the database cannot be reached (or the stored file is damaged)
          content:
            application/json:
              schema: ErrorSchema
    """
    try:
        query = GameQuerySchema().load({k: v for k, v in request.args.items() if k == "game"})
    except ValidationError:
        value = request.args.get("game", "")
        return bad_input(BadInput(f"?game={value[:40]}: expected a game number, 1 or more"))
    game = query.get("game")

    def render() -> str:
        document = GameDocumentSchema().dump(game_document(game_id, stored_text(game_id), game))
        return str(jsonify(document).get_data(as_text=True))

    # A stored game never changes: its document is kept as its replay page is, under the
    # arguments it reads (the game's id and ?game=; any other argument is ignored).
    return cached_response(("api-game", game_id, game), render, immutable=True,
                           mimetype="application/json", localised=False)


def _analysis_body() -> dict[str, Any]:
    body = json_object('{"lcn": "..."} or {"id": "..."}')
    try:
        loaded: dict[str, Any] = AnalysisRequestSchema().load(body)
    except ValidationError as exc:
        problems = "; ".join(f"{key}: {', '.join(map(str, msgs)) if isinstance(msgs, list) else msgs}"
                             for key, msgs in exc.normalized_messages().items())
        raise BadInput(f'expected {{"lcn": "<the LCN text>"}} or {{"id": "<a stored file>"}}, and '
                       f'"game": <1 or more>: {problems}') from None
    if ("lcn" in loaded) == ("id" in loaded):
        raise BadInput('expected either {"lcn": "<the LCN text>"} or {"id": "<a stored file>"}')
    return loaded


@bp.post("/analysis")
@write_limit
def analysis_route() -> ResponseReturnValue:
    """Queue the analysis of a game (answered at once when it was analysed before).
    ---
    post:
      summary: Analyse a game on the task queue, with the site's budget
      requestBody:
        required: true
        content:
          application/json:
            schema: AnalysisRequestSchema
      responses:
        202:
          description: queued; follow the job's URL (also in the Location header)
          content:
            application/json:
              schema: AnalysisJobSchema
        200:
          description: analysed before with this engine and budget; the result at once
          content:
            application/json:
              schema: AnalysisStateSchema
        400:
          description: the body is not such a JSON object
          content:
            application/json:
              schema: ErrorSchema
        404:
          description: no stored file has this id, or the file has no such game
          content:
            application/json:
              schema: ErrorSchema
        413:
          description: larger than the size limit
          content:
            application/json:
              schema: ErrorSchema
        422:
          description: the record is not valid, or cannot be judged; nothing was queued
          content:
            application/json:
              schema: ErrorSchema
        429:
          description: too many requests, or this client's analysis is under way (its url; Retry-After)
          content:
            application/json:
              schema: ErrorSchema
        503:
          description: the queue is full (see Retry-After), or cannot be reached
          content:
            application/json:
              schema: ErrorSchema
    """
    try:
        body = _analysis_body()
    except BadInput as exc:
        return bad_input(exc)
    try:
        requested = request_analysis(text=body.get("lcn"), game_id=body.get("id"), game=body["game"],
                                     client=get_remote_address())
    except Refusal as exc:
        response = json_error(exc.status, exc.message, code=exc.code, extra=exc.extra)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
    if requested.job is None:
        assert requested.result is not None
        count = len(requested.result.get("decisions", []))
        return jsonify(AnalysisStateSchema().dump({"state": "done", "done": count, "total": count,
                                                   "result": requested.result}))
    url = job_url(requested.job)
    response = jsonify(AnalysisJobSchema().dump({"job": requested.job, "url": url}))
    response.status_code = 202
    response.headers["Location"] = url
    return response


@bp.get("/analysis/<job>")
def analysis_job_route(job: str) -> ResponseReturnValue:
    """A queued analysis: its state and progress, and the result once done.
    ---
    get:
      summary: The state of an analysis job; the analysis once done
      parameters:
        - in: path
          name: job
          required: true
          schema: {type: string}
      responses:
        200:
          description: queued, running (done of total decisions), done (with the result) or failed
          content:
            application/json:
              schema: AnalysisStateSchema
        404:
          description: no job has this id
          content:
            application/json:
              schema: ErrorSchema
    """
    answer = job_answer(job) if len(job) <= 64 else None
    if answer is None:
        return json_error(404, _("there is no analysis job %(job)s here", job=job[:64]))
    response = jsonify(AnalysisStateSchema().dump(answer))
    if answer["state"] not in ("done", "failed"):
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/openapi.json")
def openapi_route() -> ResponseReturnValue:
    """This document.
    ---
    get:
      summary: The OpenAPI document of the site
      responses:
        200:
          description: OpenAPI 3
          content:
            application/json:
              schema: {type: object}
    """
    spec = current_app.extensions.get("lcn_openapi")
    if spec is None:
        spec = current_app.extensions["lcn_openapi"] = build_openapi()
    return jsonify(spec)


def _openapi_path(rule: str) -> str:
    path = rule
    for converter in ("gid:", "path:", "int:", "string:"):
        path = path.replace(f"<{converter}", "<")
    return path.replace("<", "{").replace(">", "}")


def _operation_doc(view: Any) -> tuple[str, dict[str, Any]]:
    """The summary line of a view's docstring and the YAML operations after its ``---``."""
    doc = (view.__doc__ or "").strip()
    summary = doc.splitlines()[0] if doc else view.__name__
    return summary, load_operations_from_docstring(doc) or {}


def build_openapi() -> dict[str, Any]:
    """The OpenAPI 3 document: the API with its schemas, then every other route of the app."""
    spec = APISpec(title="LCN replay site", version=lcn.__version__, openapi_version="3.0.3",
                   plugins=[MarshmallowPlugin()],
                   info={"description": "Validate, store and replay records of Lost Cities games "
                                        "(LCN). Errors are JSON: {\"error\": {status, code, message}}."})
    # Nested schemas (Diagnostic, Replay, Turn...) are registered by the plugin as it meets them.
    for schema in (LCNInputSchema, ValidateResultSchema, StoredSchema, GameDocumentSchema, ErrorSchema,
                   AnalysisRequestSchema, AnalysisJobSchema, AnalysisStateSchema):
        spec.components.schema(schema.__name__.removesuffix("Schema"), schema=schema)
    rules = sorted(current_app.url_map.iter_rules(), key=lambda r: r.rule)
    grouped: dict[str, dict[str, Any]] = {}
    for rule in rules:
        if rule.endpoint == "static":
            continue
        view = current_app.view_functions[rule.endpoint]
        summary, operations = _operation_doc(view)
        path = _openapi_path(rule.rule)
        entry = grouped.setdefault(path, {})
        methods = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
        for method in methods:
            op = operations.get(method.lower())
            if op is None:
                op = {"summary": summary, "tags": ["pages"],
                      "responses": {"200": {"description": "an HTML page (or a file)"}}}
                params = [{"in": "path", "name": arg, "required": True, "schema": {"type": "string"}}
                          for arg in rule.arguments]
                if params:
                    op["parameters"] = params
            else:
                op = dict(op)
                op.setdefault("tags", ["api"])
            entry[method.lower()] = op
    for path, operations in grouped.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()
