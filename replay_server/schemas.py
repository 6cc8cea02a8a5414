"""The JSON the site reads and answers, as marshmallow schemas: one module for every shape.

The API's routes load requests and dump answers through these, the error answers of the whole
site are dumped through ``ErrorSchema`` (:mod:`replay_server.errors`), and the OpenAPI document
(``GET /api/v1/openapi.json``) is built from them, so what is documented is what is sent.
The forms and query arguments of the pages, which are not JSON, are in
:mod:`replay_server.forms`.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

# -- the API: files, validation, stored games -------------------------------------------------

class LCNInputSchema(Schema):
    """A game file sent as JSON (the body may also be the LCN text itself)."""

    lcn = fields.String(required=True, metadata={"description": "the text of the file: one or more games"})
    format = fields.String(load_default="auto", metadata={
        "description": "the format of the text: auto (detected), lcn, or an importer's name"})


class DiagnosticSchema(Schema):
    code = fields.String(required=True)
    severity = fields.String(required=True, validate=validate.OneOf(["error", "warning", "info"]))
    message = fields.String(required=True)
    line = fields.Integer(allow_none=True)
    column = fields.Integer(allow_none=True)
    turn = fields.Integer(allow_none=True, metadata={"description": "1-based turn of the game"})
    rule = fields.String(allow_none=True, metadata={"description": "rule ID of seeds/*.md or docs/spec.md"})
    length = fields.Integer(metadata={"description": "width of the bad span"})
    game = fields.Integer(allow_none=True, metadata={
        "description": "1-based game of the file the diagnostic is about (POST /games)"})


class ValidatedGameSchema(Schema):
    index = fields.Integer(required=True)
    file = fields.String()
    valid = fields.Boolean(required=True)
    diagnostics = fields.List(fields.Nested(DiagnosticSchema), required=True)
    variant = fields.String()
    players = fields.List(fields.String())
    turns = fields.Integer()
    line = fields.Integer()
    over = fields.Boolean()
    scores = fields.List(fields.Integer(), allow_none=True)
    diagnostics_omitted = fields.Integer(metadata={
        "description": "diagnostics of this game left out to keep the answer bounded"})


class FileDiagnosticsSchema(Schema):
    file = fields.String()
    diagnostics = fields.List(fields.Nested(DiagnosticSchema))


class SummarySchema(Schema):
    games = fields.Integer()
    valid = fields.Integer()
    invalid = fields.Integer()
    diagnostics_omitted = fields.Integer(metadata={
        "description": "diagnostics left out of the whole answer (LCN_MAX_DIAGNOSTICS)"})


class ValidateResultSchema(Schema):
    """The same shape as ``lcn validate --format json``."""

    games = fields.List(fields.Nested(ValidatedGameSchema))
    files = fields.List(fields.Nested(FileDiagnosticsSchema))
    summary = fields.Nested(SummarySchema)


class GameQuerySchema(Schema):
    """The query of ``GET /games/<id>``: loaded (validated) by the route, documented from here."""

    game = fields.Integer(strict=False, validate=validate.Range(min=1), metadata={
        "description": "only the K-th game of the file (1-based); long files answer faster"})


class StoredSchema(Schema):
    id = fields.String(required=True, metadata={"description": "16 characters, URL-safe"})
    url = fields.String(required=True, metadata={"description": "the replay page, /g/<id>"})
    created = fields.Boolean(metadata={"description": "false when the same file was stored before"})
    format = fields.String(metadata={"description": "the format the input was read as"})


class TurnSchema(Schema):
    index = fields.Integer()
    number = fields.Integer()
    numbered = fields.Boolean()
    text = fields.String()
    player = fields.Integer(allow_none=True, metadata={"description": "0-based seat of the player"})
    glyphs = fields.List(fields.String())
    comments = fields.List(fields.String())
    line = fields.Integer()
    column = fields.Integer()


class ScoresSchema(Schema):
    totals = fields.List(fields.Integer())
    breakdown = fields.List(fields.Dict(keys=fields.String(), values=fields.Integer()))
    details = fields.List(fields.Raw())


class ReplaySchema(Schema):
    """One game replayed: ``positions[n]`` and ``running[n]`` are after turn n (0: before)."""

    index = fields.Integer()
    variant = fields.String()
    variant_title = fields.String(allow_none=True)
    known_variant = fields.Boolean()
    tags = fields.List(fields.List(fields.String()), metadata={"description": "ordered [name, value] pairs"})
    players = fields.List(fields.String())
    valid = fields.Boolean()
    diagnostics = fields.List(fields.Nested(DiagnosticSchema))
    intro_comments = fields.List(fields.String())
    closing_comments = fields.List(fields.String())
    termination = fields.String(allow_none=True)
    line = fields.Integer()
    turns = fields.List(fields.Nested(TurnSchema))
    applied = fields.Integer(metadata={"description": "turns that could be replayed"})
    positions = fields.List(fields.Dict(), metadata={"description": "the variant's snapshot of each state"})
    running = fields.List(fields.List(fields.Integer()), metadata={"description": "totals after each turn"})
    scores = fields.Nested(ScoresSchema, allow_none=True)
    over = fields.Boolean()
    complete = fields.Boolean()
    match = fields.Dict(allow_none=True)


class GameDocumentSchema(Schema):
    id = fields.String()
    url = fields.String()
    lcn = fields.String(metadata={"description": "the canonical text of the stored file"})
    games = fields.List(fields.Nested(ReplaySchema))


class ErrorBodySchema(Schema):
    status = fields.Integer()
    code = fields.String()
    message = fields.String()


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema, required=True)
    diagnostics = fields.List(fields.Nested(DiagnosticSchema))
    diagnostics_omitted = fields.Integer(metadata={
        "description": "diagnostics left out of the answer (LCN_MAX_DIAGNOSTICS)"})
    games = fields.List(fields.Nested(ValidatedGameSchema))
    url = fields.String(metadata={"description": "429 to POST /api/v1/analysis: the client's job under way"})


# -- the legal moves (POST /api/v1/moves) ----------------------------------------------------

class MovesRequestSchema(Schema):
    """A game as it stands, and which game of the text it is."""

    lcn = fields.String(required=True, metadata={"description": "LCN text: one or more games"})
    game = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1), metadata={
        "description": "which game of the text (1-based)"})
    draws = fields.Boolean(load_default=False, truthy={True}, falsy={False}, metadata={
        "description": "also name the cards the last turn may have drawn unseen (the answer's "
                       "`draws`); the answer without it is as fixed"})


class LegalMoveSchema(Schema):
    lcn = fields.String(required=True, metadata={"description": "the LCN the move adds"})
    label = fields.String(required=True, metadata={"description": "the move in words"})


class MovesSchema(Schema):
    """Who moves, at which turn, and every legal continuation (none once the game is over)."""

    player = fields.String(allow_none=True, required=True,
                           metadata={"description": "the player to move; null once over"})
    turn = fields.Integer(required=True, metadata={"description": "the next turn's number"})
    over = fields.Boolean(required=True)
    moves = fields.List(fields.Nested(LegalMoveSchema), required=True)


# -- the annotation form's JSON answer (POST /annotate, format=json) -------------------------

class AnnotationSavedSchema(Schema):
    """The answer to a form sent with ``format=json``: the new version of the game."""

    id = fields.String(required=True, metadata={"description": "the new version's game ID"})
    url = fields.String(required=True, metadata={
        "description": "its replay page, at the form's game and turn"})


# -- analyses on the task queue (POST /api/v1/analysis) ---------------------------------------

class AnalysisRequestSchema(Schema):
    """A game to analyse: its text, or the id of a stored file; and which game of it."""

    lcn = fields.String(metadata={"description": "LCN text: one or more games"})
    id = fields.String(validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$"),
                       metadata={"description": "the id of a stored file (POST /api/v1/games)"})
    game = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1), metadata={
        "description": "which game of the file (1-based)"})


class AnalysisJobSchema(Schema):
    """A job put on the queue: its id and where to follow it."""

    job = fields.String(required=True)
    url = fields.String(required=True, metadata={"description": "GET it for the job's state"})


class AnalysisStateSchema(Schema):
    """A job's state; with ``result`` once done: one game's entry of `lcn analyse --format json`."""

    state = fields.String(required=True, validate=validate.OneOf(["queued", "running", "done", "failed"]))
    done = fields.Integer(required=True, metadata={"description": "decisions judged so far"})
    total = fields.Integer(required=True, metadata={"description": "decisions to judge (0 until known)"})
    result = fields.Dict(metadata={
        "description": "the analysis: game, players, decisions, accuracy, budget..."})
    error = fields.String(metadata={"description": "why a failed job failed"})
    diagnostics = fields.List(fields.Nested(DiagnosticSchema))
