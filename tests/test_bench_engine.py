"""The Rivals and Roll & Write strength ladders (``bench.engine_multi``): rotated deals, and
the rule-based player against itself as the check."""

from __future__ import annotations

import re

import pytest

from bench import engine_multi
from lcn.search import margin

ROW = re.compile(r"^\| (rivals|rollwrite) \| (\d) \| (\S+) \| (\d+) \| ([+-]\d+\.\d) ± (\d+\.\d|inf) \| "
                 r"(\d\.\d\d) \| (\d+\.\d) ± (?:\d+\.\d|inf) % \| "
                 r"(—|\d+\.\d\d s \(\d+\.\d\d s CPU\)) \| ([^|]*)\|$")


@pytest.mark.parametrize(("game", "seats"), [("rivals", 3), ("rollwrite", 4)])
def test_the_rule_based_player_against_itself_is_one_game_seen_from_every_seat(game: str, seats: int) -> None:
    """Every rotation of a deal with the rule-based player in the seat is the same game, so
    the seat's figures are those of the whole table: first places sum to one, ranks to
    1 + 2 + ... + n, margins to each seat's lead over the best other of one score line."""
    row = engine_multi.row(game, seats, "heuristic", deals=2, first=5)
    assert row.deals == 2 and len(row.games) == 2 * seats
    for deal in (5, 6):
        games = [one for one in row.games if one.deal == deal]
        assert sorted(one.seat for one in games) == list(range(seats))
        scores = {one.scores for one in games}
        assert len(scores) == 1
        line, = scores
        assert sum(one.first for one in games) == pytest.approx(1)
        assert sum(one.rank for one in games) == pytest.approx(seats * (seats + 1) / 2)
        assert [one.margin for one in sorted(games, key=lambda one: one.seat)] == \
            [margin(line, seat) for seat in range(seats)]
        assert max(one.margin for one in games) >= 0 > min(one.margin for one in games)
    assert row.first == pytest.approx(1 / seats) and row.rank == pytest.approx((seats + 1) / 2)
    assert row.first_error == pytest.approx(0, abs=1e-9)
    assert row.seconds is not None and row.seconds[1] <= row.seconds[0] + 0.01 < 0.05
    # Two deals' tables differ: the deal's seed makes the game.
    assert len({one.scores for one in row.games}) == 2


def test_a_player_that_differs_from_the_others_plays_different_games_in_different_seats() -> None:
    row = engine_multi.row("rivals", 2, "random", deals=1, first=3)
    first, second = sorted(row.games, key=lambda one: one.seat)
    assert first.scores != second.scores
    assert first.decisions > 10 and second.decisions > 10
    # A random player loses to the rule-based one, from either seat.
    assert row.margin[0] < 0 and row.first < 0.5


def test_a_tiny_ladder_of_each_game_prints_a_row_per_player_and_seat_count(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_multi.main(["--game", "rivals", "--seats", "2,4", "--deals", "2", "--jobs", "1",
                              "--players", "heuristic,engine@6"]) == 0
    assert engine_multi.main(["--game", "rollwrite", "--seats", "3", "--deals", "2", "--jobs", "1",
                              "--players", "random,heuristic,engine@6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [ROW.match(line) for line in lines if line.startswith(("| rivals", "| rollwrite"))]
    assert all(rows), lines
    found = [(m.group(1), int(m.group(2)), m.group(3)) for m in rows if m]
    assert found == [("rivals", 2, "heuristic"), ("rivals", 2, "engine@6"), ("rivals", 4, "heuristic"),
                     ("rivals", 4, "engine@6"), ("rollwrite", 3, "random"), ("rollwrite", 3, "heuristic"),
                     ("rollwrite", 3, "engine@6")]
    for match in rows:
        assert match is not None
        seats, name = int(match.group(2)), match.group(3)
        assert match.group(4) == "2"
        assert 1 <= float(match.group(7)) <= seats
        if name == "heuristic":
            # The check: one game per deal seen from every seat.
            assert float(match.group(8)) == pytest.approx(100 / seats, abs=0.05)
            assert float(match.group(7)) == pytest.approx((seats + 1) / 2)
            assert match.group(9) == "—"
        if name.startswith("engine"):
            assert match.group(9).endswith(" s CPU)")
        # The goal stands beside the four-seat Rivals engine row only.
        assert bool(match.group(10).strip()) == (name.startswith("engine") and match.group(1) == "rivals"
                                                  and seats == 4)
    assert lines.count(engine_multi.HEADER.splitlines()[0]) == 2


def test_seat_counts_a_game_does_not_have_are_refused() -> None:
    with pytest.raises(SystemExit, match="2-4 players"):
        engine_multi.main(["--game", "rivals", "--seats", "5", "--deals", "1"])
    with pytest.raises(ValueError, match="unknown player"):
        engine_multi.main(["--game", "rollwrite", "--players", "never-open", "--deals", "1"])
