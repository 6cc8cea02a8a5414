"""What one player knows of a classic game, and a dealer of the cards that player has not seen.

A search decides for a player who sees only part of the deal: it plays its turns on full
states dealt consistently with what that player saw (the "determinisations" of a search
over information sets). That player knows their own hand, the table (expeditions and
discard piles, which are public), how many cards the other hand and the draw pile hold,
and which cards the other player took from a discard pile and has not played since. Every
other card is *unseen*, and any arrangement of the unseen cards over the other hand's
remaining places and the draw pile is a deal under which the game so far happened
(``docs/hidden-information.md``: the unknown slots of a hand and the undrawn pile take the
unseen cards in any combination). A uniformly shuffled deck makes every such arrangement of
the physical cards equally likely, so :meth:`InfoSet.sample` shuffles the unseen cards and
deals them out; ``tests/test_classic_core.py`` compares it with every deal of tiny decks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...diagnostics import Severity
from ...messages import Message, msg
from ...model import GameRecord
from ...variants.classic import ClassicConfig, ClassicState, ClassicVariant
from ...variants.classic_play import strip_deal
from ..colours import colour_name
from .core import EXPEDITION_VALUE, EXPEDITION_WAGER, ClassicCore, Rule, Tables, tables_for


@dataclass(frozen=True, slots=True)
class InfoSet:
    """One player's knowledge at a position: nothing in it depends on cards they did not see.

    Cards are the core's integers (:mod:`lcn.games.classic.core`); the expedition tuples
    are indexed ``player * C + colour`` as in :class:`ClassicCore`.
    """

    config: ClassicConfig
    #: The player whose knowledge this is (0 or 1).
    seat: int
    #: The player to move, and the turns played so far.
    player: int
    turn: int
    #: The seat's own hand, sorted.
    hand: tuple[int, ...]
    #: Cards certainly in the other hand: taken from a discard pile and not played since.
    known: tuple[int, ...]
    #: The other hand's places whose card the seat has not seen.
    hidden: int
    #: Cards left in the draw pile.
    pile_size: int
    top: tuple[int, ...]
    count: tuple[int, ...]
    wagers: tuple[int, ...]
    total: tuple[int, ...]
    #: Each colour's discard pile, bottom first.
    piles: tuple[tuple[int, ...], ...]
    #: The cards the seat has not seen, sorted: they fill ``hidden`` places and the pile.
    unseen: tuple[int, ...]
    #: The card set's tables (``tables_for(config)``), kept to deal without a look-up.
    tables: Tables = field(compare=False, repr=False)
    #: The expeditions' accounts as the core holds them, made once for every deal.
    exp: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.unseen) != self.hidden + self.pile_size:
            raise ValueError(f"{len(self.unseen)} unseen cards cannot fill {self.hidden} places "
                             f"in the other hand and {self.pile_size} in the draw pile")
        if self.tables.config != self.config:
            raise ValueError("the tables are not those of the card set")
        object.__setattr__(self, "exp", tuple(
            total * EXPEDITION_VALUE + wagers * EXPEDITION_WAGER + count
            for total, wagers, count in zip(self.total, self.wagers, self.count, strict=True)))

    @property
    def other(self) -> int:
        return self.seat ^ 1

    def sample(self, rng: random.Random) -> ClassicCore:
        """A full state dealt uniformly over the deals consistent with this knowledge."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        hidden = self.hidden
        other = [*self.known, *cards[:hidden]]
        del cards[:hidden]
        state = ClassicCore.__new__(ClassicCore)
        state.tables = self.tables
        counts = self.tables.counts
        state.hands = [counts(self.hand), counts(other)] if self.seat == 0 \
            else [counts(other), counts(self.hand)]
        state.top = list(self.top)
        state.exp = list(self.exp)
        state.piles = [list(pile) for pile in self.piles]
        state.pile = cards
        state.left = [0] * self.tables.kinds  # every card has its place in a dealt state
        state.player = self.player
        state.turn = self.turn
        return state


    def reason(self, best: int, played: int) -> Message | None:
        """Why ``best`` is better than ``played`` here, in one line, when a plain fact of the
        position says it (a card that fitted thrown away, wager cards in the hand shut out by
        a number card, an expedition opened too late, a card given to the other player, ranks
        jumped over, a discard pile's card left); None
        when the difference lies only in what the playouts found.

        The facts are read from this seat's view alone, as the search judged the moves.
        """
        tables = self.tables
        colours = tables.colours
        mine, theirs = self.seat * colours, self.other * colours
        card_p, discard_p, source_p = (tables.move_card[played], tables.move_discard[played],
                                       tables.move_source[played])
        card_b, discard_b, source_b = (tables.move_card[best], tables.move_discard[best],
                                       tables.move_source[best])
        colour = tables.colour_of[card_p]
        letter = tables.config.colours[colour]
        rank = tables.rank_of[card_p]
        name = tables.names[card_p]
        same_card = card_b == card_p

        def fits(cell: int) -> bool:
            return bool(self.count[cell]) and rank > self.top[cell]

        if discard_p and not (same_card and discard_b) and rank and fits(mine + colour):
            return msg("throws away the {card} that fits your {colour} expedition", card=name,
                       colour=colour_name(letter))
        wagers_held = self.hand.count(colour * tables.ranks)  # the colour's wager card
        if not discard_p and rank and not self.top[mine + colour] and wagers_held \
                and not (not discard_b and tables.colour_of[card_b] == colour and tables.rank_of[card_b]):
            if wagers_held == 1:
                return msg("shuts out the {colour} wager card in your hand", colour=colour_name(letter))
            return msg("shuts out the {count} {colour} wager cards in your hand", count=wagers_held,
                       colour=colour_name(letter))
        if not discard_p and not self.count[mine + colour] and not (same_card and not discard_b):
            if self.pile_size <= 12:
                return msg("opens the {colour} expedition too late to pay back its {cost}",
                           colour=colour_name(letter), cost=tables.config.cost)
            return msg("opens the {colour} expedition without the cards to pay back its {cost}",
                       colour=colour_name(letter), cost=tables.config.cost)
        if discard_p and not (same_card and discard_b) and rank and fits(theirs + colour):
            return msg("gives your opponent the {card} for their {colour} expedition", card=name,
                       colour=colour_name(letter))
        if not discard_p and rank and rank - self.top[mine + colour] - 1 >= 2 \
                and (discard_b or tables.colour_of[card_b] != colour):
            return msg("jumps over {count} cards of your {colour} expedition",
                       count=rank - self.top[mine + colour] - 1, colour=colour_name(letter))
        if source_b and not source_p and self.piles[source_b - 1]:
            taken = self.piles[source_b - 1][-1]
            return msg("leaves the {card} on the {colour} discard pile, worth taking",
                       card=tables.names[taken],
                       colour=colour_name(tables.config.colours[source_b - 1]))
        return None


def sample(infoset: InfoSet, rng: random.Random) -> ClassicCore:
    """A full state consistent with ``infoset``, every consistent deal equally likely."""
    return infoset.sample(rng)


def infoset_from_record(record: GameRecord, seat: int, *, config: ClassicConfig | None = None,
                        turns: int | None = None) -> InfoSet:
    """What ``seat`` (0 or 1) knows after the record's first ``turns`` turns (all by default).

    The record is first cut down to that seat's view (``strip_deal``: their own starting
    hand and the cards they drew; the other hand and the draw pile's order go), so a record
    with the whole deal and the same game as the seat wrote it give equal information sets.
    Today's engine replays the view, and its account of the hidden cards (known cards per
    hand, unknown slots, unseen cards) is what the information set holds.

    Raises ValueError, saying why, when the view cannot be made (no starting hand for the
    seat, a draw whose card is not known) or when a turn of it breaks a rule.
    """
    if seat not in (0, 1):
        raise ValueError(f"seat {seat}: classic has seats 0 and 1")
    if config is None:
        config, problems = ClassicVariant().config_for(record)
        if problems:
            raise ValueError(problems[0].message)
    view = strip_deal(record, keep=seat, config=config)
    if turns is not None:
        del view.turns[turns:]
    variant = ClassicVariant(config)
    state, problems = variant.setup(view)
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if errors:
        raise ValueError(f"the deal cannot be read: {errors[0].message} ({errors[0].rule})")
    for index, turn in enumerate(view.turns):
        if variant.is_over(state):
            raise ValueError(f"turn {index + 1} (`{turn.text}`) comes after the end of the game")
        problems = variant.apply(state, variant.parse_move(state, turn.text))
        errors = [p for p in problems if p.severity is Severity.ERROR]
        if errors:
            raise ValueError(f"turn {index + 1} (`{turn.text}`) breaks a rule: "
                             f"{errors[0].message} ({errors[0].rule})")
    return infoset_of_state(state, seat)


def infoset_of_state(state: ClassicState, seat: int) -> InfoSet:
    """The information set of ``seat`` in today's engine state of that seat's view."""
    other = seat ^ 1
    if state.unknown[seat]:
        raise ValueError(f"{state.names[seat]}'s hand is not wholly known to the record "
                         f"({state.unknown[seat]} cards unknown): a seat's view needs it")
    tables = tables_for(state.config)
    ids = tables.ids
    colours = state.config.colours
    cells = 2 * len(colours)
    top, count, wagers, total = [0] * cells, [0] * cells, [0] * cells, [0] * cells
    for player in range(2):
        for index, colour in enumerate(colours):
            cell = player * len(colours) + index
            for name in state.expeditions[player][colour]:
                card = ids[name]
                count[cell] += 1
                if tables.rank_of[card]:
                    top[cell] = max(top[cell], tables.rank_of[card])
                    total[cell] += tables.value_of[card]
                else:
                    wagers[cell] += 1

    def cards(counts: dict[str, int]) -> tuple[int, ...]:
        return tuple(sorted(ids[name] for name, copies in counts.items() for _ in range(copies)))

    return InfoSet(
        config=state.config, seat=seat, player=(state.turn + state.seat) & 1, turn=state.turn,
        hand=cards(state.known[seat]), known=cards(state.known[other]),
        hidden=state.unknown[other], pile_size=state.cards_left, top=tuple(top),
        count=tuple(count), wagers=tuple(wagers), total=tuple(total),
        piles=tuple(tuple(ids[name] for name in state.piles[colour]) for colour in colours),
        unseen=cards(state.unseen()), tables=tables)


class Table:
    """A game played on a full state, followed as each player sees it: the information set of
    either seat at any moment, without a record to replay.

    The core keeps expeditions as accounts and hands as counts, which is all its rules need,
    but a player also remembers which cards went where and which card the other player took
    from a discard pile: this keeps exactly that, move by move, so that a search can play a
    whole game (the bench's matches) judging every turn from the mover's view.
    """

    def __init__(self, core: ClassicCore) -> None:
        if any(core.left) or any(hand[core.tables.unknown] for hand in core.hands):
            raise ValueError("a table needs every card of the deal known")
        self.core = core
        #: Cards on expeditions, and each seat's cards taken from a discard pile (not played since).
        self.placed: list[int] = []
        self.taken: list[list[int]] = [[], []]

    def play(self, move: int) -> None:
        """Play a legal move (ValueError, naming the rule, for one that is not)."""
        core = self.core
        tables = core.tables
        player = core.player
        card, source = tables.move_card[move], tables.move_source[move]
        drawn = core.piles[source - 1][-1] if source and core.piles[source - 1] else None
        code = core.step(move)
        if code:
            raise ValueError(f"{tables.words[move]} breaks {Rule(code).rule_id}")
        taken = self.taken[player]
        if card in taken:
            taken.remove(card)
        if not tables.move_discard[move]:
            self.placed.append(card)
        if drawn is not None:
            taken.append(drawn)

    def infoset(self, seat: int) -> InfoSet:
        """What ``seat`` knows now."""
        core = self.core
        tables = core.tables
        other = seat ^ 1
        hand = tuple(core.hand(seat))
        known = tuple(sorted(self.taken[other]))
        held = sum(core.hands[other][:tables.kinds])
        remaining = list(tables.copies)
        for card in (*hand, *known, *self.placed, *(c for pile in core.piles for c in pile)):
            remaining[card] -= 1
        unseen = tuple(card for card in range(tables.kinds) for _ in range(remaining[card]))
        return InfoSet(
            config=tables.config, seat=seat, player=core.player, turn=core.turn, hand=hand,
            known=known, hidden=held - len(known), pile_size=len(core.pile), top=tuple(core.top),
            count=tuple(core.count), wagers=tuple(core.wagers), total=tuple(core.total),
            piles=tuple(tuple(pile) for pile in core.piles), unseen=unseen, tables=tables)
