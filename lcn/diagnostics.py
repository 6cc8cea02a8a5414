"""Diagnostics: every problem the reader or an engine finds, with its place.

A diagnostic is data, not an exception, so that a reader can collect all of them in one
pass and a caller decides what is fatal (python-chess users lose results after the first
error; LCN users do not).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


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

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_json(self) -> dict[str, Any]:
        """The fixed JSON shape of ``lcn validate --format json`` (more keys may follow)."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "rule": self.rule,
            "length": self.length,
        }

    def format(self, filename: str = "<input>") -> str:
        """Compiler-style one-line form: ``file:line:col: error[code] message (rule)``."""
        place = filename
        if self.line is not None:
            place += f":{self.line}"
            if self.column is not None:
                place += f":{self.column}"
        rule = f" ({self.rule})" if self.rule else ""
        turn = f" [turn {self.turn}]" if self.turn is not None else ""
        return f"{place}: {self.severity.value}[{self.code}] {self.message}{turn}{rule}"


class LCNError(ValueError):
    """Raised in strict mode on the first error, carrying the diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.format())
        self.diagnostic = diagnostic
