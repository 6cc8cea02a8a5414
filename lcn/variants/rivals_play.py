"""A seeded random player for Lost Cities: Rivals: plausible, legal games for tests and samples.

It keeps its own small simulation of the table (piles as lists, gold as numbers) instead of
calling the engine, so that a game it produces is an independent check of the validator:
every game must validate, and the written share-outs and returns to the box must agree with
what the engine computes.

The players are simple but not silly: each values the display by the footprints it would add
to their expeditions (times their wagers, with the eight-point bonus in view, less the lower
cards a high card would shut out), bids up to a part of that value, places the cards that
pay, and returns to the box the card an opponent wants most.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..model import GameRecord, Tags, Turn
from .rivals import (
    BONUS_NUMBERS,
    BONUS_POINTS,
    COLOURS,
    PILE_COUNT,
    START_WAGER_COPIES,
    TOTAL_CARDS,
    TOTAL_GOLD,
    Bid,
    Item,
    RivalsMove,
    all_cards,
    card_value,
    footprints,
    format_move,
    player_tokens,
)

NAMES = ["Ada", "Bo", "Clara", "Dev", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena",
         "Milo", "Nora", "Otto", "Pia", "Quinn", "Rosa", "Sami", "Tove"]


@dataclass
class _Table:
    players: int
    piles: list[list[str]]
    gold: list[int]
    exps: list[dict[str, list[str]]]
    display: list[str] = field(default_factory=list)
    supply: int = 0
    pile: int = 0
    uncovered: int = 0

    def top(self, player: int, colour: str) -> int:
        return max((card_value(c) for c in self.exps[player][colour]), default=0)

    def can_use(self, player: int, card: str) -> bool:
        top = self.top(player, card[0])
        return top == 0 if card[1:] == "w" else card_value(card) >= top


def _card_gain(table: _Table, player: int, card: str, top: int, wagers: int, numbers: int) -> float:
    """What placing one card is worth to a player, given the expedition as it would stand."""
    left = 1 - table.uncovered / TOTAL_CARDS
    if card[1:] == "w":
        if top:
            return -99.0
        # A wager pays only if enough footprints follow: worth more early and on a started column.
        return 7 * left - 2.5 + 1.5 * wagers
    value = card_value(card)
    if value < top:
        return -99.0
    gain: float = footprints(card) * (1 + wagers)
    if numbers == BONUS_NUMBERS - 1:
        gain += BONUS_POINTS * (0.5 + left / 2)
    low = max(top, 2)
    shut_out = sum(footprints(f"{card[0]}{v}") for v in range(low, value))
    return gain - 0.35 * shut_out * (1 + wagers) * left


def _plan(table: _Table, player: int, cards: list[str]) -> tuple[float, list[str]]:
    """The cards a player would place from ``cards`` and their worth, colour by colour."""
    total = 0.0
    chosen: list[str] = []
    for colour in COLOURS:
        mine = [c for c in cards if c[0] == colour]
        if not mine:
            continue
        exp = table.exps[player][colour]
        top = table.top(player, colour)
        wagers = sum(1 for c in exp if c[1:] == "w")
        numbers = len(exp) - wagers
        for card in sorted(mine, key=card_value):
            gain = _card_gain(table, player, card, top, wagers, numbers)
            if gain <= 0.4:
                continue
            total += gain
            chosen.append(card)
            if card[1:] == "w":
                wagers += 1
            else:
                top = card_value(card)
                numbers += 1
    return total, chosen


def _limit(table: _Table, player: int, rng: random.Random, skill: float) -> int:
    worth, _ = _plan(table, player, table.display)
    price = worth * (0.45 + 0.3 * rng.random())
    if rng.random() > skill:
        price = worth * rng.random() * 1.2  # a misjudgement, one way or the other
    return max(0, min(table.gold[player], int(price)))


def _uncover(table: _Table, annotate: bool) -> tuple[str, bool, int | None, int | None]:
    """Turn over the top card; the card, whether it went to the box, and any share-out."""
    card = table.piles[table.pile].pop(0)
    table.uncovered += 1
    useless = not any(table.can_use(p, card) for p in range(table.players))
    if not useless:
        table.display.append(card)
    share = rest = None
    if not table.piles[table.pile] and table.pile < PILE_COUNT - 1:
        each, left = divmod(table.supply, table.players)
        for seat in range(table.players):
            table.gold[seat] += each
        table.supply = left
        table.pile += 1
        if annotate:
            share, rest = each, left
    return card, useless and annotate, share, rest


def _deal_wagers(rng: random.Random, players: int) -> list[list[str]]:
    """Two starting wagers of different colours per player, from the ten starting cards."""
    while True:
        cards = [c + "w" for c in COLOURS for _ in range(START_WAGER_COPIES)]
        rng.shuffle(cards)
        hands = [cards[2 * p:2 * p + 2] for p in range(players)]
        if all(h[0] != h[1] for h in hands):
            return [sorted(h, key=lambda card: COLOURS.index(card[0])) for h in hands]


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
    tokens = player_tokens(names)
    wagers = _deal_wagers(rng, players)
    table = _Table(players, [list(s) for s in stacks], [TOTAL_GOLD // players] * players,
                   [{c: [w for w in wagers[p] if w[0] == c] for c in COLOURS} for p in range(players)])
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
    player = 0
    while table.uncovered < TOTAL_CARDS:
        bids: list[Bid] = []
        place: list[Item] = []
        box: Item | None = None
        limit = _limit(table, player, rng, skill) if table.display else 0
        if limit >= 1 and table.gold[player] >= 1:
            opening = 1 if rng.random() < 0.7 else min(limit, 2)
            bids.append(Bid(player, opening, tokens[player], 0, 0))
            high, winner = opening, player
            active = list(range(players))
            seat = player
            while len(active) > 1:
                seat = next((seat + s) % players for s in range(1, players + 1)
                            if (seat + s) % players in active)
                if seat == winner:
                    break
                want = _limit(table, seat, rng, skill)
                if want > high:
                    raise_to = min(want, high + (1 if rng.random() < 0.8 else 2))
                    bids.append(Bid(seat, raise_to, tokens[seat], 0, 0))
                    high, winner = raise_to, seat
                else:
                    bids.append(Bid(seat, None, tokens[seat], 0, 0))
                    active.remove(seat)
            table.gold[winner] -= high
            table.supply += high
            _, chosen = _plan(table, winner, table.display)
            for card in chosen:
                table.display.remove(card)
                table.exps[winner][card[0]].append(card)
                place.append(Item(card, 0, 0))
            threat, target = 0.0, None
            for card in table.display:
                for other in range(players):
                    if other != winner:
                        worth, _ = _plan(table, other, [card])
                        if worth > threat:
                            threat, target = worth, card
            if target is not None and threat >= 2.5 and rng.random() < skill:
                table.display.remove(target)
                box = Item(target, 0, 0)
            next_player = (winner + 1) % players
        else:
            next_player = (player + 1) % players
        card, boxed, share, rest = _uncover(table, annotate)
        move = RivalsMove(tuple(bids), tuple(place), box, Item(card, 0, 0), boxed,
                          None if share is None else Item(share, 0, 0),
                          None if rest is None else Item(rest, 0, 0))
        record.turns.append(Turn(format_move(move)))
        player = next_player
    from ..validate import validate_record

    report = validate_record(record)
    assert report.score is not None
    result = ":".join(str(t) for t in report.score.totals)
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
