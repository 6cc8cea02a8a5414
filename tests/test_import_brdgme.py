"""brdg.me logs and commands: rounds as a match, the viewer's private draws kept as their view."""

from __future__ import annotations

from pathlib import Path

import pytest

from lcn import validate_record, write_game
from lcn.importers import ImportError_, import_text
from lcn.importers.brdgme import parse_line
from lcn.model import GameRecord
from lcn.validate import validate_games
from lcn.variants.classic import CLASSIC_5, parse_cards, parse_move
from lcn.variants.classic_play import random_game, strip_deal

DATA = Path(__file__).resolve().parent / "data" / "imports"


def code(card: str) -> str:
    return card[0] + ("X" if card[1] == "w" else card[1:])


def match_games(seeds: tuple[int, int], names: tuple[str, str] = ("Mick", "Steve")) -> list[GameRecord]:
    """Two rounds of a brdg.me match: the leader after round 1 begins round 2."""
    first = random_game(seeds[0], names=names)
    scores = validate_record(first).score.totals
    leader = names if scores[0] >= scores[1] else (names[1], names[0])
    return [first, random_game(seeds[1], names=leader)]


def log_of(games: list[GameRecord], viewer: str | None, *, markup: bool = False,
           stamps: bool = False) -> str:
    """The brdg.me log of some rounds, as lost-cities/src/lib.rs writes its entries."""
    out: list[str] = []
    totals: dict[str, int] = {}
    seats = [games[0].tags["Player1"], games[0].tags["Player2"]]

    def name(who: str) -> str:
        return f"{{{{player {seats.index(who)}}}}}" if markup else who

    def card(c: str) -> str:
        return f"{{{{#b}}}}{{{{#fg 211 47 47}}}}{code(c)}{{{{/fg}}}}{{{{/b}}}}" if markup else code(c)

    for number, game in enumerate(games, 1):
        names = [game.tags["Player1"], game.tags["Player2"]]
        hands = [parse_cards(game.tags["Hand1"], CLASSIC_5), parse_cards(game.tags["Hand2"], CLASSIC_5)]
        deck = parse_cards(game.tags["Deck"], CLASSIC_5)
        out.append(f"Starting round {number}")
        left = 60
        for who in seats:  # brdg.me deals in seat order
            left -= 8
            out.append(f"{name(who)} drew 8 cards, {left} remaining")
            if who == viewer:
                out.append("You drew " + ", ".join(card(c) for c in sorted(hands[names.index(who)])))
        piles: dict[str, list[str]] = {c: [] for c in CLASSIC_5.colours}
        drawn = 0
        for index, turn in enumerate(game.turns):
            move = parse_move(turn.text, CLASSIC_5)
            who = names[index % 2]
            out.append(f"{name(who)} {'discarded' if move.discard else 'played'} {card(move.card)}")
            if move.discard:
                piles[move.card[0]].append(move.card)
            if move.draw == "d":
                left -= 1
                out.append(f"{name(who)} drew a card, {left} remaining")
                if who == viewer:
                    out.append(f"You drew {card(deck[drawn])}")
                drawn += 1
            else:
                out.append(f"{name(who)} took {card(piles[move.draw].pop())}")
        scores = validate_record(game).score.totals
        for who in seats:
            totals[who] = totals.get(who, 0) + scores[names.index(who)]
            out.append(f"{name(who)} scored {scores[names.index(who)]} points, now on {totals[who]}")
    out.append("The game is over.")
    if stamps:
        out = [f"[2017-03-0{1 + i % 9} 12:{i % 60:02d}] {line}" for i, line in enumerate(out)]
    return "\n".join(out) + "\n"


def commands_of(games: list[GameRecord], named: bool) -> str:
    out = []
    for game in games:
        names = [game.tags["Player1"], game.tags["Player2"]]
        for index, turn in enumerate(game.turns):
            move = parse_move(turn.text, CLASSIC_5)
            prefix = f"{names[index % 2]}: " if named else ""
            out.append(f"{prefix}{'discard' if move.discard else 'play'} {code(move.card).lower()}")
            out.append(f"{prefix}{'draw' if move.draw == 'd' else 'take ' + move.draw}")
    return "\n".join(out) + "\n"


# -- the log -------------------------------------------------------------------------------
def test_a_logged_match_becomes_one_game_per_round_with_the_viewer_s_view() -> None:
    games = match_games((5, 6))
    result = import_text(log_of(games, viewer="Steve"))
    assert result.format == "brdgme" and result.valid, [d.format() for d in result.diagnostics]
    assert len(result.records) == 2
    for number, (record, game) in enumerate(zip(result.records, games, strict=True), 1):
        assert record.tags["Site"] == "brdg.me"
        assert record.tags["Match"] == "Mick vs Steve (brdg.me)"
        assert record.tags["Game"] == str(number)
        assert [record.tags["Player1"], record.tags["Player2"]] == [game.tags["Player1"],
                                                                    game.tags["Player2"]]
        view = strip_deal(game, keep=[game.tags["Player1"], game.tags["Player2"]].index("Steve"))
        seat_tag = f"Hand{[game.tags['Player1'], game.tags['Player2']].index('Steve') + 1}"
        assert sorted(record.tags[seat_tag].split()) == sorted(game.tags[seat_tag].split())
        assert [t.text for t in record.turns] == [t.text for t in view.turns]
        assert record.termination == game.termination
    # The match checks (who begins game 2) find nothing to say.
    assert all(not report.diagnostics for report in validate_games(result.records))


def test_markup_and_timestamps_are_read_through() -> None:
    games = match_games((7, 8))
    plain = import_text(log_of(games, viewer="Mick"))
    marked = import_text(log_of(games, viewer="Mick", markup=True, stamps=True))
    assert marked.valid
    renamed = [write_game(r).replace("Player 1", "Mick").replace("Player 2", "Steve")
               for r in marked.records]
    assert renamed == [write_game(r) for r in plain.records]


def test_a_log_without_private_lines_is_a_spectator_s_view() -> None:
    games = match_games((9, 10))
    result = import_text(log_of(games, viewer=None))
    assert result.valid
    for record, game in zip(result.records, games, strict=True):
        assert "Hand1" not in record.tags and "Hand2" not in record.tags
        assert [t.text for t in record.turns] == [t.text for t in strip_deal(game).turns]


def test_the_saved_log_fixture() -> None:
    result = import_text((DATA / "brdgme-match.log").read_bytes())
    assert result.format == "brdgme" and result.valid, [d.format() for d in result.diagnostics]
    assert [r.tags["Game"] for r in result.records] == ["1", "2"]
    assert "Hand2" in result.records[0].tags  # Steve, the viewer, moves second in round 1


# -- the commands --------------------------------------------------------------------------
def test_named_commands() -> None:
    games = match_games((11, 12))
    result = import_text(commands_of(games, named=True))
    assert result.format == "brdgme" and result.valid
    for record, game in zip(result.records, games, strict=True):
        assert record.tags["Player1"] == game.tags["Player1"]
        assert [t.text for t in record.turns] == [t.text for t in strip_deal(game).turns]
        assert record.termination == game.termination


def test_unnamed_commands_follow_brdgme_s_rule_for_who_begins() -> None:
    games = match_games((13, 14))
    result = import_text(commands_of(games, named=False))
    first = validate_record(games[0]).score.totals
    leader = "Player 1" if first[0] >= first[1] else "Player 2"
    assert [r.tags["Player1"] for r in result.records] == ["Player 1", leader]
    assert result.valid


def test_after_a_tie_the_player_who_did_not_draw_last_begins() -> None:
    cards = [c for c in CLASSIC_5.all_cards() if c[1] != "w"]
    lines = ["discard " + code(cards[0]), "draw", "discard " + code(cards[20]), "take " + cards[0][0]]
    # 45 turns, one of them a take: the 44th card from the deck is drawn by Player 1.
    for turn in range(2, 45):
        lines += ["discard " + code(cards[turn]), "draw"]
    lines += ["discard " + code(cards[1]), "draw"]
    result = import_text("\n".join(lines) + "\n", "brdgme")
    assert [r.termination for r in result.records] == ["0:0", "*"]
    assert result.records[1].tags["Player1"] == "Player 2"


# -- refusals and damaged logs -------------------------------------------------------------
def _refused(text: str) -> ImportError_:
    with pytest.raises(ImportError_) as caught:
        import_text(text, "brdgme")
    return caught.value


def test_three_player_games_are_refused_with_the_reason() -> None:
    error = _refused("Starting round 1\nA drew 7 cards, 53 remaining\nB drew 7 cards, 46 remaining\n")
    assert "3-player game deals 7" in str(error) and error.diagnostics[0].line == 2
    error = _refused("A played R5\nA drew a card, 43 remaining\nB played G5\nB drew a card, 42 "
                     "remaining\nC played Y5\n")
    assert "a third player, 'C'" in str(error) and error.diagnostics[0].line == 5


DEAL = "Starting round 1\nMick drew 8 cards, 52 remaining\nSteve drew 8 cards, 44 remaining\n"


@pytest.mark.parametrize("text, line, message", [
    ("Mick played R5\nMick says hello\n", 5, "is not a brdg.me Lost Cities log entry"),
    ("Mick played R5\nYou drew B4\n", 5, "must follow the entry of the draw"),
    ("Mick played R5\nSteve drew a card, 43 remaining\n", 5, "it is Mick's turn, but this entry is Steve's"),
    ("Mick played R5\nMick played R6\n", 5, "places a second card before drawing"),
    ("Mick drew a card, 43 remaining\n", 4, "draws without having played"),
    ("play R5\nMick played R6\n", 4, "are mixed"),
    ("Mick played R11\n", 4, "is not a brdg.me"),
])
def test_damaged_logs_are_refused_with_the_line(text: str, line: int, message: str) -> None:
    error = _refused(DEAL + text)
    assert message in str(error), str(error)
    assert error.diagnostics[0].line == line


def test_log_lines_that_contradict_the_table_are_errors_on_the_game() -> None:
    text = ("Mick discarded R5\nMick drew a card, 40 remaining\n"
            "Steve discarded R7\nSteve took R5\n")
    result = import_text(DEAL + text)
    problems = {(d.code, d.line) for d in result.diagnostics if d.is_error}
    assert ("log-mismatch", 5) in problems  # 43 remain after one draw
    assert ("log-mismatch", 7) in problems  # the top of the red pile is R7
    assert not result.valid and len(result.records) == 1


def test_a_half_turn_at_the_end_is_reported() -> None:
    result = import_text("Mick played R5\nMick drew a card, 43 remaining\nSteve played G5\n")
    assert [t.text for t in result.records[0].turns] == ["R5/d"]
    assert any(d.code == "not-carried" and d.line == 3 for d in result.diagnostics)
    assert result.records[0].tags["Player2"] == "Steve"


def test_a_log_naming_one_player_only_is_refused() -> None:
    error = _refused("Mick played R5\nMick drew a card, 43 remaining\n")
    assert "only one player (Mick)" in str(error)


def test_the_go_version_s_markup_and_round_lines() -> None:
    text = ('{{b}}Mick{{_b}} discarded {{b}}{{c "red"}}R5{{_c}}{{_b}}\n'
            "Mick drew a card, 43 remaining\n"
            '{{b}}Steve{{_b}} discarded {{b}}{{c "gray"}}WX{{_c}}{{_b}}\n'
            "Steve took R5\n"
            "It is the end of round 1\n"
            "Steve will start round 2\n"
            "Steve played G4\nSteve drew a card, 43 remaining\nMick played G5\n"
            "Mick drew a card, 42 remaining\n")
    result = import_text(text, "brdgme")
    assert [r.tags["Game"] for r in result.records] == ["1", "2"]
    assert [t.text for t in result.records[0].turns] == ["xR5/d", "xWw/R"]
    assert result.records[1].tags["Player1"] == "Steve"
    assert result.valid, [d.format() for d in result.diagnostics]


def test_parse_line_reads_each_entry() -> None:
    entry = parse_line(3, "  [12:04] Mick scored -17 points, now on 44.")
    assert entry is not None and not isinstance(entry, str)
    assert (entry.kind, entry.name, entry.score, entry.total, entry.column) == ("scored", "Mick", -17, 44, 11)
    entry = parse_line(1, "You drew RX, g10, B4")
    assert entry is not None and not isinstance(entry, str) and entry.cards == ["Rw", "G10", "B4"]


def test_the_stamps_and_names_of_the_real_programs() -> None:
    entry = parse_line(2, "01 Mar 16 22:21 UTC: • Mick played R5")  # brdg.me (Go)
    assert entry is not None and not isinstance(entry, str)
    assert (entry.kind, entry.name, entry.card, entry.column) == ("place", "Mick", "R5", 24)
    entry = parse_line(2, "2018-03-01 09:00:00.123456789 - <Steve> scored -8 points, now on -8")
    assert entry is not None and not isinstance(entry, str)
    assert (entry.kind, entry.name, entry.score, entry.total) == ("scored", "Steve", -8, -8)
    entry = parse_line(1, "\x1b[0;39;49;1m• Mick\x1b[0;39;49m drew a card, \x1b[1m43\x1b[0m remaining")
    assert entry is not None and not isinstance(entry, str)
    assert (entry.kind, entry.name, entry.left, entry.column) == ("draw", "Mick", 43, 15)
    assert parse_line(3, "- 2018-3-1, 9:00 AM -") is None  # brdgme's web page separator


def test_brdgme_s_missing_last_draw_is_inferred_with_a_note() -> None:
    games = match_games((5, 6))
    full = import_text(log_of(games, viewer=None))
    lines = log_of(games, viewer=None).split("\n")
    cut = "\n".join(line for line in lines if not line.endswith(" drew a card, 0 remaining"))
    assert cut.count("\n") == len(lines) - 1 - len(games)
    result = import_text(cut)
    assert result.valid, [d.format() for d in result.diagnostics]
    assert [write_game(r) for r in result.records] == [write_game(r) for r in full.records]
    notes = [d for d in result.diagnostics if d.code == "inferred"]
    assert len(notes) == len(games) and all(d.severity == "info" for d in notes)
    assert all("drew the last card" in d.message and d.line for d in notes)
