"""Classic Lost Cities' cards and turns as words: the card sets, and reading and writing a turn.

These are the facts every other part of the game stands on (the fast core, the engine that
explains a broken rule, the random players, the search), so they live apart from all of
them and import none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ...messages import msg
from ...variants.base import MoveSyntaxError
from ..colours import colour_names

#: The colours' names, as messages so that a sentence naming one is translated with it.
COLOUR_NAMES: dict[str, str] = colour_names("YBWGRPO")


@dataclass(frozen=True, slots=True)
class ClassicConfig:
    """The card set and the numbers of a classic game (small ones serve exhaustive tests)."""

    colours: str = "YBWGR"
    values: tuple[int, ...] = tuple(range(2, 11))
    wagers: int = 3
    hand_size: int = 8
    cost: int = 20
    bonus_length: int = 8
    bonus: int = 20

    def __hash__(self) -> int:
        # Each game looks its caches up by its config: hashing the colours alone is cheap,
        # and equal configs have equal colours, which is all a hash needs.
        return hash(self.colours)

    @property
    def total_cards(self) -> int:
        return len(self.colours) * (len(self.values) + self.wagers)

    @property
    def pile_size(self) -> int:
        """Cards in the draw pile after the deal: the game ends on the draw of the last."""
        return self.total_cards - 2 * self.hand_size

    def all_cards(self) -> list[str]:
        """Every card of the game, wager copies repeated, in colour order."""
        cards: list[str] = []
        for colour in self.colours:
            cards.extend([colour + "w"] * self.wagers)
            cards.extend(f"{colour}{value}" for value in self.values)
        return cards


CLASSIC_5 = ClassicConfig()
CLASSIC_6 = ClassicConfig(colours="YBWGRP")


class ClassicMove(NamedTuple):
    """A turn: place ``card`` (on the discard pile when ``discard``), then draw.

    ``draw`` is ``"d"`` for the draw pile or a colour letter for that discard pile;
    ``drawn`` is the card drawn from the draw pile when the record says it (``/d=R5``).
    """

    discard: bool
    card: str
    draw: str
    drawn: str | None = None


def card_value(card: str) -> int:
    """The number on a card; 0 for a wager."""
    rank = card[1:]
    return 0 if rank == "w" else int(rank)


def parse_card(text: str, config: ClassicConfig, offset: int = 0) -> str:
    """The canonical form of a card token (``r7`` → ``R7``, ``rW`` → ``Rw``)."""
    if not text:
        raise MoveSyntaxError(msg("expected a card (a colour letter and 2-10 or `w`)"), offset)
    colour = text[0].upper()
    if colour not in COLOUR_NAMES:
        raise MoveSyntaxError(
            msg("unknown colour `{text}`: expected one of {colours}",
                text=text[0], colours=" ".join(config.colours)),
            offset, 1, code="bad-card", rule="C-SETUP-CARDS")
    if colour not in config.colours:
        extra = msg(' ([Expeditions "6"] adds it)') if colour == "P" else ""
        raise MoveSyntaxError(
            msg("no {colour} expedition in a {count}-expedition game{extra}",
                colour=COLOUR_NAMES[colour], count=len(config.colours), extra=extra),
            offset, len(text), code="bad-card", rule="C-SETUP-CARDS")
    rank = text[1:]
    if rank in ("w", "W"):
        return colour + "w"
    if rank.isascii() and rank.isdigit() and len(rank) <= 2 and int(rank) in config.values \
            and not rank.startswith("0"):
        return f"{colour}{int(rank)}"
    low, high = config.values[0], config.values[-1]
    raise MoveSyntaxError(
        msg("unknown card `{text}`: a card is a colour and a value {low}-{high}, or `w` for a wager",
            text=text, low=low, high=high),
        offset, len(text), code="bad-card", rule="C-SETUP-CARDS")


#: Each card set's cards in canonical form, which parse to themselves: the deal tags of
#: every game repeat them, so most words are found here without parsing.
_CANONICAL: dict[ClassicConfig, dict[str, str]] = {}


def parse_cards(text: str, config: ClassicConfig) -> list[str]:
    """A space-separated list of cards (the deal tags)."""
    canonical = _CANONICAL.get(config)
    if canonical is None:
        canonical = _CANONICAL[config] = {card: card for card in config.all_cards()}
    return [canonical.get(word) or parse_card(word, config) for word in text.split()]


#: Parsed moves per card set. A game has few distinct turn texts, so a bounded cache saves
#: parsing them again; a state keeps its card set's cache to skip hashing the config. The
#: bound holds every canonical turn of a card set, not every spelling a file may hold.
_PARSE_CACHE: dict[ClassicConfig, dict[str, ClassicMove]] = {}
_CACHED_MOVES = 16_384


def move_cache(config: ClassicConfig) -> dict[str, ClassicMove]:
    """The parsed-move cache of a card set."""
    cache = _PARSE_CACHE.get(config)
    if cache is None:
        cache = _PARSE_CACHE[config] = {}
    return cache


def parse_move(text: str, config: ClassicConfig = CLASSIC_5) -> ClassicMove:
    """Parse ``[x]CARD/DRAW`` leniently (any case), or raise with what was expected."""
    cache = move_cache(config)
    cached = cache.get(text)
    if cached is not None:
        return cached
    slash = text.find("/")
    if slash < 0:
        try:
            parse_card(text[1:] if text[:1] in ("x", "X") else text, config)
        except MoveSyntaxError:
            raise MoveSyntaxError(
                msg("`{text}` is not a turn: expected a card, `/` and a draw (`R7/d`, `xR7/G`)", text=text),
                0, len(text)) from None
        raise MoveSyntaxError(
            msg("`{text}` places a card but draws none: a turn is a placement, `/` and a draw "
                "(`{text}/d`, or `/` and a discard pile's colour)", text=text), len(text), 1,
            rule="C-TURN-PLACE-THEN-DRAW")
    left, right = text[:slash], text[slash + 1:]
    if left in ("", "x", "X"):
        raise MoveSyntaxError(
            msg("`{text}` draws without placing a card first: a turn is a placement (a card, or `x` "
                "and a card to discard), `/` and a draw", text=text), len(left), 1,
            rule="C-TURN-PLACE-THEN-DRAW")
    if not right:
        raise MoveSyntaxError(
            msg("`{text}` places a card but draws none: expected `d` (the draw pile) or a discard "
                "pile's colour after `/`",
                text=text), slash, 1, code="bad-draw", rule="C-TURN-PLACE-THEN-DRAW")
    discard = left[:1] in ("x", "X")
    card = parse_card(left[1:] if discard else left, config, 1 if discard else 0)
    drawn = None
    if right in ("d", "D"):
        draw = "d"
    elif right[:2] in ("d=", "D="):
        draw = "d"
        drawn = parse_card(right[2:], config, slash + 3)
    elif len(right) == 1 and right.upper() in config.colours:
        draw = right.upper()
    elif len(right) == 1 and right.upper() in COLOUR_NAMES:
        raise MoveSyntaxError(
            msg("no {colour} discard pile in a {count}-expedition game",
                colour=COLOUR_NAMES[right.upper()], count=len(config.colours)),
            slash + 1, 1, code="bad-draw", rule="C-DRAW-SOURCE")
    else:
        raise MoveSyntaxError(
            msg("unknown draw `/{right}`: expected `/d` (draw pile), `/d=<card>` or `/<colour>` (a "
                "discard pile)", right=right), slash, len(right) + 1, code="bad-draw", rule="C-DRAW-SOURCE")
    move = ClassicMove(discard, card, draw, drawn)
    if len(cache) < _CACHED_MOVES:
        cache[text] = move
    return move


def format_move(move: ClassicMove) -> str:
    """The canonical text of a move (``xR7/d=G5``)."""
    draw = move.draw if move.drawn is None else f"d={move.drawn}"
    return f"{'x' if move.discard else ''}{move.card}/{draw}"
