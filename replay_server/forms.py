"""The annotation form (``POST /annotate``) as marshmallow schemas: what it holds, and its checks.

One schema both validates a posted form and states it (the OpenAPI document describes the
route from it). Its per-turn fields ``comment-N`` and ``glyph-N`` depend on the game: N runs
from 1 to the game's number of turns, so :func:`annotation_schema` makes the schema of a game
of ``turns`` turns (the schema of 0 turns is the form without its per-turn fields).

Every refusal reads as one sentence per problem, naming the field and what was expected,
because the site shows it to the person who filled the form.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate

from lcn.model import SUFFIX_GLYPHS

#: Limits of the annotation form, per field.
MAX_COMMENT_LENGTH = 4000
MAX_ANNOTATOR_LENGTH = 200
#: The most digits a ``game`` or ``turn`` number may have: no game comes near it.
MAX_NUMBER_DIGITS = 9
#: What ``format`` may ask for: a redirect to the new page (the default) or a JSON answer.
FORMATS = ("html", "json")

_TURN_FIELD = re.compile(r"(comment|glyph)-(.*)", re.DOTALL)


class AnnotationError(ValueError):
    """An annotation form that cannot be applied (a field too long, an unknown glyph...)."""


def _split_comments(text: str) -> list[str]:
    """A form field back into comments: blank lines separate them, as they were joined.

    A comment holding ``}`` can only be written as a ``;`` comment, which ends at the end of
    its line: its line breaks become spaces here, so what is stored is what was read back.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    comments = [part.strip() for part in text.split("\n\n") if part.strip()]
    return [" ".join(c.split()) if "}" in c else c for c in comments]


class _Text(fields.String):
    """A text field of at most ``max_length`` characters, counted as sent (before any tidying)."""

    def __init__(self, max_length: int, **kwargs: Any) -> None:
        metadata = {"maxLength": max_length, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)
        self.max_length = max_length

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > self.max_length:
            raise ValidationError(f"is too long ({len(text)} characters; at most {self.max_length})")
        return text


class _Annotator(_Text):
    """The annotator's name, its runs of white space made one space ("" removes the tag)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        return " ".join(super()._deserialize(value, attr, data, **kwargs).split())


class _Comments(_Text):
    """A comment box: comments separated by blank lines, loaded as the list of comments."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[str]:
        return _split_comments(super()._deserialize(value, attr, data, **kwargs))


class _Glyph(fields.String):
    """A turn's suffix glyph as the notation allows (``!``, ``?!``...), or "" for none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={"enum": ["", *SUFFIX_GLYPHS],
                                   "description": "the turn's suffix glyph; empty for none"}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        glyph = super()._deserialize(value, attr, data, **kwargs).strip()
        if glyph and glyph not in SUFFIX_GLYPHS:
            raise ValidationError(f"has an unknown glyph {glyph[:20]!r}: expected one of "
                                  f"{', '.join(SUFFIX_GLYPHS)} or none")
        return glyph


class _Number(fields.Integer):
    """A whole number written in ASCII digits; "" is as if the field were not sent.

    Not ``fields.Integer`` alone: Python's ``int`` also reads signs, underscores, spaces and
    the digits of other scripts (``"٣"``), none of which a form of this site sends.
    """

    def __init__(self, minimum: int, **kwargs: Any) -> None:
        super().__init__(metadata={"minimum": minimum, **kwargs.pop("metadata", {})}, **kwargs)
        self.minimum = minimum

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | None:
        text = value if isinstance(value, str) else str(value)
        if text == "":
            return None
        if not (text.isascii() and text.isdigit()) or len(text) > MAX_NUMBER_DIGITS:
            raise ValidationError(f"must be a whole number (at most {MAX_NUMBER_DIGITS} digits "
                                  f"0-9), not {text[:20]!r}")
        number = int(text)
        if number < self.minimum:
            raise ValidationError(f"must be {self.minimum} or more, not {number}")
        return number


class AnnotationFormSchema(Schema):
    """The annotation form: which game is annotated, and the annotations to put on it.

    A field that is absent leaves that part of the game as it was; an empty one clears it.
    Loaded, the per-turn fields come out as ``comments`` and ``glyphs``, dicts keyed by the
    1-based turn; ``game`` defaults to 1.
    """

    #: How many turns the per-turn fields of this schema cover (see annotation_schema).
    turns = 0

    # The route reads these two further (sharing._source_text): 400 for what is not a game ID,
    # 404 for a game not stored, 414 for a token longer than a link may be.
    source = fields.String(metadata={"description": "the ID of the stored game to annotate (or give g)"})
    g = fields.String(metadata={
        "description": "the token of a self-contained link carrying the game (or give source)"})
    game = _Number(1, metadata={"description": "which game of the file (1-based); 1 if absent"})
    turn = _Number(0, metadata={"description": "the turn the new version opens at"})
    format = fields.String(metadata={"enum": list(FORMATS), "description": (
        "json: answer 201 with the new version's id and URL; otherwise redirect (303) to it")})
    annotator = _Annotator(MAX_ANNOTATOR_LENGTH, metadata={
        "description": "the Annotator tag; empty to remove it"})
    game_comment = _Comments(MAX_COMMENT_LENGTH, metadata={
        "description": "comments on the whole game, separated by blank lines"})

    @post_load
    def _gather(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        result: dict[str, Any] = {"comments": {}, "glyphs": {}}
        for name, value in data.items():
            match = _TURN_FIELD.fullmatch(name)
            if match:
                result[f"{match.group(1)}s"][int(match.group(2))] = value
            else:
                result[name] = value
        if result.get("game") is None:
            result["game"] = 1
        fmt = result.get("format")
        if fmt is not None and fmt not in ("", *FORMATS):
            raise ValidationError(f"must be one of {', '.join(FORMATS)}, not {fmt[:20]!r}", "format")
        return result

    def handle_error(self, error: ValidationError, data: Any, *, many: bool, **kwargs: Any) -> None:
        """Every problem as a sentence naming its field: raised as AnnotationError."""
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        problems = [_problem(str(name), message, self.turns)
                    for name, listed in messages.items()
                    for message in (listed if isinstance(listed, list) else [listed])]
        raise AnnotationError("; ".join(problems)) from None


def _problem(name: str, message: Any, turns: int) -> str:
    if message == "Unknown field.":
        kind, _, number = name.partition("-")
        if kind in ("comment", "glyph") and number.isascii() and number.isdigit():
            return f"the field {name} names turn {number}, but the game has {turns} turns"
        return f"unknown field {name[:40]!r} in the annotation form"
    if name == "_schema":
        return str(message)
    return f"the field {name} {message}"


@lru_cache(maxsize=64)
def annotation_schema(turns: int) -> AnnotationFormSchema:
    """The schema of the annotation form of a game of ``turns`` turns (0: no per-turn fields)."""
    per_turn: dict[str, fields.Field] = {}
    for i in range(1, turns + 1):
        per_turn[f"comment-{i}"] = _Comments(MAX_COMMENT_LENGTH, metadata={
            "description": f"comments on turn {i}, separated by blank lines"})
        per_turn[f"glyph-{i}"] = _Glyph()
    schema_class = AnnotationFormSchema.from_dict(per_turn, name=f"AnnotationForm{turns}Schema")
    schema_class.turns = turns
    return schema_class()


def _first_values(form: Any) -> dict[str, Any]:
    """A posted form as a dict of each field's first value (as ``request.form.get`` reads it)."""
    return {name: form.get(name) for name in form}


def load_annotation_form(form: Any, turns: int | None = None) -> dict[str, Any]:
    """The annotation form ``form`` loaded for a game of ``turns`` turns; AnnotationError if bad.

    With ``turns`` None the per-turn fields are left out and not checked: the route reads
    which game is meant before it knows how many turns that game has.
    """
    data = _first_values(form)
    if turns is None:
        return annotation_schema(0).load(data, unknown=EXCLUDE)
    loaded = annotation_schema(turns).load(data)
    turn = loaded.get("turn")
    if turn is not None and turn > turns:
        raise AnnotationError(f"the field turn names turn {turn}, but the game has {turns} turns")
    return loaded


class AnnotationSavedSchema(Schema):
    """The answer to a form sent with ``format=json``: the new version of the game."""

    id = fields.String(required=True, metadata={"description": "the new version's game ID"})
    url = fields.String(required=True, metadata={
        "description": "its replay page, at the form's game and turn"})


# --- the query of replay pages -----------------------------------------------------------------


class ReplayQuerySchema(Schema):
    """The query arguments a replay page reads as numbers (``/g/<id>``, ``/samples/...``).

    Out of range is not an error: a turn past either end opens the replay at that end, and a
    game the file does not have is a 404 (render_replay says so). An empty argument is as if
    it were absent; the page's other arguments (``view``, ``part``, ``g``) are read elsewhere.
    """

    class Meta:
        unknown = EXCLUDE

    game = fields.Integer(metadata={"description": "the K-th game of the file (1-based)"})
    turn = fields.Integer(metadata={"description": "the turn to open at (0: before the first)"})

    #: What the refusal of a bad argument says was expected.
    expected = "a whole number"

    def handle_error(self, error: ValidationError, data: Any, *, many: bool, **kwargs: Any) -> None:
        """The first bad argument, as ``?name=value: expected ...``: raised as QueryError."""
        messages = error.messages if isinstance(error.messages, dict) else {}
        name = next(iter(messages), "")
        value = data.get(name, "") if isinstance(data, dict) else ""
        raise QueryError(f"?{name}={str(value)[:40]}: expected {self.expected}") from None


class LinkQuerySchema(ReplayQuerySchema):
    """The numbers of a self-contained link or an embed (``/v``, ``/embed/...``): 0 or more."""

    game = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "the K-th game of the file (1-based)"})
    turn = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "the turn to open at (0: before the first)"})

    expected = "a whole number, 0 or more"


class QueryError(ValueError):
    """A query argument that is not what the page reads (answered with 400)."""


def load_query(args: Any, schema: type[ReplayQuerySchema] = ReplayQuerySchema) -> dict[str, int]:
    """The numeric query arguments of a replay page, loaded through ``schema``; QueryError if bad."""
    loader = schema()
    return loader.load({name: args.get(name) for name in loader.fields if args.get(name) not in (None, "")})
