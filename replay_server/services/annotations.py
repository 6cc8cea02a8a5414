"""Annotating a game: the annotation form's starting values, and the file annotated as posted.

The original text is read with the library, the comments, glyphs and ``Annotator`` tag are
changed on the record, and the record is written back in canonical form (then read again, to
be sure that what is stored is what was annotated), which gives it its own permalink: a stored
game never changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import lcn
from lcn.model import SUFFIX_GLYPHS, GameRecord

from ..forms import AnnotationError, load_annotation_form
from ..i18n import N_, gettext
from .games import cached_data, refuse_long_game

#: The suffix glyphs a turn can be given in the annotation form ("" for none).
GLYPH_CHOICES: list[tuple[str, str]] = [
    ("", N_("no glyph")), ("!", N_("! good")), ("?", N_("? mistake")), ("!!", N_("!! brilliant")),
    ("??", N_("?? blunder")), ("!?", N_("!? interesting")), ("?!", N_("?! dubious")),
]


@dataclass(slots=True)
class TurnForm:
    """One row of the annotation form: a turn as written, its suffix glyph and comments."""

    index: int
    number: int | None
    text: str
    glyph: str
    comment: str


@dataclass(slots=True)
class AnnotationForm:
    """What the annotation form starts from: the game's current annotations."""

    annotator: str
    game_comment: str
    turns: list[TurnForm]
    glyph_choices: list[tuple[str, str]]


def _join_comments(comments: list[str]) -> str:
    return "\n\n".join(comments)


def _record(lcn_text: str, game: int) -> tuple[list[GameRecord], GameRecord]:
    records = list(lcn.read_games(lcn_text))
    if not 1 <= game <= len(records):
        raise AnnotationError(gettext("game %(game)s does not exist: the file has %(count)s "
                                      "game(s)", game=game, count=len(records)))
    return records, records[game - 1]


def annotation_form(lcn_text: str, game: int = 1) -> AnnotationForm | None:
    """The annotation form's starting values for game ``game`` of a file (None if none).

    Read once per text and game (kept with the replay's other data: a text never changes
    under its digest), not on every render of its replay page."""
    return cached_data("annotation-form", lcn_text, lambda: _annotation_form(lcn_text, game), game)


def _annotation_form(lcn_text: str, game: int) -> AnnotationForm | None:
    try:
        _, record = _record(lcn_text, game)
    except AnnotationError:
        return None
    turns = []
    for i, turn in enumerate(record.turns, start=1):
        glyph = turn.glyphs[0] if turn.glyphs and turn.glyphs[0] in SUFFIX_GLYPHS else ""
        turns.append(TurnForm(i, turn.number, turn.text, glyph, _join_comments(turn.comments)))
    return AnnotationForm(record.tags.get("Annotator") or "", _join_comments(record.intro_comments),
                          turns, GLYPH_CHOICES)


def annotate(lcn_text: str, game: int, form: Any) -> str:
    """The canonical text of the file with game ``game`` annotated as ``form`` says.

    ``form`` is the posted annotation form (forms.AnnotationFormSchema states it):
    ``annotator``, ``game_comment``, and per turn N (1-based) ``comment-N`` and ``glyph-N``.
    A field that is absent leaves that part as it was; an empty one clears it. Other games of
    the file, and glyphs other than a turn's suffix glyph, are kept.
    """
    records, record = _record(lcn_text, game)
    refuse_long_game(len(record.turns), game)  # the replay page's cap, and its 422
    loaded = load_annotation_form(form, len(record.turns))
    annotator = loaded.get("annotator")
    if annotator is not None:
        if annotator:
            record.tags["Annotator"] = annotator
        elif "Annotator" in record.tags:
            del record.tags["Annotator"]
    if "game_comment" in loaded:
        record.intro_comments = loaded["game_comment"]
    for i, turn in enumerate(record.turns, start=1):
        if i in loaded["comments"]:
            turn.comments = loaded["comments"][i]
        glyph = loaded["glyphs"].get(i)
        if glyph is not None:
            has_suffix = bool(turn.glyphs) and turn.glyphs[0] in SUFFIX_GLYPHS
            rest = turn.glyphs[1:] if has_suffix else list(turn.glyphs)
            turn.glyphs = ([glyph] if glyph else []) + rest
    text = lcn.write_games(records)
    assert text is not None
    _check_round_trip(text, game, record)
    return text


def _check_round_trip(text: str, game: int, expected: GameRecord) -> None:
    """Read the written text back: what was annotated must be exactly what is stored."""
    records = list(lcn.read_games(text))
    got = records[game - 1] if len(records) >= game else None
    if (got is None or got.tags.get("Annotator") != expected.tags.get("Annotator")
            or got.intro_comments != expected.intro_comments
            or [(t.text, t.glyphs, t.comments) for t in got.turns]
            != [(t.text, t.glyphs, t.comments) for t in expected.turns]):
        raise AnnotationError(gettext("these annotations cannot be written in LCN as given "
                                      "(check comments for unusual characters)"))


__all__ = ["GLYPH_CHOICES", "AnnotationForm", "TurnForm", "annotate", "annotation_form"]
