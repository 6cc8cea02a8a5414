"""The JSON form of LCN records: the same record, for programs instead of people.

A program that wants a game (a web page, a database loader, a bot) should not need an LCN
parser; the JSON form gives it the record as data. It is the record, not an analysis: tags
in their order, the comments before the first turn, every turn as written (text, move
number, glyphs, comments), the termination and the comments after it. LCN → JSON → LCN
gives the same record back, so nothing is lost by storing games as JSON.

A document holds several games::

    {"format": "lcn-json", "version": 1, "games": [<record>, ...]}

and a record looks like this (``docs/lcn-record.schema.json`` is the published schema):

>>> from lcn import read_game
>>> record = read_game('[Player1 "Ada"]\\n[Player2 "Bo"]\\n\\n{Fast start} 1. R5/d! xB2/d {oops} *\\n')
>>> data = to_json(record)
>>> data["tags"]
[{'name': 'Player1', 'value': 'Ada'}, {'name': 'Player2', 'value': 'Bo'}]
>>> data["turns"][0]
{'text': 'R5/d', 'number': 1, 'dots': 1, 'glyphs': ['!'], 'comments': []}
>>> back = from_json(data)
>>> back.turns[1].comments, back.termination
(['oops'], '*')

Reading checks the shape strictly and says where a document is wrong:

>>> from_json({"tags": [], "turns": [{"text": 5}]})
Traceback (most recent call last):
...
lcn.jsonform.JSONFormError: turns.0.text: Not a valid string.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from .messages import Message, join, msg
from .model import GameRecord, Tags, Turn

#: The ``format`` value of a JSON document of games, and the version of its shape.
FORMAT = "lcn-json"
VERSION = 1

TAG_NAME = r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*$"
GLYPH = r"^(?:!!|\?\?|!\?|\?!|!|\?|\$[0-9]+)$"
TERMINATION = r"^(?:\*|-?[0-9]+(?::-?[0-9]+)+)$"
_NO_LINE_BREAK = r"^[^\r\n]*$"


class JSONFormError(ValueError):
    """A JSON document that is not a record (or document) of the JSON form.

    ``problems`` lists each problem as ``(path, message)``; the path names the place in the
    document (``games.2.turns.14.text``).
    """

    def __init__(self, problems: list[tuple[str, str]], line: int | None = None,
                 column: int | None = None) -> None:
        self.problems = problems
        self.line = line
        self.column = column
        shown = join((Message("{path}: {message}", {"path": path, "message": message}) if path
                      else message for path, message in problems[:5]), "; ")
        more = msg(" (and {count} more)", count=len(problems) - 5) if len(problems) > 5 else ""
        super().__init__(msg("{problems}{more}", problems=shown, more=more))


class TagSchema(Schema):
    """One tag pair; tags are a list so that their order survives every JSON library."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Regexp(
        TAG_NAME, error="not a tag name (a letter or digit, then letters, digits, _+#=:-)"))
    value = fields.String(required=True, validate=validate.Regexp(
        _NO_LINE_BREAK, error="a tag value cannot contain a line break"))


class TurnSchema(Schema):
    """One turn as written: its text, the move number before it, glyphs and comments."""

    class Meta:
        unknown = RAISE

    text = fields.String(required=True)
    number = fields.Integer(strict=True, allow_none=True, load_default=None,
                            validate=validate.Range(min=0))
    dots = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0))
    glyphs = fields.List(fields.String(validate=validate.Regexp(
        GLYPH, error="not a glyph (!, ?, !!, ??, !?, ?! or $N)")), load_default=list)
    comments = fields.List(fields.String(), load_default=list)

    @validates_schema
    def _dots_need_number(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("number") is None and data.get("dots"):
            raise ValidationError(msg("dots are only given with a move number"), "dots")

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> Turn:
        return Turn(data["text"], number=data["number"],
                    number_dots=data["dots"] if data["number"] is not None else 0,
                    glyphs=list(data["glyphs"]), comments=list(data["comments"]))


class RecordSchema(Schema):
    """One game record."""

    class Meta:
        unknown = RAISE

    tags = fields.List(fields.Nested(TagSchema), required=True)
    intro_comments = fields.List(fields.String(), load_default=list)
    turns = fields.List(fields.Nested(TurnSchema), required=True)
    termination = fields.String(allow_none=True, load_default=None, validate=validate.Regexp(
        TERMINATION, error="not a termination (`*` or final scores like `57:-12`)"))
    closing_comments = fields.List(fields.String(), load_default=list)

    @validates_schema
    def _unique_tags(self, data: dict[str, Any], **_: Any) -> None:
        seen: set[str] = set()
        for index, tag in enumerate(data.get("tags", [])):
            name = tag["name"]
            if name in seen:
                raise ValidationError({index: {"name": [msg("tag {name} appears twice", name=name)]}}, "tags")
            seen.add(name)

    @post_load
    def _make(self, data: dict[str, Any], **_: Any) -> GameRecord:
        tags = Tags()
        for tag in data["tags"]:
            tags[tag["name"]] = tag["value"]
        return GameRecord(tags=tags, intro_comments=list(data["intro_comments"]),
                          turns=list(data["turns"]), termination=data["termination"],
                          closing_comments=list(data["closing_comments"]))


class DocumentSchema(Schema):
    """A document of several games."""

    class Meta:
        unknown = RAISE

    format = fields.String(required=True, validate=validate.Equal(
        FORMAT, error=f'expected "{FORMAT}"'))
    version = fields.Integer(strict=True, required=True, validate=validate.Equal(
        VERSION, error=msg("this reader knows version {version}", version=VERSION)))
    games = fields.List(fields.Nested(RecordSchema), required=True)


_RECORD = RecordSchema()
_DOCUMENT = DocumentSchema()


def _flatten(messages: Any, path: str = "") -> list[tuple[str, str]]:
    """marshmallow's nested error dict as (dotted path, message) pairs, in document order."""
    out: list[tuple[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            sub = str(key) if key != "_schema" else ""
            out.extend(_flatten(value, f"{path}.{sub}" if path and sub else path or sub))
    elif isinstance(messages, list):
        for item in messages:
            out.extend(_flatten(item, path))
    else:
        out.append((path, str(messages)))
    return out


def to_json(record: GameRecord) -> dict[str, Any]:
    """The JSON form of one record (a dict ready for ``json.dumps``)."""
    return {
        "tags": [{"name": name, "value": value} for name, value in record.tags.items()],
        "intro_comments": list(record.intro_comments),
        "turns": [
            {"text": turn.text, "number": turn.number,
             "dots": turn.number_dots if turn.number is not None else 0,
             "glyphs": list(turn.glyphs), "comments": list(turn.comments)}
            for turn in record.turns
        ],
        "termination": record.termination,
        "closing_comments": list(record.closing_comments),
    }


def from_json(data: Any) -> GameRecord:
    """The record of a JSON form (as parsed by ``json.loads``); JSONFormError says what is wrong."""
    if not isinstance(data, dict):
        raise JSONFormError([("", msg("expected a record (a JSON object), not {kind}", kind=_kind(data)))])
    try:
        record: GameRecord = _RECORD.load(data)
    except ValidationError as exc:
        raise JSONFormError(_flatten(exc.messages)) from None
    return record


def document(records: Iterable[GameRecord]) -> dict[str, Any]:
    """The JSON document of several games."""
    return {"format": FORMAT, "version": VERSION, "games": [to_json(r) for r in records]}


def dumps(records: Iterable[GameRecord], *, indent: int | None = 2) -> str:
    """A JSON document of the games, as text ending with a newline."""
    return json.dumps(document(records), ensure_ascii=False, indent=indent) + "\n"


def _kind(value: Any) -> str:
    return {dict: msg("an object"), list: msg("an array"), str: msg("a string"),
            bool: msg("a boolean"), type(None): "null"}.get(type(value), msg("a number"))


def load_document(data: Any) -> list[GameRecord]:
    """The games of parsed JSON: a document, one record, or an array of records."""
    if isinstance(data, list):
        records = []
        for index, item in enumerate(data):
            try:
                records.append(from_json(item))
            except JSONFormError as exc:
                raise JSONFormError([(f"{index}.{p}" if p else str(index), m)
                                     for p, m in exc.problems]) from None
        return records
    if isinstance(data, dict) and ("games" in data or "format" in data):
        try:
            loaded: dict[str, Any] = _DOCUMENT.load(data)
        except ValidationError as exc:
            raise JSONFormError(_flatten(exc.messages)) from None
        return list(loaded["games"])
    if isinstance(data, dict):
        return [from_json(data)]
    raise JSONFormError([("", msg("expected a document of games (a JSON object), not {kind}",
                                  kind=_kind(data)))])


def loads(text: str) -> list[GameRecord]:
    """The games of a JSON text; syntax errors carry the line and column of the problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JSONFormError([("", msg("not valid JSON: {reason}", reason=exc.msg))], exc.lineno,
                            exc.colno) from None
    except RecursionError:
        raise JSONFormError([("", msg("not valid JSON: nested too deeply"))]) from None
    except ValueError:  # the only other refusal: a number of more digits than Python converts
        raise JSONFormError([("", msg("not valid JSON here: a number has too many "
                                                "digits (over 4300)"))]) \
            from None
    return load_document(data)


__all__ = ["FORMAT", "VERSION", "DocumentSchema", "JSONFormError", "RecordSchema", "TagSchema",
           "TurnSchema", "document", "dumps", "from_json", "load_document", "loads", "to_json"]
