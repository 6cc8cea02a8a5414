"""A seeded random player for classic Lost Cities: plausible, legal games for tests,
samples and benchmarks.

It plays on classic's core (``lcn.games.classic``), the one step validation's quick verdict
and a search play too: the moves it weighs are the core's legal moves, and the position it
weighs them in is the core's. What it keeps of its own is a player's view: the order in
which it holds its cards, which only decides ties, so that a seed gives the same game as
long as the rules do.
"""

from __future__ import annotations

import random

from ..games.classic.core import ClassicCore, tables_for
from ..model import GameRecord, Tags, Turn
from .classic import CLASSIC_5, CLASSIC_6, ClassicConfig, ClassicMove, card_value, format_move

NAMES = ["Ada", "Bo", "Clara", "Dev", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena",
         "Milo", "Nora", "Otto", "Pia", "Quinn", "Rosa", "Sami", "Tove"]


class _View:
    """The core's position, read as the player weighs it: expeditions by colour letter."""

    def __init__(self, core: ClassicCore) -> None:
        self.core = core
        tables = core.tables
        self.legal = set(core.legal_moves())
        self.colours = tables.config.colours
        self.values = tables.config.values

    def cell(self, player: int, colour: str) -> int:
        return player * len(self.colours) + self.colours.index(colour)

    def started(self, player: int, colour: str) -> bool:
        return self.core.exp[self.cell(player, colour)] > 0

    def top(self, player: int, colour: str) -> int:
        """The value of the expedition's highest number card (0: none)."""
        rank = self.core.top[self.cell(player, colour)]
        return self.values[rank - 1] if rank else 0

    def total(self, player: int, colour: str) -> int:
        return self.core.total[self.cell(player, colour)]

    def placeable(self, card: str) -> bool:
        """Whether the player to move may place ``card`` (the core's legal moves say)."""
        tables = self.core.tables
        return tables.encode(tables.ids[card], False, 0) in self.legal

    def fits(self, player: int, card: str) -> bool:
        """Whether ``card`` would rise on ``player``'s started expedition of its colour: what
        a discard pile's top card is worth taking for, and what the other player could do
        with a card (a judgement of cards not in the hand, not a move)."""
        return self.started(player, card[0]) and self.core.fits(player, self.core.tables.ids[card])


def _plan(view: _View, hand: list[str], rng: random.Random, skill: float) -> ClassicMove:
    """Choose a turn: sensible most of the time, random some of the time."""
    core = view.core
    player = core.player
    other = player ^ 1
    late = len(core.pile) < core.tables.config.total_cards // 4
    best: tuple[float, str, bool] | None = None
    for card in hand:
        colour = card[0]
        started = view.started(player, colour)
        top = view.top(player, colour)
        same = [c for c in hand if c[0] == colour]
        numbers = [card_value(c) for c in same if c[1] != "w"]
        potential = sum(numbers) + view.total(player, colour)
        lower = sum(1 for v in numbers if card[1] != "w" and top < v < card_value(card))
        placeable = view.placeable(card)
        if placeable:
            if started:
                gap = card_value(card) - top - 1 if card[1] != "w" else 0
                value: float = 9 - gap - 3 * lower
            elif card[1] == "w":
                value = (potential - 14) / 2 + 2 * len(same) - 4 - (20 if late else 0)
            else:
                value = (potential - 12) / 2 + 2 * len(same) - 3 * lower - (12 if late else 0)
            value += rng.random() * 2
            if best is None or value > best[0]:
                best = (value, card, False)
        dead = started and not placeable
        useful_to_them = view.fits(other, card)
        dvalue = (6 if dead else 0) - (5 if useful_to_them else 0) - card_value(card) / 3
        dvalue -= 3 if card[1] == "w" and not started and not late else 0
        dvalue += rng.random() * 2 - 1
        if best is None or dvalue > best[0]:
            best = (dvalue, card, True)
    assert best is not None
    _, card, discard = best
    if rng.random() > skill:
        card = rng.choice(hand)
        discard = not view.placeable(card) or rng.random() < 0.5
    # Draw: a useful discard-pile top, otherwise the draw pile.
    draw = "d"
    options = []
    names = core.tables.names
    piles = {colour: core.piles[index] for index, colour in enumerate(view.colours)}
    for colour, pile in piles.items():
        if not pile or (discard and colour == card[0]):
            continue
        shown = names[pile[-1]]
        if view.fits(player, shown) and card_value(shown) - view.top(player, colour) <= 4:
            options.append(colour)
    if options and rng.random() < 0.8 * skill + 0.1:
        draw = rng.choice(options)
    elif rng.random() > skill:
        choices = [c for c, p in piles.items() if p and not (discard and c == card[0])]
        if choices and rng.random() < 0.3:
            draw = rng.choice(choices)
    return ClassicMove(discard, card, draw)


def random_game(seed: int, *, expeditions: int = 5, skill: float = 0.85,
                names: tuple[str, str] | None = None, config: ClassicConfig | None = None,
                reveal_draws: bool = False) -> GameRecord:
    """A complete legal game with the full deal in its tags, the same for the same seed.

    ``reveal_draws`` writes each card drawn from the draw pile (``/d=R5``).
    """
    rng = random.Random(seed)
    if config is None:
        config = CLASSIC_6 if expeditions == 6 else CLASSIC_5
    cards = config.all_cards()
    rng.shuffle(cards)
    size = config.hand_size
    hands = [cards[:size], cards[size:2 * size]]
    deck = cards[2 * size:]
    tables = tables_for(config)
    core = ClassicCore(tables, [[tables.ids[c] for c in hand] for hand in hands],
                       [tables.ids[c] for c in reversed(deck)])
    held = [list(hand) for hand in hands]  # each player's cards, in the order they hold them
    if names is None:
        first, second = rng.sample(NAMES, 2)
        names = (first, second)
    tags = Tags()
    tags["Event"] = "Casual game"
    tags["Site"] = "Kitchen table"
    tags["Date"] = f"2026.{rng.randint(1, 11):02d}.{rng.randint(1, 28):02d}"
    tags["Player1"], tags["Player2"] = names
    if expeditions == 6:
        tags["Expeditions"] = "6"
    tags["Hand1"] = " ".join(hands[0])
    tags["Hand2"] = " ".join(hands[1])
    tags["Deck"] = " ".join(deck)
    record = GameRecord(tags=tags)
    while not core.is_over():
        hand = held[core.player]
        move = _plan(_View(core), hand, rng, skill)
        if move.draw == "d":
            drawn = tables.names[core.pile[-1]]
            if reveal_draws:
                move = move._replace(drawn=drawn)
        else:
            drawn = tables.names[core.piles[config.colours.index(move.draw)][-1]]
        refused = core.step(tables.move(format_move(move._replace(drawn=None))))
        assert not refused, f"the player chose a move the rules refuse: {format_move(move)}"
        hand.remove(move.card)
        hand.append(drawn)
        record.turns.append(Turn(format_move(move)))
    result = ":".join(str(total) for total in core.score())
    record.tags["Result"] = result
    record.termination = result
    return record


def strip_deal(record: GameRecord, keep: int | None = None, *,
               config: ClassicConfig | None = None) -> GameRecord:
    """The same game without its deal: no deal tags, or only player ``keep``'s view (0 or 1).

    A kept player's hand stays in its tag (in its place among the tags) and their draws from
    the draw pile name the card (``/d=R5``); every other draw becomes a plain ``/d``, as
    another player would have seen it. Comments and glyphs are kept as written.

    Raises ValueError, saying why, when the record has no deal to strip, when a kept view
    cannot be written (the player's ``Hand`` tag is missing, or one of their draws from the
    draw pile names no card and no ``Deck`` tag gives it), or when a turn or a deal tag cannot
    be read. ``config`` fixes the card set; by default the ``Expeditions`` tag decides.

    >>> from lcn import write_game
    >>> game = random_game(5)
    >>> view = strip_deal(game, keep=0)
    >>> [name for name in view.tags if name in ("Hand1", "Hand2", "Deck")]
    ['Hand1']
    >>> write_game(view).count("/d=") == sum(t.text.endswith("/d") for t in game.turns[::2])
    True
    """
    from .base import MoveSyntaxError
    from .classic import parse_cards
    from .classic import parse_move as parse

    deal_tags = ("Hand1", "Hand2", "Deck")
    if config is None:
        config = CLASSIC_6 if (record.tags.get("Expeditions") or "5").strip() == "6" else CLASSIC_5
    deck: list[str] = []
    text = record.tags.get("Deck")
    if text is not None:
        try:
            deck = parse_cards(text, config)
        except MoveSyntaxError as exc:
            raise ValueError(f"the Deck tag cannot be read: {exc.message}") from exc
    kept = None if keep is None else f"Hand{keep + 1}"
    if keep is not None and kept not in record.tags:
        raise ValueError(f"no {kept} tag: a player's view keeps their starting hand, and the "
                         "record does not give it")
    tags = Tags()
    for name, value in record.tags.items():
        if name not in deal_tags or name == kept:
            tags[name] = value
    out = GameRecord(tags=tags, intro_comments=list(record.intro_comments),
                     termination=record.termination, closing_comments=list(record.closing_comments))
    has_deal = any(name in record.tags for name in deal_tags)
    drawn = 0
    for index, turn in enumerate(record.turns):
        try:
            move = parse(turn.text, config)
        except MoveSyntaxError as exc:
            raise ValueError(f"turn {index + 1} (`{turn.text}`) cannot be read: "
                             f"{exc.message}") from exc
        if move.draw == "d":
            has_deal |= move.drawn is not None
            card = move.drawn or (deck[drawn] if drawn < len(deck) else None)
            drawn += 1
            if keep is not None and index % 2 == keep:
                if card is None:
                    raise ValueError(
                        f"turn {index + 1} (`{turn.text}`): the card drawn from the draw pile is "
                        f"not known (no Deck tag, no `/d=<card>`), so Player{keep + 1}'s view "
                        "cannot name it")
                move = move._replace(drawn=card)
            else:
                move = move._replace(drawn=None)
        out.turns.append(Turn(format_move(move), number=None, glyphs=list(turn.glyphs),
                              comments=list(turn.comments)))
    if not has_deal:
        raise ValueError("the record has no deal to strip (no Hand1, Hand2 or Deck tag, no "
                         "`/d=<card>`)")
    return out
