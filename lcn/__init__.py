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

from importlib import metadata as _metadata

from .diagnostics import Diagnostic, LCNError, Severity
from .model import GameRecord, Tags, Turn
from .moves import LegalMove, Position, legal_moves
from .reader import Reader, read_game, read_games, read_headers
from .validate import GameReport, ValidationRun, validate, validate_games, validate_record
from .variants import Variant, find_variant, register_variant, variant_names
from .writer import write_game, write_games

try:
    #: The installed distribution's version: written once, in pyproject.toml.
    __version__: str = _metadata.version("lost-cities-notation")
except _metadata.PackageNotFoundError:  # pragma: no cover - a source tree never installed
    __version__ = "0+unknown"

__all__ = [
    "Diagnostic", "GameRecord", "GameReport", "LCNError", "Reader", "Severity", "Tags", "Turn",
    "ValidationRun", "Variant", "find_variant", "read_game", "read_games", "read_headers",
    "register_variant", "validate", "validate_games", "validate_record", "variant_names",
    "write_game", "write_games",
]
__all__ += ["LegalMove", "Position", "legal_moves"]
