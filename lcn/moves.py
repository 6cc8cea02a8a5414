"""The legal continuations of a record: what may come next, as LCN words with labels.

A recorder at the table, a bot or a site offers only these. They come from the rules, written
once in each game's core (``lcn.games``): the game's quick verdict replays the record's words
onto its core, a turn being written is played word by word after them, and the core lists
every word that may come next (:meth:`Variant.move_lister`). Without the whole deal the core
holds the cards the record has not shown as unknown and takes any card some deal allows
(``docs/hidden-information.md``), so the list is exactly what the record so far allows.

The engines list them where no core does (a game without one, a record its core does not
take: a part of a deal, a word spelt unusually, a rule broken): each variant lists broad
candidates (:meth:`Variant.candidate_moves`) and a candidate is kept only when the variant's
own :meth:`Variant.apply`, on a copy of the state, finds no error in it; a record that breaks
a rule is explained by full validation's diagnostics.

>>> import lcn
>>> game = lcn.read_game('[Player1 "Ada"]\\n[Player2 "Bo"]\\n[Hand1 "Y2 Y3 B4 B5 W6 W7 G8 R9"]'
...                      '\\n\\n*\\n')
>>> position = lcn.legal_moves(game)
>>> position.player, position.turn, position.over, len(position.moves)
('Ada', 1, False, 16)
>>> position.moves[0]
LegalMove(lcn='Y2/d', label='Y2 on the yellow expedition, draw from the draw pile')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Diagnostic, Severity
from .games import Listing
from .messages import Message, msg, template
from .model import GameRecord
from .reader import read_games
from .validate import validate_record
from .variants import MoveSyntaxError, Variant, find_variant

#: The labels of moves, by key, with their parameters in braces: the one place their words
#: live (a language is one more catalog of the same keys).
LABELS: dict[str, str] = {
    "move": "{move}",
    "classic.place.pile": template("{card} on the {colour} expedition, draw from the draw pile"),
    "classic.place.take": template("{card} on the {colour} expedition, take {take} from the {pile} discard "
                                   "pile"),
    "classic.discard.pile": template("discard {card}, draw from the draw pile"),
    "classic.discard.take": template("discard {card}, take {take} from the {pile} discard pile"),
    "classic.drawn": template("{player} drew {card} from the draw pile"),
    "rivals.up": template("uncover {card}"),
    "rivals.bid": template("{player} bids {amount}"),
    "rivals.pass": template("{player} passes"),
    "rivals.place": template("place {cards}"),
    "rivals.place.more": template("and place {card}"),
    "rivals.box": template("return {card} to the box"),
    "rollwrite.die.colour": template("a colour die shows {colour} (the dice decide: write what they show)"),
    "rollwrite.die.number": template("a number die shows {number} (the dice decide: write what they show)"),
    "rollwrite.refuse": template("{player} refuses and shades a dice symbol"),
    "rollwrite.circle": template("{player} marks the {colour} circle"),
    "rollwrite.write": template("{player} writes {value} in {colour}{marks}"),
    "rollwrite.write.top": template("{player} writes {value} in the full {colour} expedition: its top "
                                    "artefact"),
    "rollwrite.accelerate": template("accelerating {colour}{marks}"),
    "rollwrite.accelerate.top": template("accelerating the full {colour} expedition: its top artefact"),
    "rollwrite.mark.artefact": template(", shading an artefact"),
    "rollwrite.mark.decline": template(", declining the acceleration"),
    "rollwrite.mark.accelerate": template(", accelerating (the expedition comes next)"),
}

#: Diagnostic codes of a shortened record that say nothing about the position itself.
_NOT_ABOUT_POSITION = frozenset({"missing-termination", "result-tag-mismatch"})


@dataclass(frozen=True, slots=True)
class LegalMove:
    """One continuation: ``lcn`` is the text it adds to the record, ``label`` says it in words."""

    lcn: str
    label: str

    def to_json(self) -> dict[str, str]:
        return {"lcn": self.lcn, "label": self.label}


@dataclass(frozen=True, slots=True)
class Position:
    """Who moves at which turn, whether the game is over, and every legal continuation.

    ``turn`` is the 1-based number of the next turn, or of the turn being written (the
    numbering of diagnostics); ``player`` and ``seat`` (who writes the next text: a bidder
    within an auction) are None once the game is over.

    ``draws`` (asked for with ``legal_moves(..., draws=True)``, else empty) are the names the
    turn before the position may give the card it drew unseen: after a classic ``R5/d``,
    ``=R7`` for each card some deal lets it be (the card placed, a card seen elsewhere or,
    with the whole deal, any card but the draw pile's top is not). Each is added to that
    turn's text (``lcn.moves.extend``: ``R5/d=R7``); the ``moves`` stay those after the turn
    as written, and change once a name is added (the card is then known to be in that hand).
    """

    player: str | None
    seat: int | None
    turn: int
    over: bool
    moves: tuple[LegalMove, ...] = field(default_factory=tuple)
    draws: tuple[LegalMove, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """The fixed shape of ``POST /api/v1/moves`` and ``lcn moves --format json``
        (``draws`` is added by who asks for it: the API when its body says ``"draws": true``)."""
        return {"player": self.player, "turn": self.turn, "over": self.over,
                "moves": [move.to_json() for move in self.moves]}


class InvalidRecord(ValueError):
    """The record up to the position asked for breaks a rule: ``diagnostics`` says where."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        first = diagnostics[0].format() if diagnostics else "the record is not valid"
        super().__init__(first)
        self.diagnostics = diagnostics


def label(key: str, params: dict[str, Any]) -> str:
    """A label from its template key and parameters (an unknown key shows the move)."""
    wording = LABELS.get(key)
    if wording is None:
        return str(params.get("move", key))
    return Message(wording, params)


def extend(text: str, move: str) -> str:
    """A turn's text so far with a move added: a move that starts with ``,`` continues the
    last word (another card of a Rivals ``place:``), and so do a move of one character (a die
    of a Roll & Write roll), the name of a card drawn (``=R7``, :attr:`Position.draws`) and
    any move after a text that ends with ``>`` (the expedition a Roll & Write acceleration
    goes to); any other is a new word."""
    if not text or move.startswith((",", "=")) or len(move) == 1 or text.endswith(">"):
        return text + move
    return f"{text} {move}"


def _pick(record: GameRecord | str, game: int) -> GameRecord:
    if isinstance(record, GameRecord):
        if game != 1:
            raise ValueError(msg("a single record has only game 1, not game {game}", game=game))
        return record
    for index, candidate in enumerate(read_games(record), 1):
        if index == game:
            return candidate
    raise ValueError(msg("the text has no game {game}", game=game))


def legal_moves(record: GameRecord | str, *, game: int = 1, turn: int | None = None,
                variant: Variant[Any, Any] | None = None, draws: bool = False) -> Position:
    """The legal continuations of a game: at ``turn`` (1-based; the turns before it stand),
    by default after the last turn of the record.

    ``record`` is a parsed record or LCN text (then ``game`` picks its game, 1-based).
    ``draws=True`` also lists the names the turn before the position may give the card it
    drew unseen (:attr:`Position.draws`), at the cost of replaying the record once more on
    the engine (naming a card drawn unseen is the engine's to judge: the cores know every
    card, or leave it unknown).
    Raises :class:`InvalidRecord` when the record up to that point breaks a rule or cannot be
    read, and ValueError for a turn or game that is not there or a variant that does not
    list its moves.

    The moves come from the game's core (:meth:`Variant.move_lister`) when the record up to
    the position is one its quick verdict takes as valid; otherwise, and for a variant with no
    core, from the engine, which also says what is wrong with a record that breaks a rule.
    """
    record, variant, turn, kept = _position_asked(record, game, turn, variant)
    lister = variant.move_lister()
    if lister is not None and not _read_problems(record, kept):
        listing = lister.list_moves(record, kept)
        if listing is not None and (listing.over or listing.moves):
            return _listed(listing, record, kept, turn, variant, draws)
    return _by_engine(record, kept, turn, variant, draws)


def _position_asked(record: GameRecord | str, game: int, turn: int | None,
                    variant: Variant[Any, Any] | None
                    ) -> tuple[GameRecord, Variant[Any, Any], int, list[Any]]:
    """The record, its variant, the position's turn and the turns before it (ValueError
    when any of them is not there)."""
    record = _pick(record, game)
    if variant is None:
        variant = find_variant(record.variant_name)
    if variant is None:
        raise ValueError(msg('unknown variant "{variant}"', variant=record.tags.get("Variant")))
    if not variant.lists_moves:
        raise ValueError(msg("the {title} engine does not list its moves", title=variant.title))
    count = len(record.turns)
    if turn is None:
        turn = count + 1
    if not 1 <= turn <= count + 1:
        raise ValueError(f"no turn {turn}: the game has {count} turns, so its positions are "
                         f"turns 1-{count + 1}")
    return record, variant, turn, record.turns[:turn - 1]


def _listed(listing: Listing, record: GameRecord, kept: list[Any], turn: int,
            variant: Variant[Any, Any], draws: bool) -> Position:
    """The position a core listed."""
    if listing.partial:
        kept = kept[:-1]
        turn -= 1
    named = _draws(record, kept, variant) if draws and kept and not listing.partial else ()
    if listing.over or listing.seat is None:
        return Position(None, None, turn, True, (), named)
    seat, names = listing.seat, listing.players
    moves = tuple(LegalMove(text, label(key, params)) for text, key, params in listing.moves)
    return Position(names[seat] if seat < len(names) else None, seat, turn, False, moves, named)


def _engine_legal_moves(record: GameRecord | str, *, game: int = 1, turn: int | None = None,
                        variant: Variant[Any, Any] | None = None, draws: bool = False) -> Position:
    """:func:`legal_moves` as the engine alone lists them: every candidate the variant
    offers that its :meth:`Variant.apply` accepts (what the cores are held to in the tests)."""
    record, variant, turn, kept = _position_asked(record, game, turn, variant)
    return _by_engine(record, kept, turn, variant, draws)


def _by_engine(record: GameRecord, kept: list[Any], turn: int, variant: Variant[Any, Any],
               draws: bool) -> Position:
    """The position as the engine lists it: the record replayed by full validation, and
    each candidate move tried on a copy of its state."""
    report = _replay(record, kept, variant)
    partial = ""
    why: list[Diagnostic] = []
    line = None
    if kept and variant.partial_codes and _unfinished(report, variant, len(kept)):
        # The last turn is being written (an auction's calls so far, a roll's dice, some
        # choices): the position is the state before it, and the moves are the words that
        # may follow within it.
        partial, line = kept[-1].text, kept[-1].line
        why = [d for d in report.diagnostics if d.is_error and d.code not in _NOT_ABOUT_POSITION]
        kept = kept[:-1]
        turn -= 1
        report = _replay(record, kept, variant)
    errors = [d for d in report.diagnostics if d.is_error and d.code not in _NOT_ABOUT_POSITION]
    if errors or report.state is None or not report.complete:
        raise InvalidRecord(errors or [Diagnostic("move-syntax", msg("the record cannot be replayed"),
                                                  Severity.ERROR)])
    state = report.state
    named = _draws(record, kept, variant) if draws and kept and not partial else ()
    if variant.is_over(state):
        return Position(None, None, turn, True, (), named)
    moves = _continuations(variant, state, partial)
    if partial and not moves:
        raise InvalidRecord([Diagnostic(
            "move-syntax", msg("turn {turn} (`{partial}`) cannot be finished by any legal move",
                               turn=turn, partial=partial),
            Severity.ERROR, line, None, turn), *why])
    seat = variant.acting_seat(state, partial)
    names = report.players
    return Position(names[seat] if seat < len(names) else None, seat, turn, False, tuple(moves),
                    named)


def _read_problems(record: GameRecord, kept: list[Any]) -> list[Diagnostic]:
    """What the reader found wrong in the record up to the position."""
    # Problems of reading past the position do not concern it, but with every turn kept any
    # of them does: a line too long to read (its turns skipped) has no turn to stand after,
    # and left out it made the opening position of a record that was not read.
    until = kept[-1].line if kept else (record.movetext_line or record.line)
    every = len(kept) == len(record.turns)
    return [d for d in record.diagnostics if d.code not in _NOT_ABOUT_POSITION
            and (every or d.line is None or d.line <= until)]


def _replay(record: GameRecord, kept: list[Any], variant: Variant[Any, Any]) -> Any:
    """The validator's report of the record's first turns (``kept``), as if unfinished."""
    read_problems = _read_problems(record, kept)
    shortened = GameRecord(tags=record.tags, turns=list(kept), termination="*", line=record.line,
                           diagnostics=read_problems)
    return validate_record(shortened, variant=variant, express=False)


def _unfinished(report: Any, variant: Variant[Any, Any], last: int) -> bool:
    """Whether the only errors are the last turn's being unfinished (``partial_codes``)."""
    errors = [d for d in report.diagnostics if d.is_error and d.code not in _NOT_ABOUT_POSITION]
    return bool(errors) and all(d.code in variant.partial_codes and d.turn == last
                                for d in errors)


def _draws(record: GameRecord, kept: list[Any], variant: Variant[Any, Any]
           ) -> tuple[LegalMove, ...]:
    """The names the last turn of ``kept`` may give the card it drew unseen, each kept only
    when the engine accepts the turn with it, from the state before that turn."""
    last = kept[-1].text
    before = _replay(record, kept[:-1], variant).state
    if before is None:
        return ()
    found = (_accepted(variant, before, text, whole)
             for text, whole in variant.candidate_draws(before, last))
    return tuple(move for move in found if move is not None)


def _accepted(variant: Variant[Any, Any], state: Any, text: str, whole: str) -> LegalMove | None:
    """The candidate as offered, if the engine takes it in this state without an error."""
    try:
        move = variant.parse_move(state, whole)
    except MoveSyntaxError:
        return None
    trial = variant.copy_state(state)
    if any(p.severity is Severity.ERROR for p in variant.apply(trial, move)):
        return None
    return LegalMove(text, label(*variant.move_label(state, text, move)))


def _continuations(variant: Variant[Any, Any], state: Any, partial: str) -> list[LegalMove]:
    """The candidates the engine accepts, in the variant's order, each once."""
    found: list[LegalMove] = []
    seen: set[str] = set()
    for text, whole in variant.candidate_moves(state, partial):
        if text in seen:
            continue
        move = _accepted(variant, state, text, whole)
        if move is not None:
            seen.add(text)
            found.append(move)
    return found


__all__ = ["LABELS", "InvalidRecord", "LegalMove", "Position", "extend", "label", "legal_moves"]
