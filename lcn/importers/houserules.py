"""House rules that play sites and engines use, and how an import says that a game used one.

Records are always validated under the official rules. A game played elsewhere under a
house rule would then fail, or carry a result that does not add up, for no visible reason;
instead the import names the house rule in a diagnostic and in the record's ``HouseRules``
tag, and keeps the official reading of everything else.

Three house rules are known from the engines surveyed in the project's research:

* **no 8-card bonus** — expeditions of 8 or more cards score no 20-point bonus (the
  Metapyziks runner, several hobby engines). Moves stay legal; only scores change, so it
  shows when a source states scores (or a winner) that match the scores without the bonus.
* **taking back the discarded card** — drawing the card one has just discarded (engines
  that forget the rule). The turn breaks rule C-DRAW-NOT-JUST-DISCARDED; the import says
  the source allowed it.
* **equal values allowed** — a card may be placed on one of equal value. With the standard
  deck every number card is unique and wagers may follow wagers anyway, so this rule never
  changes a game of the standard deck; it is listed so that the documentation of each
  format can say whether its source uses it.
"""

from __future__ import annotations

from ..model import GameRecord, Tags
from ..variants.classic import ClassicConfig, ClassicState, score_expedition

NO_BONUS = "no 8-card bonus"
TAKE_BACK = "taking back the discarded card"

#: The tag that names the house rules a game was played by, comma separated.
TAG = "HouseRules"


def scores_without_bonus(state: ClassicState) -> list[int]:
    """The scores of a position as a source without the 8-card bonus counts them."""
    config = ClassicConfig(colours=state.config.colours, values=state.config.values,
                           wagers=state.config.wagers, hand_size=state.config.hand_size,
                           cost=state.config.cost, bonus_length=state.config.bonus_length,
                           bonus=0)
    return [sum(score_expedition(colour, state.expeditions[player][colour], config).points
                for colour in config.colours) for player in range(2)]


def winner(scores: list[int]) -> int | None:
    """The seat (0 or 1) with more points, None for a tie."""
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def insert_tag(record: GameRecord, name: str, value: str,
               before: tuple[str, ...] = ("Hand1", "Hand2", "Deck", "Result")) -> None:
    """Set a tag, placing a new one before the first of ``before`` (deal tags stay last)."""
    if name in record.tags:
        record.tags[name] = value
        return
    items = list(record.tags.items())
    at = next((i for i, (tag, _) in enumerate(items) if tag in before), len(items))
    tags = Tags()
    for tag, text in items[:at]:
        tags[tag] = text
    tags[name] = value
    for tag, text in items[at:]:
        tags[tag] = text
    tags.lines = dict(record.tags.lines)
    record.tags = tags


def add_house_rule(record: GameRecord, rule: str) -> None:
    """Name a house rule in the record's HouseRules tag (once, in the order found)."""
    current = [part.strip() for part in (record.tags.get(TAG) or "").split(",") if part.strip()]
    if rule not in current:
        current.append(rule)
    insert_tag(record, TAG, ", ".join(current))
