"""LCN — Lost Cities Notation: read, write, validate and score records of Lost Cities games.

>>> import lcn
>>> text = '''[Player1 "Ada"]
... [Player2 "Bo"]
...
... 1. R5/d xB2/d 2. R7/B *
... '''
>>> game = lcn.read_game(text)
>>> report = lcn.validate_record(game)
>>> report.valid
False
>>> print(report.diagnostics[0].format("game.lcn"))
game.lcn:4:19: error[card-elsewhere] Ada cannot hold B2: it is on the blue discard pile...
"""

from .diagnostics import Diagnostic, LCNError, Severity
from .model import GameRecord, Tags, Turn
from .reader import Reader, read_game, read_games, read_headers
from .validate import GameReport, ValidationRun, validate, validate_games, validate_record
from .variants import Variant, find_variant, register_variant, variant_names
from .writer import write_game, write_games

__version__ = "1.0.0"

__all__ = [
    "Diagnostic", "GameRecord", "GameReport", "LCNError", "Reader", "Severity", "Tags", "Turn",
    "ValidationRun", "Variant", "find_variant", "read_game", "read_games", "read_headers",
    "register_variant", "validate", "validate_games", "validate_record", "variant_names",
    "write_game", "write_games",
]
