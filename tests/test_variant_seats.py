"""Seats from the Player tags, read alike by every game of more than two players."""

from __future__ import annotations

import pytest

from lcn import find_variant
from lcn.model import GameRecord, Tags

RULES = {"rivals": "V-SETUP-PLAYERS", "rollwrite": "RW-SETUP-PLAYERS"}


def seats(variant_name: str, *names: str, **extra: str) -> tuple[list[str], list[tuple[str, str | None]]]:
    variant = find_variant(variant_name)
    assert variant is not None
    tags = Tags({f"Player{seat}": name for seat, name in enumerate(names, 1)} | extra)
    found, problems = variant.seats_from_tags(GameRecord(tags=tags), RULES[variant_name])
    assert all(p.code == "player-count" and p.rule == RULES[variant_name] for p in problems)
    return found, [(p.message, p.tag) for p in problems]


@pytest.mark.parametrize("variant_name", sorted(RULES))
def test_names_in_seat_order_are_taken_as_they_are(variant_name: str) -> None:
    assert seats(variant_name, "Ada", "Bo", "Cy") == (["Ada", "Bo", "Cy"], [])


@pytest.mark.parametrize("variant_name", sorted(RULES))
def test_a_gap_is_named_and_the_seats_before_it_play(variant_name: str) -> None:
    found, problems = seats(variant_name, "Ada", "Bo", Player4="Di")
    assert found == ["Ada", "Bo"]
    assert problems == [("Player4 is given but Player3 is not: players are named in seat order "
                         "without gaps", "Player4")]


@pytest.mark.parametrize(("variant_name", "most"), [("rivals", 4), ("rollwrite", 5)])
def test_one_player_too_many_is_named_and_left_out(variant_name: str, most: int) -> None:
    names = [f"P{seat}" for seat in range(1, most + 2)]
    found, problems = seats(variant_name, *names)
    assert found == names[:most]
    assert len(problems) == 1 and problems[0][1] == f"Player{most + 1}"
    assert f"{most + 1} are given; only Player1..Player{most} play" in problems[0][0]


@pytest.mark.parametrize("variant_name", sorted(RULES))
def test_too_few_players_are_made_up_to_two(variant_name: str) -> None:
    found, problems = seats(variant_name, "Ada")
    assert found == ["Ada", "Player 2"]
    assert problems[0][1] == "Player2" and "2 players are assumed" in problems[0][0]
    found, problems = seats(variant_name)
    assert found == ["Player 1", "Player 2"] and problems[0][1] is None
