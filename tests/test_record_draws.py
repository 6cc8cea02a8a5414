"""Naming the card drawn (``R5/d=R7``): what ``lcn.legal_moves(..., draws=True)`` offers.

At the table a player may record which card they drew. After a turn that drew from the
draw pile unnamed, the library lists the names that turn may give the card (``=R7``); the
recorder offers them as buttons and the API as ``draws``. Checked here:

- **Against brute force on tiny decks** (tests/test_bruteforce.py's simulator, which tries
  every deal): at every position of random walks and every level of knowledge of the deal,
  the names offered are exactly the cards some remaining deal puts on top of the draw pile
  at that draw; and a name, once written, leaves the record legal.
- **On real games**: with the whole deal, the one name offered is the draw pile's top card;
  without it, the card placed and the cards seen are never offered; nothing is offered after
  a draw from a discard pile, after a draw already named, or in Rivals and Roll & Write.
- **The API**: ``"draws": true`` adds the list (in the page's language with ``?lang=``);
  without it the answer keeps its fixed shape.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_bruteforce import CONFIGS, LEVELS, Checker, Move, Node, all_deals_cached, play, text_of

import lcn
from lcn.moves import extend
from lcn.validate import validate_record

ROOT = Path(__file__).resolve().parent.parent
ROOT_TEXT = """[Player1 "Ada"]
[Player2 "Bo"]
[Hand1 "Yw Y4 B3 B9 W2 G6 R5 R8"]

1. R5/d xB2/d *
"""


def move_of(text: str) -> Move:
    """A move of the simulator from a turn offered unnamed (``xR5/d``)."""
    placed, draw = text.split("/")
    discard = placed.startswith("x")
    return discard, placed[1:] if discard else placed, draw, None


def brute_names(parent: Node, move: Move, kinds: list[str]) -> set[str]:
    """The names some remaining deal allows for the draw of ``move``, played at ``parent``."""
    discard, card, draw, _named = move
    return {f"={kind}" for kind in kinds if play(parent, (discard, card, draw, kind)) is not None}


@pytest.mark.parametrize("config_name", sorted(CONFIGS))
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_names_offered_are_exactly_what_some_deal_allows(config_name: str, level: str) -> None:
    config = CONFIGS[config_name]
    kinds = sorted(set(config.all_cards()))
    rng = random.Random(f"draws/{config_name}/{level}")
    deals = sorted(all_deals_cached(config))
    named = unnamed = 0
    for _ in range(2):
        checker = Checker(config, level, rng.choice(deals))
        for _walk in range(4):
            node, parent = checker.root, None
            while True:
                record = checker.record(node.moves)
                position = lcn.legal_moves(record, variant=checker.variant, draws=True)
                last = node.moves[-1] if node.moves else None
                where = (level, [text_of(m) for m in node.moves])
                if parent is not None and last is not None and last[2] == "d" and last[3] is None:
                    expected = brute_names(parent, last, kinds)
                    offered = {move.lcn for move in position.draws}
                    assert offered == expected, where
                    assert expected, where  # the card drawn is some card
                    unnamed += 1
                    for move in position.draws:
                        assert move.label.startswith(("Ada drew", "Bo drew")), move.label
                    if rng.random() < 0.4:
                        # Name it: the turn as the recorder writes it stays legal.
                        name = rng.choice(sorted(offered))
                        turn = extend(text_of(last), name)
                        renamed = play(parent, (last[0], last[1], last[2], name[1:]))
                        assert renamed is not None and text_of(renamed.moves[-1]) == turn
                        node = renamed
                        report = validate_record(checker.record(node.moves), variant=checker.variant)
                        assert not [d for d in report.diagnostics if d.is_error], (where, turn)
                        named += 1
                        continue
                else:
                    assert position.draws == (), where
                if position.over:
                    break
                choice = rng.choice(sorted(m.lcn for m in position.moves))
                parent = node
                child = play(node, move_of(choice))
                assert child is not None, (where, choice)
                node = child
    assert unnamed > 10 and named > 2


def test_the_whole_deal_names_the_draw_pile_top() -> None:
    game = lcn.read_game((ROOT / "samples/classic/full-deal.lcn").read_text(encoding="utf-8"))
    deck = game.tags["Deck"].split()
    drawn = 0
    for upto, turn in enumerate(game.turns[:20], 1):
        position = lcn.legal_moves(game, turn=upto + 1, draws=True)
        if turn.text.endswith("/d"):
            assert [move.lcn for move in position.draws] == [f"={deck[drawn]}"], turn.text
            drawn += 1
        else:
            assert position.draws == (), turn.text
    assert drawn > 5


def test_without_the_deal_the_card_placed_and_the_cards_seen_are_not_offered() -> None:
    position = lcn.legal_moves(ROOT_TEXT, draws=True)
    offered = {move.lcn for move in position.draws}
    # Bo drew after discarding B2; Ada's hand (Hand1) and the cards on the table are seen.
    assert "=B2" not in offered and "=R5" not in offered
    assert not {"=Y4", "=B3", "=B9", "=W2", "=G6", "=R8"} & offered
    assert {"=Yw", "=Y2", "=G7"} <= offered
    assert "=P10" not in offered  # no purple in a five-expedition game
    assert position.draws[0].label == "Bo drew Yw from the draw pile"
    # The moves are those after the turn as written; a name changes them.
    assert position.moves == lcn.legal_moves(ROOT_TEXT).moves
    after = lcn.legal_moves(ROOT_TEXT.replace("xB2/d", "xB2/d=G7"), draws=True)
    assert after.draws == ()
    # Ada's draw of turn 1, seen from the position before turn 2.
    first = lcn.legal_moves(ROOT_TEXT, turn=2, draws=True)
    assert "=B2" in {move.lcn for move in first.draws} and "=R5" not in {m.lcn for m in first.draws}


def test_nothing_to_name_after_a_discard_pile_draw_or_in_other_games() -> None:
    taken = ROOT_TEXT.replace("1. R5/d xB2/d", "1. xR5/d xB2/R")
    assert lcn.legal_moves(taken, draws=True).draws == ()
    assert lcn.legal_moves(ROOT_TEXT).draws == ()  # only when asked
    for path in ("samples/rivals/two-players.lcn", "samples/rollwrite/two-players.lcn"):
        game = lcn.read_game((ROOT / path).read_text(encoding="utf-8"))
        assert lcn.legal_moves(game, turn=3, draws=True).draws == ()


def test_the_last_draw_of_the_game_may_be_named() -> None:
    game = lcn.read_game((ROOT / "samples/classic/public-only.lcn").read_text(encoding="utf-8"))
    last = game.turns[-1].text
    assert last.endswith("/d")
    position = lcn.legal_moves(game, draws=True)
    assert position.over and position.moves == ()
    assert position.draws
    for move in position.draws[:5]:
        text = (ROOT / "samples/classic/public-only.lcn").read_text(encoding="utf-8")
        record = lcn.read_game(text)
        record.turns[-1].text = extend(last, move.lcn)
        report = validate_record(record)
        assert not [d for d in report.diagnostics if d.is_error], move.lcn


def test_the_api_adds_draws_when_asked(tmp_path: Path) -> None:
    from site_support import make_app

    client = make_app(tmp_path).test_client()
    plain = client.post("/api/v1/moves", json={"lcn": ROOT_TEXT})
    assert plain.status_code == 200 and list(plain.json) == ["player", "turn", "over", "moves"]
    asked = client.post("/api/v1/moves", json={"lcn": ROOT_TEXT, "draws": True})
    assert asked.status_code == 200
    assert list(asked.json) == ["player", "turn", "over", "moves", "draws"]
    assert asked.json["moves"] == plain.json["moves"]
    position = lcn.legal_moves(ROOT_TEXT, draws=True)
    assert asked.json["draws"] == [move.to_json() for move in position.draws]
    german = client.post("/api/v1/moves?lang=de", json={"lcn": ROOT_TEXT, "draws": True})
    assert german.json["draws"][0] == {"lcn": "=Yw", "label": "Bo zog Yw vom Nachziehstapel"}
    bad = client.post("/api/v1/moves", json={"lcn": ROOT_TEXT, "draws": "yes"})
    assert bad.status_code == 400 and "draws" in bad.json["error"]["message"]
    spec = client.get("/api/v1/openapi.json").json
    assert "draws" in spec["components"]["schemas"]["MovesRequest"]["properties"]
    assert set(spec["components"]["schemas"]["Moves"]["properties"]) == {  # as fixed
        "player", "turn", "over", "moves"}
    assert "`draws`" in spec["paths"]["/api/v1/moves"]["post"]["responses"]["200"]["description"]
