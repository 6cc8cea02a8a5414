"""A seeded random player for Lost Cities: Rivals: plausible, legal games for tests and samples.

It plays on Rivals' core (``lcn.games.rivals``), the one step validation's quick verdict and
a search play too: every word it writes is a word the core takes, the display it weighs and
the gold it bids with are the core's, whether a card would fit a player's expedition is the
core's to say, and so are the returns of useless cards to the box, the share-outs and the
score. What it keeps of its own is what a player values, so that a seed gives the same game
as long as the rules do.

The players are simple but not silly: each values the display by the footprints it would add
to their expeditions (times their wagers, with the eight-point bonus in view, less the lower
cards a high card would shut out), bids up to a part of that value, places the cards that
pay, and returns to the box the card an opponent wants most.
"""

from __future__ import annotations

import random

from ..games.rivals.core import AMOUNTS, BID, BOX, CALLS, FOOT_OF, MORE, PASS, PLACE, TO_BOX, WON, RivalsCore
from ..model import GameRecord, Tags, Turn
from .rivals import (
    BONUS_NUMBERS,
    BONUS_POINTS,
    COLOURS,
    PILE_COUNT,
    START_WAGER_COPIES,
    TOTAL_CARDS,
    all_cards,
)

NAMES = ["Ada", "Bo", "Clara", "Dev", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena",
         "Milo", "Nora", "Otto", "Pia", "Quinn", "Rosa", "Sami", "Tove"]

#: ``_SHUT_OUT[card][top]``: the footprints of the numbers of the card's colour, one of each,
#: that placing it on an expedition topped by rank ``top`` passes over: what a player fears
#: to lose by a high card (the core's cards, ``colour * 10 + rank``; rank ``r`` is the number
#: ``r + 1``). One of each, not every copy: the weight these players have always given it.
_SHUT_OUT = [[sum(FOOT_OF[card - card % 10 + rank] for rank in range(max(top, 1), card % 10))
              for top in range(10)] for card in range(10 * len(COLOURS))]


def _card_gain(core: RivalsCore, player: int, card: int, top: int, wagers: int,
               numbers: int) -> float:
    """What placing one card is worth to a player, given the expedition as it would stand
    after the cards planned before it (``top`` a rank); the card fits (the core says so)."""
    left = 1 - (TOTAL_CARDS - len(core.deck)) / TOTAL_CARDS
    rank = card % 10
    if not rank:
        # A wager pays only if enough footprints follow: worth more early and on a started column.
        return 7 * left - 2.5 + 1.5 * wagers
    gain: float = FOOT_OF[card] * (1 + wagers)
    if numbers == BONUS_NUMBERS - 1:
        gain += BONUS_POINTS * (0.5 + left / 2)
    return gain - 0.35 * _SHUT_OUT[card][top] * (1 + wagers) * left


def _plan(core: RivalsCore, player: int, cards: list[int]) -> tuple[float, list[int]]:
    """The cards a player would place from ``cards`` and their worth, colour by colour, each
    colour's lowest first (so that the core takes them in that order).

    Whether a card fits is judged on the expedition as it stands: taken lowest first, the
    cards planned before one never make it unfit, only change what it is worth.
    """
    total = 0.0
    chosen: list[int] = []
    colour = -1
    top = wagers = numbers = 0
    for card in sorted(cards):
        if card // 10 != colour:
            colour = card // 10
            cell = player * 5 + colour
            top, wagers, numbers = core.tops[cell], core.wagers[cell], core.numbers[cell]
        if not core.fits(player, card):
            continue
        gain = _card_gain(core, player, card, top, wagers, numbers)
        if gain <= 0.4:
            continue
        total += gain
        chosen.append(card)
        if card % 10:
            top = card % 10
            numbers += 1
        else:
            wagers += 1
    return total, chosen


def _limit(core: RivalsCore, player: int, rng: random.Random, skill: float) -> int:
    """The most a player would bid for the display: a part of its worth, within their gold."""
    worth, _ = _plan(core, player, core.display)
    price = worth * (0.45 + 0.3 * rng.random())
    if rng.random() > skill:
        price = worth * rng.random() * 1.2  # a misjudgement, one way or the other
    return max(0, min(core.gold[player], int(price)))


def _deal_wagers(rng: random.Random, players: int) -> list[list[str]]:
    """Two starting wagers of different colours per player, from the ten starting cards."""
    while True:
        cards = [c + "w" for c in COLOURS for _ in range(START_WAGER_COPIES)]
        rng.shuffle(cards)
        hands = [cards[2 * p:2 * p + 2] for p in range(players)]
        if all(h[0] != h[1] for h in hands):
            return [sorted(h, key=lambda card: COLOURS.index(card[0])) for h in hands]


class _Turn:
    """A turn's words as the core writes them, each played on the core as it is written."""

    def __init__(self, core: RivalsCore) -> None:
        self.core = core
        self.words: list[str] = []

    def play(self, move: int) -> None:
        if not self.attempt(move):
            raise AssertionError(f"the player chose a word the rules refuse: {self.core.word(move)}")

    def attempt(self, move: int) -> bool:
        """Write ``move`` if the core takes it; whether it did (a refused word changes nothing)."""
        if self.core.step(move):
            return False
        word = self.core.word(move)
        if MORE <= move < BOX:
            self.words[-1] += word  # ``place:R4`` then ``,R7``: one word as written
        else:
            self.words.append(word)
        return True


def _auction(core: RivalsCore, turn: _Turn, limit: int, rng: random.Random, skill: float) -> None:
    """Open an auction and call it to its end; the winner places, and perhaps returns a card."""
    player = core.player
    turn.play(BID + player * AMOUNTS + (1 if rng.random() < 0.7 else min(limit, 2)))
    while core.phase == CALLS:
        seat = core.expected
        want = _limit(core, seat, rng, skill)
        high = core.high
        if want > high:
            turn.play(BID + seat * AMOUNTS + min(want, high + (1 if rng.random() < 0.8 else 2)))
        else:
            turn.play(PASS + seat)
    assert core.phase == WON
    winner = core.leader
    _, chosen = _plan(core, winner, core.display)
    for index, card in enumerate(chosen):
        turn.play((MORE if index else PLACE) + card)
    threat, target = 0.0, None
    for card in core.display:
        for other in range(core.players):
            if other != winner:
                worth, _ = _plan(core, other, [card])
                if worth > threat:
                    threat, target = worth, card
    if target is not None and threat >= 2.5 and rng.random() < skill:
        turn.play(BOX + target)


def random_game(seed: int, *, players: int = 2, skill: float = 0.85,
                names: list[str] | None = None, piles: bool = True,
                annotate: bool = True) -> GameRecord:
    """A complete legal game, the same for the same seed.

    ``piles`` writes the pile order in the tags; ``annotate`` writes what the rules decide by
    themselves (a useless card going to the box, ``>box``; the share-out when a pile runs out,
    ``share:``/``rest:``), which the validator then checks.
    """
    if not 2 <= players <= 4:
        raise ValueError("Lost Cities: Rivals is for 2-4 players")
    rng = random.Random(seed)
    cards = all_cards()
    rng.shuffle(cards)
    size = TOTAL_CARDS // PILE_COUNT
    stacks = [cards[i * size:(i + 1) * size] for i in range(PILE_COUNT)]
    if names is None:
        names = rng.sample(NAMES, players)
    wagers = _deal_wagers(rng, players)
    core = RivalsCore.deal(names, wagers, stacks)
    tags = Tags()
    tags["Event"] = "Casual game"
    tags["Site"] = "Kitchen table"
    tags["Date"] = f"2026.{rng.randint(1, 11):02d}.{rng.randint(1, 28):02d}"
    tags["Variant"] = "rivals"
    for seat, name in enumerate(names):
        tags[f"Player{seat + 1}"] = name
    for seat in range(players):
        tags[f"Wagers{seat + 1}"] = " ".join(wagers[seat])
    if piles:
        for index, stack in enumerate(stacks):
            tags[f"Pile{index + 1}"] = " ".join(stack)
    record = GameRecord(tags=tags)
    while not core.is_over():
        turn = _Turn(core)
        limit = _limit(core, core.player, rng, skill) if core.display else 0
        if limit >= 1:
            _auction(core, turn, limit, rng, skill)
        # The uncover: written with ``>box`` where the core takes that (nobody can use the card).
        up = core.deck[-1]
        pile, gold = core.pile, core.gold[0]
        if not (annotate and turn.attempt(TO_BOX + up)):
            turn.play(up)
        if annotate and core.pile != pile:
            turn.words += [f"share:{core.gold[0] - gold}", f"rest:{core.supply}"]
        record.turns.append(Turn(" ".join(turn.words)))
    result = ":".join(str(total) for total in core.score())
    record.tags["Result"] = result
    record.termination = result
    return record


def strip_piles(record: GameRecord) -> GameRecord:
    """The same game without the pile order: what a record made at the table usually is."""
    tags = Tags()
    for name, value in record.tags.items():
        if name not in ("Pile1", "Pile2", "Pile3", "Pile4"):
            tags[name] = value
    return GameRecord(tags=tags, intro_comments=list(record.intro_comments),
                      turns=[Turn(t.text, glyphs=list(t.glyphs), comments=list(t.comments))
                             for t in record.turns],
                      termination=record.termination,
                      closing_comments=list(record.closing_comments))
