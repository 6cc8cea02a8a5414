"""The annotation form (``POST /annotate``) as marshmallow schemas: what it holds, and its checks.

One schema both validates a posted form and states it (the OpenAPI document describes the
route from it). Its per-turn fields ``comment-N`` and ``glyph-N`` depend on the game: N runs
from 1 to the game's number of turns, which the schema is given when it is made.

Every refusal reads as one sentence per problem, naming the field and what was expected,
because the site shows it to the person who filled the form.
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import (
    EXCLUDE,
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from lcn.model import SUFFIX_GLYPHS

from .i18n import N_, gettext

#: Limits of the annotation form, per field.
MAX_COMMENT_LENGTH = 4000
MAX_ANNOTATOR_LENGTH = 200
#: The most digits a ``game`` or ``turn`` number may have: no game comes near it.
MAX_NUMBER_DIGITS = 9
#: The most problems of one form said in its refusal; the others are counted.
MAX_PROBLEMS_SAID = 20
#: What ``format`` may ask for: a redirect to the new page (the default) or a JSON answer.
FORMATS = ("html", "json")


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
            raise ValidationError(gettext("is too long (%(count)s characters; at most %(most)s)",
                                          count=len(text), most=self.max_length))
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
            raise ValidationError(gettext("has an unknown glyph %(glyph)s: expected one of "
                                          "%(glyphs)s or none", glyph=repr(glyph[:20]),
                                          glyphs=", ".join(SUFFIX_GLYPHS)))
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
            raise ValidationError(gettext("must be a whole number (at most %(digits)s digits "
                                          "0-9), not %(value)s", digits=MAX_NUMBER_DIGITS,
                                          value=repr(text[:20])))
        number = int(text)
        if number < self.minimum:
            raise ValidationError(gettext("must be %(minimum)s or more, not %(number)s",
                                          minimum=self.minimum, number=number))
        return number


def _one_of_formats(value: str) -> None:
    if value not in ("", *FORMATS):
        raise ValidationError(gettext("must be one of %(formats)s, not %(value)s",
                                      formats=", ".join(FORMATS), value=repr(value[:20])))


class AnnotationFormSchema(Schema):
    """The annotation form of a game of ``turns`` turns: which game, and the annotations.

    Besides the declared fields, each turn N of the game (1 to ``turns``, in ASCII digits) has
    ``comment-N`` (as ``game_comment``) and ``glyph-N`` (a suffix glyph, "" for none). They
    are read by two shared fields rather than declared one by one: a game may have tens of
    thousands of turns, and a schema class with a field per turn would cost seconds and
    megabytes to make. A field that is absent leaves that part of the game as it was; an
    empty one clears it. Loaded, the per-turn fields come out as ``comments`` and ``glyphs``,
    dicts keyed by the 1-based turn; ``game`` defaults to 1.
    """

    class Meta:
        unknown = INCLUDE  # the per-turn fields; any other name is refused by _check_turns

    # The route reads these two further (sharing._source_text): 400 for what is not a game ID,
    # 404 for a game not stored, 414 for a token longer than a link may be.
    source = fields.String(metadata={"description": "the ID of the stored game to annotate (or give g)"})
    g = fields.String(metadata={
        "description": "the token of a self-contained link carrying the game (or give source)"})
    game = _Number(1, metadata={"description": "which game of the file (1-based); 1 if absent"})
    turn = _Number(0, metadata={"description": "the turn the new version opens at, at most the "
                                               "game's number of turns"})
    format = fields.String(validate=_one_of_formats, metadata={
        "enum": list(FORMATS),
        "description": "json: answer 201 with the new version's id and URL; otherwise redirect (303) to it"})
    annotator = _Annotator(MAX_ANNOTATOR_LENGTH, metadata={
        "description": "the Annotator tag; empty to remove it"})
    game_comment = _Comments(MAX_COMMENT_LENGTH, metadata={
        "description": "comments on the whole game, separated by blank lines"})

    #: What reads ``comment-N`` and ``glyph-N``, for every turn N.
    per_turn: ClassVar[dict[str, fields.Field]] = {
        "comment": _Comments(MAX_COMMENT_LENGTH), "glyph": _Glyph()}

    def __init__(self, turns: int | None = 0, **kwargs: Any) -> None:
        """``turns`` None reads the form before the game is known: its per-turn fields are left
        out (give ``unknown=EXCLUDE``) and ``turn`` is not compared with the game's length."""
        super().__init__(**kwargs)
        self.turns = turns

    def _turn_field(self, name: str) -> tuple[str, int, fields.Field] | None:
        """``(kind, N, field)`` for a per-turn field of this game, None for any other name."""
        kind, _, number = name.partition("-")
        if kind in self.per_turn and number.isascii() and number.isdigit() \
                and len(number) <= MAX_NUMBER_DIGITS and 1 <= int(number) <= (self.turns or 0):
            return kind, int(number), self.per_turn[kind]
        return None

    @validates_schema(skip_on_field_errors=False)
    def _check_turns(self, data: dict[str, Any], **_: Any) -> None:
        problems: dict[str, list[str]] = {}
        for name, value in data.items():
            if name in self.fields:
                continue
            found = self._turn_field(name)
            if found is None:
                problems[name] = ["Unknown field."]
                continue
            try:
                found[2].deserialize(value)
            except ValidationError as exc:
                problems[name] = [str(message) for message in exc.messages]
        turn = data.get("turn")
        if turn is not None and self.turns is not None and turn > self.turns:
            problems["turn"] = [gettext("names turn %(turn)s, but the game has %(turns)s turns",
                                        turn=turn, turns=self.turns)]
        if problems:
            raise ValidationError(problems)

    @post_load
    def _gather(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        result: dict[str, Any] = {"comments": {}, "glyphs": {}}
        for name, value in data.items():
            found = None if name in self.fields else self._turn_field(name)
            if found is None:
                result[name] = value
            else:
                kind, number, reader = found
                result[f"{kind}s"][number] = reader.deserialize(value)
        if result.get("game") is None:
            result["game"] = 1
        return result

    def handle_error(self, error: ValidationError, data: Any, *, many: bool, **kwargs: Any) -> None:
        """Every problem as a sentence naming its field, in the form's order: raised as
        AnnotationError."""
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        order = {name: i for i, name in enumerate(data)} if isinstance(data, dict) else {}
        found = [(str(name), message)
                 for name, listed in sorted(messages.items(), key=lambda m: order.get(m[0], len(order)))
                 for message in (listed if isinstance(listed, list) else [listed])]
        # The first ones are said, the rest counted: a form of a hundred thousand unknown
        # fields was answered with a page of megabytes, one sentence per field.
        problems = [_problem(name, message, self.turns) for name, message in found[:MAX_PROBLEMS_SAID]]
        more = len(found) - MAX_PROBLEMS_SAID
        if more > 0:
            problems.append(gettext("and 1 more problem") if more == 1 else
                            gettext("and %(count)s more problems", count=more))
        raise AnnotationError("; ".join(problems)) from None


#: marshmallow's own messages (English), as the site says them: a field's problem is shown to
#: the person who filled the form, in the page's language.
MARSHMALLOW_MESSAGES = {
    "Missing data for required field.": N_("is missing: it is required"),
    "Field may not be null.": N_("may not be empty"),
    "Not a valid string.": N_("is not text"),
    "Not a valid integer.": N_("is not a whole number"),
    "Not a valid number.": N_("is not a number"),
    "Invalid input type.": N_("is not a form"),
}


def _problem(name: str, message: Any, turns: int | None) -> str:
    if message == "Unknown field.":
        kind, _, number = name.partition("-")
        if kind in AnnotationFormSchema.per_turn and number.isascii() and number.isdigit():
            return gettext("the field %(name)s names turn %(number)s, but the game has %(turns)s "
                           "turns", name=name[:40], number=number[:20], turns=turns)
        return gettext("unknown field %(name)s in the annotation form", name=repr(name[:40]))
    if isinstance(message, str) and message in MARSHMALLOW_MESSAGES:
        message = gettext(MARSHMALLOW_MESSAGES[message])
    if name == "_schema":
        return str(message)
    return gettext("the field %(name)s %(problem)s", name=name, problem=message)


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
        return AnnotationFormSchema(turns=None, unknown=EXCLUDE).load(data)
    return AnnotationFormSchema(turns=turns).load(data)


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
    expected = N_("a whole number")

    def handle_error(self, error: ValidationError, data: Any, *, many: bool, **kwargs: Any) -> None:
        """The first bad argument, as ``?name=value: expected ...``: raised as QueryError."""
        messages = error.messages if isinstance(error.messages, dict) else {}
        name = next(iter(messages), "")
        value = data.get(name, "") if isinstance(data, dict) else ""
        raise QueryError(gettext("%(argument)s: expected %(expected)s",
                                 argument=f"?{name}={str(value)[:40]}",
                                 expected=gettext(self.expected))) from None


class LinkQuerySchema(ReplayQuerySchema):
    """The numbers of a self-contained link or an embed (``/v``, ``/embed/...``): 0 or more."""

    game = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "the K-th game of the file (1-based)"})
    turn = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "the turn to open at (0: before the first)"})

    expected = N_("a whole number, 0 or more")


class QueryError(ValueError):
    """A query argument that is not what the page reads (answered with 400)."""


def load_query(args: Any, schema: type[ReplayQuerySchema] = ReplayQuerySchema) -> dict[str, int]:
    """The numeric query arguments of a replay page, loaded through ``schema``; QueryError if bad."""
    loader = schema()
    return loader.load({name: args.get(name) for name in loader.fields if args.get(name) not in (None, "")})
