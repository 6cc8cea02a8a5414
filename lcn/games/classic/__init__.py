"""Classic Lost Cities as one package: its cards, the fast core, and what a search needs of it.

``cards`` holds the card sets and the words of turns; ``core`` the state and its step
(integer cards and moves, a rule code when a step fails), with everything known or with the
places a record leaves unknown; ``verdict`` reads a record's words into the core's moves for
the quick verdict of validation; ``sampler`` holds a player's information set and the
dealer of the cards that player has not seen.

``sampler`` replays records on the engine that explains broken rules
(``lcn.variants.classic``), which itself stands on ``cards`` and ``verdict``: its names are
imported here when first asked for, so that importing the engine never waits on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import UNKNOWN, ClassicCore, Rule, Tables, tables_for

if TYPE_CHECKING:
    from .sampler import InfoSet, infoset_from_record


def __getattr__(name: str) -> Any:
    if name in ("InfoSet", "infoset_from_record"):
        from . import sampler

        return getattr(sampler, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["UNKNOWN", "ClassicCore", "InfoSet", "Rule", "Tables", "infoset_from_record", "tables_for"]
