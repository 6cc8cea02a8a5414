"""Lost Cities: Roll & Write as one package: the fast core and what a search needs of it.

``core`` holds the full-information state and its step (integer sheets, integer decisions at
the granularity of the next word a player writes, a rule code when a step fails, a simple
heuristic policy); ``sampler`` holds a player's information set (the public position) and
the roller of the dice to come; ``verdict`` reads a record's words into the core's items
for the quick verdict of validation, which plays them on the core. Validation explains a
broken rule with the engine of ``lcn.variants.rollwrite``, which imports ``verdict`` when
first asked for a verdict (this package imports that module's tables, never the other way
round at import); the tests hold the core equal to it.
"""

from .core import MAX_TURNS, RollWriteCore, Rule, heuristic_move, replay, roll_dice, sheet_for
from .sampler import InfoSet, infoset_from_record

__all__ = ["MAX_TURNS", "InfoSet", "RollWriteCore", "Rule", "heuristic_move", "infoset_from_record",
           "replay", "roll_dice", "sheet_for"]
