"""A fourth game is one package and one registration.

Tiny Trek (``tests/tinygame.py``, not shipped) is registered and nothing else is done for it:
its games are read, checked (a broken rule reported with its rule ID, line and column),
written, scored, their moves listed, shown by the command, stored and replayed by the site,
and a player's view of them dealt out, by the same code that serves the built-in games.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli
from site_support import make_app
from tinygame import CARDS, IDS, InfoSet, TinyCore, TinyVariant

import lcn
import lcn.variants as variants
from lcn.games import GameCore, InformationSet


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tiny Trek registered for one test, the built-in registry as it was after it."""
    monkeypatch.setattr(variants, "_REGISTRY", dict(variants._REGISTRY))
    monkeypatch.setattr(variants, "_GIVEN", set(variants._GIVEN))
    variants.register_variant(TinyVariant())
    yield


def _game(seed: int) -> tuple[str, TinyCore, list[str]]:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    core = TinyCore([IDS[card] for card in deck])
    words = []
    while not core.is_over():
        move = core.random_move(rng)
        words.append(core.word(move))
        assert core.step(move) == 0
    first, second = core.score()
    text = (f'[Variant "tinytrek"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Deck "{" ".join(deck)}"]\n'
            f'[Result "{first}:{second}"]\n\n{" ".join(words)} {first}:{second}\n')
    return text, core, deck


def test_its_games_are_read_checked_scored_and_written() -> None:
    for seed in range(20):
        text, core, _ = _game(seed)
        (report,) = lcn.validate(text)
        assert report.valid and report.over and report.diagnostics == []
        assert report.totals == list(core.score()) and report.players == ["Ada", "Bo"]
        written = lcn.write_game(report.record)
        assert lcn.write_game(lcn.read_game(written)) == written
        assert next(iter(lcn.validate(written))).totals == report.totals


def test_a_broken_rule_is_reported_with_its_rule_and_place() -> None:
    text, _, deck = _game(3)
    movetext = text.rsplit("\n\n", 1)[1].split()
    # The second player's first turn plays a card the first player holds.
    movetext[1] = deck[0]
    broken = text.rsplit("\n\n", 1)[0] + "\n\n" + " ".join(movetext) + "\n"
    (report,) = lcn.validate(broken)
    assert not report.valid
    first = report.diagnostics[0]
    assert (first.rule, first.turn, first.line) == ("T-HAND", 2, 7)
    assert first.column == len(movetext[0]) + 2
    assert "Bo's hand" in first.message


def test_its_moves_are_listed_and_its_positions_shown_by_the_command(tmp_path: Path) -> None:
    text, _, _ = _game(5)
    path = tmp_path / "tiny.lcn"
    path.write_text(text)
    position = lcn.legal_moves(text, turn=1)
    start = TinyCore([IDS[card] for card in text.split('[Deck "')[1].split('"')[0].split()])
    assert sorted(m.lcn for m in position.moves) == sorted(start.word(m) for m in start.legal_moves())
    runner = CliRunner()
    done = runner.invoke(cli, ["validate", "--format", "json", str(path)])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["games"][0]["valid"] is True
    done = runner.invoke(cli, ["show", "--turn", "0", str(path)])
    assert done.exit_code == 0 and "Ada:" in done.output and "pile: 6" in done.output
    done = runner.invoke(cli, ["moves", "--format", "json", "--turn", "1", str(path)])
    assert done.exit_code == 0, done.output
    (path.parent / "bad.lcn").write_text(text.replace("[Deck", "[Deck \"A1 A1\"]\n[Ignored"))
    done = runner.invoke(cli, ["validate", str(path.parent / "bad.lcn")])
    assert done.exit_code == 1 and "T-SETUP" in done.output


def test_the_site_stores_and_replays_its_games(tmp_path: Path) -> None:
    text, core, _ = _game(8)
    client: Any = make_app(tmp_path).test_client()
    stored = client.post("/api/v1/games", json={"lcn": text})
    assert stored.status_code == 201, stored.json
    page = client.get(f"{stored.json['url']}?turn=3")
    assert page.status_code == 200
    assert b"board-generic" in page.data and b"Tiny Trek" in page.data
    document = client.get(f"/api/v1/games/{stored.json['id']}").json
    assert document["games"][0]["scores"]["totals"] == list(core.score())


def test_a_seats_view_is_dealt_from_what_it_has_not_seen() -> None:
    _, _, deck = _game(11)
    start = TinyCore([IDS[card] for card in deck])
    rng = random.Random(2)
    infoset = InfoSet(0, start)
    # What a search asks of any game's core and of a seat's knowledge.
    assert isinstance(start, GameCore) and isinstance(infoset, InformationSet)
    seen = set()
    for _ in range(400):
        state = infoset.sample(rng)
        assert state.hands[0] == start.hands[0] and state.tops == start.tops
        assert sorted(state.pile + [c for c in range(len(CARDS)) for _ in range(state.hands[1][c])]) \
            == sorted(start.pile + [c for c in range(len(CARDS)) for _ in range(start.hands[1][c])])
        seen.add(tuple(state.pile))
    assert len(seen) > 100  # the unseen cards are dealt out in many orders
