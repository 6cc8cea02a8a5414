"""Lost Cities: Rivals as one package: the fast core, the quick verdict, what a search needs.

``core`` holds the full-information state and its step, one word of a turn at a time
(integer cards and words, a rule code when a step fails, a simple heuristic player), and
the replay of a record that does not show every pile; ``verdict`` reads a record's words
into the core's moves for the quick verdict of validation; ``sampler`` holds a player's
information set and the dealer of the cards still to be uncovered.

The core stands on the engine that explains broken rules (``lcn.variants.rivals``), which
asks ``verdict`` for its quick verdict when it first needs one; ``sampler`` replays records
on that engine, and its names are imported here when first asked for, so that importing
the core never waits on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import PartialCore, RivalsCore, Rule, Tables, tables_for, turn_words

if TYPE_CHECKING:
    from .sampler import InfoSet, infoset_from_record, infoset_of_core, seat_view

_SAMPLER = ("InfoSet", "infoset_from_record", "infoset_of_core", "seat_view")


def __getattr__(name: str) -> Any:
    if name in _SAMPLER:
        from . import sampler

        return getattr(sampler, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["InfoSet", "PartialCore", "RivalsCore", "Rule", "Tables", "infoset_from_record",
           "infoset_of_core", "seat_view", "tables_for", "turn_words"]
