"""LCN — Lost Cities Notation: read, write, validate and score records of Lost Cities games.

>>> import lcn
>>> text = '''[Player1 "Ada"]
... [Player2 "Bo"]
...
... 1. R5/d xB2/d 2. R4/d *
... '''
>>> game = lcn.read_game(text)
>>> report = lcn.validate_record(game)
>>> report.valid
False
>>> d = report.diagnostics[0]
>>> d.line, d.column, d.turn, d.code, d.rule
(4, 18, 3, 'not-ascending', 'C-PLACE-ASCENDING')
>>> print(d.message)
R4 cannot follow R5 in Ada's red expedition: each card must be higher than the one before
"""

from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostic, LCNError, Severity
from .model import GameRecord, Tags, Turn
from .reader import Reader, read_game, read_games, read_headers
from .validate import GameReport, ValidationRun, validate, validate_games, validate_record
from .variants import Variant, find_variant, register_variant, variant_names

if TYPE_CHECKING:
    from .analysis import analyse, best_move
    from .moves import LegalMove, Position, legal_moves
    from .writer import write_game, write_games

    #: The installed distribution's version: written once, in pyproject.toml.
    __version__: str

#: Names given by the modules that define them on first use: ``lcn validate`` runs once per
#: file in scripts, and its start-up should not pay for the move lists, the writer, or
#: ``importlib.metadata`` (about 20 ms: it reads every installed distribution's metadata).
_LAZY = {"LegalMove": "moves", "Position": "moves", "legal_moves": "moves",
         "best_move": "analysis", "analyse": "analysis",
         "write_game": "writer", "write_games": "writer"}


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("lost-cities-notation")
    except metadata.PackageNotFoundError:  # pragma: no cover - a source tree never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "__version__"})


__all__ = [
    "Diagnostic", "GameRecord", "GameReport", "LCNError", "Reader", "Severity", "Tags", "Turn",
    "ValidationRun", "Variant", "find_variant", "read_game", "read_games", "read_headers",
    "register_variant", "validate", "validate_games", "validate_record", "variant_names",
    "write_game", "write_games",
]
__all__ += ["LegalMove", "Position", "analyse", "best_move", "legal_moves"]
