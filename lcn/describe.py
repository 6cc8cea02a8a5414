"""Each turn of a game told in plain words, and what it changed on the table.

A record says ``R9/d``; a person wants to read "Pia places the red 9 and draws from the draw
pile". Every variant tells its own turns (:meth:`lcn.variants.base.Variant.describe_move`),
from the state before the turn and the turn itself, so this module knows no game: it plays
the record again and asks the variant. A new variant that implements the method is told
here without a change.

>>> told = describe_text('[Player1 "Pia"]\\n[Player2 "Sami"]\\n\\n1. R9/d xB2/d 2. Y3/B *\\n')
>>> [str(t.line) for t in told.values()]
['Pia places the red 9 and draws from the draw pile', 'Sami discards the blue 2 and draws from \
the draw pile', 'Pia places the yellow 3 and takes the blue 2 from the blue discard pile']
>>> told[3].line.said_in("de")
'Pia legt Gelb 3 an und nimmt Blau 2 vom Ablagestapel Blau'
>>> told[3].marks["from"], told[3].marks["placed"], told[3].marks["player"]
('B', 'Y3', 0)

Each :class:`TurnStory` holds the line (a :class:`lcn.messages.Message`, said in English and
in every language with a catalog) and ``marks``: JSON-ready facts a board draws its marks
from (the card placed or discarded, the pile drawn from, an auction's winner and price...).
The words for colours and cards live here too, so that every variant says them alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .games.colours import COLOUR_WORDS, colour_name
from .messages import Message, join, msg

if TYPE_CHECKING:
    from .model import GameRecord
    from .reader import Source



@dataclass(frozen=True, slots=True)
class TurnStory:
    """A turn told: ``line`` says it in words, ``marks`` says what a board marks.

    ``marks`` always has ``player`` (the seat who played the turn, or None when the turn
    is everyone's); the other keys are the variant's own (``docs/site.md`` lists them).
    """

    line: Message
    marks: dict[str, Any] = field(default_factory=dict)

    def to_json(self, language: str | None = None) -> dict[str, Any]:
        """The line in ``language`` (English by default) and the marks."""
        return {"line": self.line.said_in(language), "marks": dict(self.marks)}


def colour_words(letter: str) -> Message:
    """The name of a colour, by its letter (an unknown letter is said as it is written).

    >>> colour_words("R"), colour_words("P").said_in("de"), colour_words("Z")
    ('red', 'Lila', 'Z')
    """
    return colour_name(letter)


def card_words(card: str) -> Message:
    """A card by its full name: ``R9`` is "the red 9", ``Rw`` "a red wager card".

    >>> card_words("R9"), card_words("bW").said_in("de")
    ('the red 9', 'eine Wettkarte Blau')
    """
    colour, face = card[:1], card[1:]
    if face.lower() == "w":
        return msg("a {colour} wager card", colour=colour_words(colour))
    return msg("the {colour} {value}", colour=colour_words(colour), value=face)


def card_name(card: str) -> Message:
    """A card's short name, as a label says it: ``R9`` is "red 9", ``Rw`` "red wager".

    >>> card_name("R9"), card_name("Gw").said_in("de")
    ('red 9', 'Wettkarte Grün')
    """
    colour, face = card[:1], card[1:]
    if face.lower() == "w":
        return msg("{colour} wager", colour=colour_words(colour))
    return msg("{colour} {value}", colour=colour_words(colour), value=face)


def cards_words(cards: list[str]) -> Message:
    """Several cards by name, in a list (``R9``, ``Rw`` → "the red 9, a red wager card")."""
    return join([card_words(card) for card in cards])


def default_story(text: str, player: str | None, seat: int | None) -> TurnStory:
    """What a variant that tells nothing more says: who played which turn, as written."""
    if player is None:
        return TurnStory(msg("{move}", move=text), {"player": None})
    return TurnStory(msg("{player} plays {move}", player=player, move=text), {"player": seat})


def describe_record(record: GameRecord, turns: range | None = None) -> dict[int, TurnStory]:
    """The turns of ``record`` numbered in ``turns`` (1-based; all by default), told.

    The record is played again from its setup; the telling stops at the first turn the
    variant cannot read (the validator says why), and a record of an unknown variant is
    told nothing. Turns after ``turns`` are not played, so a window near the start of a
    long game costs only the turns before it.
    """
    from .variants import find_variant

    variant = find_variant(record.variant_name)
    if variant is None:
        return {}
    wanted = turns if turns is not None else range(1, len(record.turns) + 1)
    last = min(len(record.turns), wanted.stop - 1)
    state, _ = variant.setup(record)
    names = variant.players(record, state)
    told: dict[int, TurnStory] = {}
    for number in range(1, last + 1):
        text = record.turns[number - 1].text
        try:
            move = variant.parse_move(state, text)
        except Exception:  # an unreadable turn ends the replay, as it does in lcn.replay
            break
        if number in wanted:
            try:
                told[number] = variant.describe_move(state, move, names)
            except Exception:  # a turn against the rules may puzzle a teller: show it as written
                seat = variant.current_player(state)
                told[number] = default_story(text, names[seat] if 0 <= seat < len(names)
                                             else None, seat)
        try:
            variant.apply(state, move)
        except Exception:
            break
    return told


def describe_text(text: Source, game: int = 1, turns: range | None = None
                  ) -> dict[int, TurnStory]:
    """The turns of the ``game``-th game (1-based) of a file (text, bytes or a path), told."""
    from .reader import Reader

    for index, record in enumerate(Reader(text), 1):
        if index == game:
            return describe_record(record, turns)
    return {}


__all__ = ["COLOUR_WORDS", "TurnStory", "card_name", "card_words", "cards_words", "colour_words",
           "default_story", "describe_record", "describe_text"]
