"""Classic Lost Cities as one package: the fast core and what a search needs of it.

``core`` holds the full-information state and its step (integer cards and moves, a rule
code when a step fails); ``sampler`` holds a player's information set and the dealer of the
cards that player has not seen. Validation still runs on ``lcn.variants.classic``; the
tests hold this core equal to it until validation moves here.
"""

from .core import ClassicCore, Rule, Tables, tables_for
from .sampler import InfoSet, infoset_from_record

__all__ = ["ClassicCore", "InfoSet", "Rule", "Tables", "infoset_from_record", "tables_for"]
