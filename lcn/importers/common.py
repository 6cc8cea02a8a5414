"""Building classic LCN records from a log, turn by turn, with the table kept up to date.

Importers of play logs share one builder: it sets the tags, appends each turn in canonical
LCN, remembers where in the source the turn came from, and runs the classic engine along
so that an importer can check what a log says against the table (the top of a discard
pile, the cards left in the draw pile) and knows when the rules end the game. The rules
themselves stay in ``lcn.variants.classic``; the builder only asks the engine.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Severity
from ..messages import msg
from ..model import GameRecord, Turn
from ..variants.base import Problem
from ..variants.classic import (
    COLOUR_NAMES,
    VARIANT,
    ClassicConfig,
    ClassicMove,
    ClassicState,
    format_move,
)
from . import houserules
from .base import SourceMap, Span, TurnSource, note

CLASSIC = VARIANT


def card_words(card: str) -> str:
    """A card in words, as a log would say it: ``R7`` → "red 7", ``Rw`` → "red wager"."""
    colour = COLOUR_NAMES[card[0]]
    return f"{colour} wager" if card[1] == "w" else f"{colour} {card[1:]}"


def joined(scores: list[int]) -> str:
    return ":".join(str(s) for s in scores)


class GameBuilder:
    """One classic game being built from a log.

    Tags are set first (the engine reads the deal from them when the first turn comes);
    then turns, each applied to the engine; then :meth:`finish` settles the termination.
    ``stated`` is the result the log itself gives (scores, or ``"*"``), if any.
    """

    def __init__(self, game: int, *, line: int = 1,
                 house_rules: frozenset[str] = frozenset()) -> None:
        self.game = game
        self.record = GameRecord(line=line)
        self.source = SourceMap()
        self.state: ClassicState | None = None
        self.diagnostics: list[Diagnostic] = []
        self.stated: list[int] | str | None = None
        self.stated_span: Span | None = None
        #: House rules the source may play by (a difference they explain is not an error).
        self.house_rules = house_rules

    # -- tags -------------------------------------------------------------------------
    def tag(self, name: str, value: str, line: int | None = None) -> None:
        if self.state is not None:
            raise RuntimeError("tags must be set before the first turn")
        self.record.tags[name] = value
        if line is not None:
            self.record.tags.lines[name] = line

    @property
    def config(self) -> ClassicConfig:
        return self.table.config

    @property
    def table(self) -> ClassicState:
        """The engine's state after the turns so far (set up from the tags on first use)."""
        if self.state is None:
            self.state, _ = CLASSIC.setup(self.record)
        return self.state

    # -- turns ------------------------------------------------------------------------
    def turn(self, discard: bool, card: str, draw: str, drawn: str | None = None, *,
             place: Span | None = None, draw_span: Span | None = None) -> list[Problem]:
        """Append a turn; the engine's problems are returned (the validator reports them)."""
        move = ClassicMove(discard, card, draw, drawn)
        problems = CLASSIC.apply(self.table, move)
        self.record.turns.append(Turn(format_move(move)))
        self.source.turns.append(TurnSource(place, draw_span))
        return problems

    @property
    def turns(self) -> int:
        return len(self.record.turns)

    @property
    def over(self) -> bool:
        return self.state is not None and CLASSIC.is_over(self.state)

    @property
    def next_seat(self) -> int:
        return CLASSIC.current_player(self.table)

    @property
    def cards_left(self) -> int:
        return self.table.cards_left

    def top(self, colour: str) -> str | None:
        pile = self.table.piles.get(colour)
        return pile[-1] if pile else None

    def warn(self, code: str, message: str, span: Span | None = None,
             severity: Severity = Severity.WARNING, rule: str | None = None) -> None:
        line, column, length = span if span is not None else (None, None, 1)
        self.diagnostics.append(note(code, message, severity, line=line, column=column,
                                     length=length, game=self.game, rule=rule))

    # -- the end ----------------------------------------------------------------------
    def take_backs(self) -> None:
        """Name the take-back house rule where the source allowed drawing a just-discarded card."""
        if houserules.TAKE_BACK not in self.house_rules:
            return
        names = CLASSIC.players(self.record)
        for index, turn in enumerate(self.record.turns):
            move = CLASSIC.parse_move(self.table, turn.text)
            if move.discard and move.draw == move.card[0]:
                houserules.add_house_rule(self.record, houserules.TAKE_BACK)
                source = self.source.turns[index]
                self.warn("house-rule", msg("{name} takes back {card}, the card just discarded: the "
                                            "source allows it (house rule: {rule}); the "
                                            "official rules do not, so this turn is an error under "
                                            "them",
                                            name=names[index % 2], card=move.card,
                                            rule=houserules.TAKE_BACK),
                          source.draw or source.place,
                          rule="C-DRAW-NOT-JUST-DISCARDED")

    def finish(self) -> GameRecord:
        """Settle the termination and the Result tag, and name any house rule that explains them.

        With no result in the log, a finished game gets its official scores and an
        unfinished one ``*``. A stated result is kept as stated, so the validator reports
        a difference, unless a house rule of the source explains it: then the record gets
        the official scores and the HouseRules tag, and a warning gives both.
        """
        record = self.record
        state = self.table
        official = CLASSIC.score(state).totals
        over = CLASSIC.is_over(state)
        stated = self.stated
        self.take_backs()
        if stated is None:
            termination = joined(official) if over else "*"
        elif stated == "*":
            termination = "*"
        else:
            assert isinstance(stated, list)
            termination = joined(stated)
            if over and stated != official and houserules.NO_BONUS in self.house_rules \
                    and houserules.scores_without_bonus(state) == stated:
                termination = joined(official)
                houserules.add_house_rule(record, houserules.NO_BONUS)
                self.warn("house-rule", msg("the log gives the scores {stated}, which are the scores "
                                            "without the 8-card bonus (house rule: {rule}); "
                                            "under the official rules they are {official}, and the "
                                            "record says so",
                                            stated=joined(stated), rule=houserules.NO_BONUS,
                                            official=joined(official)),
                          self.stated_span, rule="C-SCORE-BONUS")
        record.termination = termination
        self.source.termination = self.stated_span
        houserules.insert_tag(record, "Result", termination, before=())
        return record
