"""Lost Cities: Rivals as one package: the fast core and what a search needs of it.

``core`` holds the full-information state and its step, one word of a turn at a time
(integer cards and words, a rule code when a step fails, a simple heuristic player);
``sampler`` holds a player's information set and the dealer of the cards still to be
uncovered. Validation still runs on ``lcn.variants.rivals``; the tests hold this core equal
to it until validation moves here.
"""

from .core import RivalsCore, Rule, Tables, tables_for, turn_words
from .sampler import InfoSet, infoset_from_record, infoset_of_core, seat_view

__all__ = ["InfoSet", "RivalsCore", "Rule", "Tables", "infoset_from_record", "infoset_of_core",
           "seat_view", "tables_for", "turn_words"]
