"""Diagnostics: every problem the reader or an engine finds, with its place.

A diagnostic is data, not an exception, so that a reader can collect all of them in one
pass and a caller decides what is fatal (python-chess users lose results after the first
error; LCN users do not).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .messages import Message, msg, template, translate


class Severity(StrEnum):
    """How bad a problem is: only errors make a game invalid."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(slots=True)
class Diagnostic:
    """One problem found in a record.

    ``line`` and ``column`` are 1-based in the input; ``length`` is the width of the bad
    span (for a caret or a highlight); ``turn`` is the 1-based turn over the whole game, or
    None when the problem is not about a turn; ``rule`` names a rule of the project's
    digests (``seeds/*.md``) or of the notation (``docs/spec.md``).
    """

    code: str
    message: str
    severity: Severity = Severity.ERROR
    line: int | None = None
    column: int | None = None
    turn: int | None = None
    rule: str | None = None
    length: int = 1
    extra: dict[str, Any] = field(default_factory=dict)
    #: What was probably meant and how to write it, for a slip people make (or None).
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def said_in(self, language: str | None) -> tuple[str, str | None]:
        """The message and the hint in ``language``; None keeps them as they were made (English
        text that can still be said in another language later)."""
        if language is None:
            return self.message, self.hint
        return (translate(self.message, language),
                translate(self.hint, language) if self.hint else None)

    def to_json(self, language: str | None = None) -> dict[str, Any]:
        """The fixed JSON shape of ``lcn validate --format json`` (more keys may follow).

        ``hint`` is added only when the diagnostic has one. The keys and the code never
        change; ``message`` and ``hint`` are said in ``language`` (English by default, which
        is what ``lcn --format json`` writes, so that tools reading it see one wording).
        """
        message, tip = self.said_in(language)
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": message,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "rule": self.rule,
            "length": self.length,
            **({"hint": tip} if tip else {}),
        }

    def format(self, filename: str = "<input>", language: str | None = None) -> str:
        """Compiler-style one-line form: ``file:line:col: error[code] message (rule)``.

        A hint follows as ``; hint: ...`` on the same line. The message, the hint and the
        words around them are said in ``language`` (None: English); the code, the severity
        and the rule are the same in every language, so that they can be searched for.
        """
        message, tip = self.said_in(language)
        place = filename
        if self.line is not None:
            place += f":{self.line}"
            if self.column is not None:
                place += f":{self.column}"
        rule = f" ({self.rule})" if self.rule else ""
        turn = (" " + translate(msg("[turn {turn}]", turn=self.turn), language)
                if self.turn is not None else "")
        hint_text = "; " + translate(msg("hint: {hint}", hint=tip), language) if tip else ""
        return f"{place}: {self.severity.value}[{self.code}] {message}{turn}{rule}{hint_text}"


#: The hints, as templates with named parameters: what a writer probably meant and how to
#: write it. Engines and the validator fill them through :func:`hint`, so the wording of
#: every suggestion lives here.
HINTS: dict[str, str] = {
    "number-shift": template("a turn may be missing or written twice before this one; the later move "
                     "numbers are read on from {number}"),
    "space-in-word": template("`{word}` is one word: write it without the space, `{joined}`"),
    "wrong-case": template("write `[{meant} ...]`: tag names are written exactly, in this case"),
    "name-for-token": template("`{written}` looks like {name}'s name: {name} is written `{token}` in the "
                       "movetext"),
    "missing-pass": template("{names} did not pass: write `{passes}` before the winner's cards"),
    "zero-started": template("`{choice}` marks the circle, which only an expedition not yet started can "
                     "take: write the 0 die as `{colour}10` to write 10 in the next box"),
    "pile-sizes": template("the piles are taken to hold {sizes} cards: a record whose piles were divided "
                   "otherwise says so with [PileSizes \"{example}\"]"),
    "pile-sizes-tag": template("write [PileSizes \"{sizes}\"] to say so"),
    "classic-missing": template("a turn of {name}'s seems left out before this one: this turn is taken "
                        "as {name}'s, and the turns alternate from it"),
    "classic-swap": template("this turn and the next seem written in each other's place: they are "
                     "played in the order of the seats"),
    "keyword-typo": template("did you mean `{meant}`?"),
    "turn-seat": template("{written} opens the auction: if a turn is missing before this one, {written} "
                  "plays on from here"),
    "repeated-turn": template("this turn repeats the one before it, word for word: it is left out"),
    "seat-slip": template("if this is {name}'s choice, write it `{token}:...`"),
    "roller": template("{written} rolls this turn: the rolls go on clockwise from {written}"),
}


def hint(key: str, **params: Any) -> Message:
    """The hint ``key`` of :data:`HINTS` with its parameters filled in (translatable)."""
    return Message(HINTS[key], params)


class LCNError(ValueError):
    """Raised in strict mode on the first error, carrying the diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic
