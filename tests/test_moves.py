"""The legal continuations (``lcn.legal_moves``, ``lcn moves``, ``POST /api/v1/moves``).

Seeded random games (``lcn.variants.*_play``) are replayed position by position. At every
position the move the random player made must be offered (completeness), and offered moves
must be accepted by the validator when written into the record (soundness). With the whole
classic deal known the offered moves are compared with an independent count of the hand and
the table; without it, each level of knowledge offers at least what a better-informed one
does (the true deal is one of the deals it allows). A bot that picks random offered moves
plays whole games that validate.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn.model import GameRecord, Tags, Turn
from lcn.moves import InvalidRecord, extend
from lcn.validate import validate_record
from lcn.variants.classic import COLOUR_NAMES, card_value, parse_cards
from lcn.variants.classic import parse_move as parse_classic
from lcn.variants.classic_play import random_game, strip_deal

#: Seeded classic games: five expeditions, and six.
CLASSIC_SEEDS = [*range(8), *(10_000 + s for s in range(3))]
#: Knowledge of the deal: the full record, no deal at all, each player's view.
VIEWS: tuple[int | str | None, ...] = ("full", None, 0, 1)


@cache
def classic_games() -> tuple[GameRecord, ...]:
    return tuple(random_game(seed, expeditions=6 if seed >= 10_000 else 5)
                 for seed in CLASSIC_SEEDS)


def view_of(record: GameRecord, view: int | str | None) -> GameRecord:
    return record if view == "full" else strip_deal(record, view)  # type: ignore[arg-type]


def source_only(text: str) -> str:
    """A classic move without the name of the card drawn (``R5/d=G7`` → ``R5/d``)."""
    return text.split("=", 1)[0]


def errors_of(record: GameRecord) -> list[lcn.Diagnostic]:
    return [d for d in validate_record(record).diagnostics if d.is_error]


def with_turn(record: GameRecord, upto: int, text: str) -> GameRecord:
    """The first ``upto`` turns of a record, then ``text``, unfinished (``*``)."""
    turns = [Turn(t.text) for t in record.turns[:upto]] + [Turn(text)]
    tags = Tags()
    for name, value in record.tags.items():
        if name != "Result":
            tags[name] = value
    return GameRecord(tags=tags, turns=turns, termination="*")


def expected_full_deal(record: GameRecord) -> list[set[str]]:
    """Every legal move at every position of a full-deal record, from the rulebook alone.

    An independent simulation (hands as lists, no engine): the player places or discards a
    card of the hand (a placement only when it is higher than the expedition's top, a
    wager only before any number), then draws from the draw pile or from a non-empty
    discard pile other than the one just discarded on.
    """
    colours = "YBWGRP" if record.tags.get("Expeditions") == "6" else "YBWGR"
    from lcn.variants.classic import CLASSIC_5, CLASSIC_6

    cards = CLASSIC_6 if len(colours) == 6 else CLASSIC_5
    hands = [parse_cards(record.tags["Hand1"], cards), parse_cards(record.tags["Hand2"], cards)]
    deck = parse_cards(record.tags["Deck"], cards)
    exps: list[dict[str, list[str]]] = [{c: [] for c in colours} for _ in range(2)]
    piles: dict[str, list[str]] = {c: [] for c in colours}
    positions: list[set[str]] = []
    for index, turn in enumerate(record.turns):
        player = index & 1
        legal = set()
        for card in set(hands[player]):
            exp = exps[player][card[0]]
            numbers = [card_value(c) for c in exp if c[1] != "w"]
            top = max(numbers, default=0)
            placeable = (top == 0) if card[1] == "w" else card_value(card) > top
            for discard in (False, True):
                if not discard and not placeable:
                    continue
                for source in ["d", *colours]:
                    if source != "d" and (not piles[source] or (discard and source == card[0])):
                        continue
                    legal.add(f"{'x' if discard else ''}{card}/{source}")
        positions.append(legal)
        move = parse_classic(turn.text, cards)
        hands[player].remove(move.card)
        (piles[move.card[0]] if move.discard else exps[player][move.card[0]]).append(move.card)
        hands[player].append(deck.pop(0) if move.draw == "d" else piles[move.draw].pop())
    return positions


def offered(record: GameRecord, turn: int) -> list[str]:
    return [m.lcn for m in lcn.legal_moves(record, turn=turn).moves]


@pytest.mark.parametrize("index", range(len(CLASSIC_SEEDS)))
def test_classic_full_deal_offers_exactly_the_rulebooks_moves(index: int) -> None:
    game = classic_games()[index]
    expected = expected_full_deal(game)
    for upto, legal in enumerate(expected):
        position = lcn.legal_moves(game, turn=upto + 1)
        assert position.turn == upto + 1 and not position.over
        assert position.player == game.tags[f"Player{upto % 2 + 1}"]
        assert set(m.lcn for m in position.moves) == legal, f"turn {upto + 1}"
    end = lcn.legal_moves(game)
    assert end.over and end.moves == () and end.player is None


@pytest.mark.parametrize("index", range(len(CLASSIC_SEEDS)))
def test_classic_every_view_offers_the_moves_played_and_what_the_validator_accepts(index: int) -> None:
    game = classic_games()[index]
    rng = random.Random(index)
    views = {view: view_of(game, view) for view in VIEWS}
    for upto in range(len(game.turns)):
        sets = {}
        for view, record in views.items():
            moves = offered(record, upto + 1)
            assert len(moves) == len(set(moves))
            sets[view] = set(moves)
            # Completeness: the move the player made is offered (as its draw source).
            assert source_only(record.turns[upto].text) in sets[view], (view, upto + 1)
            # Soundness: offered moves, written into the record, validate.
            for text in rng.sample(moves, min(3, len(moves))):
                assert errors_of(with_turn(record, upto, text)) == [], (view, upto + 1, text)
        # Less knowledge never offers fewer moves; a player's own view knows their hand.
        mover = upto & 1
        assert sets["full"] <= sets[mover] and sets[mover] == sets["full"]
        assert sets[1 - mover] <= sets[None] and sets["full"] <= sets[1 - mover]


def test_classic_soundness_of_every_offered_move_at_some_positions() -> None:
    game = classic_games()[0]
    for view in VIEWS:
        record = view_of(game, view)
        for upto in (0, 1, 17, 40, len(game.turns) - 1):
            for text in offered(record, upto + 1):
                assert errors_of(with_turn(record, upto, text)) == [], (view, upto + 1, text)


def test_an_illegal_move_is_not_offered() -> None:
    game = lcn.read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d *\n')
    moves = offered(game, 3)
    assert "R5/d" not in moves and "R4/d" not in moves and "R6/d" in moves  # R5 is placed
    assert "xG3/B" in moves and "xB3/d" in moves and "xR6/R" not in moves  # R pile is empty
    assert "xB3/B" not in moves  # the card just discarded cannot be taken back
    assert "B2/d" not in moves  # on the blue discard pile, not in a hand


def test_labels_come_from_the_catalog() -> None:
    game = lcn.read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d *\n')
    labels = {m.lcn: m.label for m in lcn.legal_moves(game).moves}
    assert labels["R6/B"] == "R6 on the red expedition, take B2 from the blue discard pile"
    assert labels["xG3/d"] == "discard G3, draw from the draw pile"
    assert set(COLOUR_NAMES) >= {"Y", "B", "W", "G", "R", "P"}


def bot_game(tags: dict[str, str], seed: int, limit: int = 400) -> GameRecord:
    """A whole game played by choosing a random offered move at every turn."""
    rng = random.Random(seed)
    record = GameRecord(tags=Tags(), termination="*")
    for name, value in tags.items():
        record.tags[name] = value
    for _ in range(limit):
        position = lcn.legal_moves(record)
        if position.over:
            break
        assert position.moves, f"no move offered at turn {position.turn}"
        record.turns.append(Turn(rng.choice(position.moves).lcn))
    else:
        raise AssertionError("the game did not end")
    report = validate_record(record)
    assert report.over
    assert report.score is not None
    record.termination = ":".join(map(str, report.score.totals))
    return record


@pytest.mark.parametrize("seed", range(3))
def test_a_bot_plays_whole_classic_games_through_the_library(seed: int) -> None:
    dealt = random_game(100 + seed, expeditions=6 if seed == 2 else 5)
    public = {"Player1": "Ada", "Player2": "Bo"}
    if seed == 2:
        public["Expeditions"] = "6"
    deal = dict(public, Hand1=dealt.tags["Hand1"], Hand2=dealt.tags["Hand2"], Deck=dealt.tags["Deck"])
    for tags in (public, deal):
        game = bot_game(tags, seed)
        text = lcn.write_game(game)
        report = validate_record(lcn.read_game(text))
        assert report.valid, [d.format() for d in report.diagnostics]
        assert report.over


def test_invalid_records_and_bad_arguments_raise_clearly() -> None:
    bad = lcn.read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. R4/d *\n')
    with pytest.raises(InvalidRecord) as caught:
        lcn.legal_moves(bad)
    assert caught.value.diagnostics[0].code == "not-ascending"
    assert len(offered(bad, 3)) > 0  # the position before the bad turn is fine
    with pytest.raises(ValueError, match="no turn 9"):
        lcn.legal_moves(bad, turn=9)
    with pytest.raises(ValueError, match="no game 2"):
        lcn.legal_moves(lcn.write_game(bad), game=2)
    with pytest.raises(ValueError, match="unknown variant"):
        lcn.legal_moves('[Variant "chess"]\n\n*\n')


# -- the command ------------------------------------------------------------------------

GAME = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d *\n'


def test_cli_prints_the_moves_as_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "g.lcn"
    path.write_text(GAME)
    runner = CliRunner()
    text = runner.invoke(cli, ["moves", str(path)])
    assert text.exit_code == 0, text.output
    assert text.output.splitlines()[0] == "turn 3: Ada to move, 175 moves"
    assert "  R6/B    R6 on the red expedition, take B2 from the blue discard pile" in text.output
    data = json.loads(runner.invoke(cli, ["moves", str(path), "--format", "json"]).output)
    assert data == lcn.legal_moves(GAME).to_json()
    assert list(data) == ["player", "turn", "over", "moves"]
    stdin = runner.invoke(cli, ["moves", "-", "--turn", "2", "--format", "json"], input=GAME)
    assert stdin.exit_code == 0 and json.loads(stdin.output)["player"] == "Bo"


def test_cli_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, ["moves", "-"], input=GAME.replace("*", "2. R4/d *"))
    assert bad.exit_code == 1 and "not-ascending" in bad.output and "^^" in bad.output
    assert runner.invoke(cli, ["moves", "-", "--turn", "9"], input=GAME).exit_code == 2
    assert runner.invoke(cli, ["moves", "-", "--game", "2"], input=GAME).exit_code == 2
    missing = runner.invoke(cli, ["moves", str(tmp_path / "none.lcn")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    chess = runner.invoke(cli, ["moves", "-"], input='[Variant "chess"]\n\n*\n')
    assert chess.exit_code == 2 and "unknown variant" in chess.output


# -- the API ----------------------------------------------------------------------------

@pytest.fixture()
def client(tmp_path: Path) -> Any:
    from site_support import make_app

    return make_app(tmp_path).test_client()


def test_api_answers_as_fixed(client: Any) -> None:
    answer = client.post("/api/v1/moves", json={"lcn": GAME})
    assert answer.status_code == 200
    assert answer.json == lcn.legal_moves(GAME).to_json()
    assert list(answer.json) == ["player", "turn", "over", "moves"]
    assert answer.json["moves"][0] == {"lcn": "Yw/d", "label": "Yw on the yellow expedition, "
                                                               "draw from the draw pile"}
    two = client.post("/api/v1/moves", json={"lcn": GAME + "\n" + GAME.replace("Ada", "Cy"),
                                             "game": 2})
    assert two.json["player"] == "Cy"
    over = lcn.write_game(classic_games()[0])
    assert client.post("/api/v1/moves", json={"lcn": over}).json == {
        "player": None, "turn": len(classic_games()[0].turns) + 1, "over": True, "moves": []}


@pytest.mark.parametrize("body", [b"{bad", b"[1]", b'{"lcn": 1}', b'{"lcn": "*", "game": 0}',
                                  b'{"lcn": "*", "game": true}', b'{"game": 1}',
                                  b'{"lcn": "*", "game": 2}'])
def test_api_bad_bodies_are_400(client: Any, body: bytes) -> None:
    answer = client.post("/api/v1/moves", data=body, content_type="application/json")
    assert answer.status_code == 400 and answer.json["error"]["code"] == "bad-input"


def test_api_invalid_record_is_400_with_diagnostics(client: Any) -> None:
    answer = client.post("/api/v1/moves", json={"lcn": GAME.replace("*", "2. R4/d *")})
    assert answer.status_code == 400
    assert answer.json["diagnostics"][0]["code"] == "not-ascending"


def test_api_size_limit_rate_limit_and_openapi(tmp_path: Path) -> None:
    from site_support import make_app

    small = make_app(tmp_path, {"MAX_CONTENT_LENGTH": 200}).test_client()
    assert small.post("/api/v1/moves", json={"lcn": GAME * 10}).status_code == 413
    # The moves have a budget of their own: a recorder at the table asks after every tap, far
    # more often than the writes' budget allows, and asking never uses up the writes'.
    limited = make_app(tmp_path, {"RATELIMIT_ENABLED": True, "RATELIMIT": "2 per minute",
                                  "MOVES_RATELIMIT": "5 per minute"})
    client = limited.test_client()
    assert [client.post("/api/v1/moves", json={"lcn": GAME}).status_code
            for _ in range(6)] == [200] * 5 + [429]
    assert client.post("/api/v1/validate", json={"lcn": GAME}).status_code == 200
    document = client.get("/api/v1/openapi.json").json
    operation = document["paths"]["/api/v1/moves"]["post"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Moves"}
    assert set(document["components"]["schemas"]["Moves"]["properties"]) == {
        "player", "turn", "over", "moves"}
    assert "MovesRequest" in document["components"]["schemas"]


# -- Rivals ------------------------------------------------------------------------------

RIVALS_GAMES = [(seed, players, piles) for seed, players, piles in
                ((1, 2, True), (2, 3, False), (3, 4, True), (4, 2, False), (5, 4, False))]


def rivals_words(text: str) -> list[str]:
    """A turn's moves as offered: the uncovered card without the rules' own annotations
    (``>box``, ``share:``, ``rest:``), the cards placed one by one in their rising order."""
    from lcn.variants.rivals import COLOURS
    from lcn.variants.rivals import card_value as value

    words = []
    for word in text.split():
        if word.startswith(("share:", "rest:")):
            continue
        if word.startswith("up:"):
            word = word.removesuffix(">box")
        if word.startswith("place:"):
            cards = sorted(word[6:].split(","), key=lambda c: (COLOURS.index(c[0]), value(c)))
            words.append("place:" + cards[0])
            words.extend("," + card for card in cards[1:])
            continue
        words.append(word)
    return words


def joined(words: list[str]) -> str:
    text = ""
    for word in words:
        text = extend(text, word)
    return text


def partial_record(record: GameRecord, upto: int, words: list[str]) -> GameRecord:
    """The first ``upto`` turns, then a turn of ``words`` (being written when not finished)."""
    tags = Tags()
    for name, value in record.tags.items():
        if name != "Result":
            tags[name] = value
    turns = [Turn(t.text, number=i + 1) for i, t in enumerate(record.turns[:upto])]
    if words:
        turns.append(Turn(joined(words), number=upto + 1))
    return GameRecord(tags=tags, turns=turns, termination="*")


def finish_turn(record: GameRecord, upto: int, words: list[str], rng: random.Random) -> list[str]:
    """Random offered words until the turn is finished (its uncover)."""
    words = list(words)
    while not words or not words[-1].startswith("up:"):
        moves = lcn.legal_moves(partial_record(record, upto, words)).moves
        assert moves, (upto + 1, words)
        words.append(rng.choice(moves).lcn)
    return words


@pytest.mark.parametrize(("seed", "players", "piles"), RIVALS_GAMES)
def test_rivals_offers_every_word_played_and_only_what_the_validator_accepts(
        seed: int, players: int, piles: bool) -> None:
    from lcn.variants.rivals_play import random_game as rivals_game
    from lcn.variants.rivals_play import strip_piles

    game = rivals_game(seed, players=players)
    if not piles:
        game = strip_piles(game)
    rng = random.Random(seed)
    names = [game.tags[f"Player{s + 1}"] for s in range(players)]
    for upto, turn in enumerate(game.turns):
        played = rivals_words(turn.text)
        for count in range(len(played)):
            position = lcn.legal_moves(partial_record(game, upto, played[:count]))
            assert position.turn == upto + 1 and not position.over
            assert position.player in names
            offered_words = [m.lcn for m in position.moves]
            assert played[count] in offered_words, (upto + 1, played[:count], played[count])
            for word in rng.sample(offered_words, min(2, len(offered_words))):
                words = finish_turn(game, upto, [*played[:count], word], rng)
                assert errors_of(partial_record(game, upto, words)) == [], (upto + 1, words)
    assert lcn.legal_moves(game).over


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_plays_whole_rivals_games_through_the_library(players: int) -> None:
    from lcn.variants.rivals_play import random_game as rivals_game

    dealt = rivals_game(200 + players, players=players)
    tags = {name: value for name, value in dealt.tags.items()
            if name.startswith(("Variant", "Player", "Wagers"))}
    rng = random.Random(players)
    record = partial_record(GameRecord(tags=Tags()), 0, [])
    for name, value in tags.items():
        record.tags[name] = value
    for _ in range(400):
        if lcn.legal_moves(record).over:
            break
        upto = len(record.turns)
        words = finish_turn(record, upto, [], rng)
        record.turns.append(Turn(joined(words), number=upto + 1))
    report = validate_record(record)
    assert report.valid and report.over, [d.format() for d in report.diagnostics][:3]


def test_a_rivals_turn_being_written_through_the_command_and_the_api(client: Any) -> None:
    text = ('[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Wagers1 "Rw Bw"]\n'
            '[Wagers2 "Yw Gw"]\n\n1. up:R4 2. Bo1 Ada-\n*\n')
    result = CliRunner().invoke(cli, ["moves", "-", "--format", "json"], input=text)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["player"] == "Bo" and data["turn"] == 2
    assert data["moves"][:2] == [{"lcn": "place:R4", "label": "place R4"},
                                 {"lcn": "box:R4", "label": "return R4 to the box"}]
    assert client.post("/api/v1/moves", json={"lcn": text}).json == data
    broken = CliRunner().invoke(cli, ["moves", "-"], input=text.replace("Ada-", "Ada1"))
    assert broken.exit_code == 1 and "cannot be finished" in broken.output


# -- Roll & Write ------------------------------------------------------------------------

#: Seeded Roll & Write games from the random player: (seed, players).
ROLLWRITE_GAMES = [(1, 2), (2, 3), (3, 4), (4, 5)]


def rollwrite_words(text: str) -> list[str]:
    """A turn's pieces as offered: the roll die by die, each choice up to and including an
    acceleration's `>`, then the expedition accelerated with its box's marks; the rules' own
    annotations (``bridge:``, ``exhausted:``, ``end``) are left out."""
    import re

    words: list[str] = []
    for index, word in enumerate(text.split()):
        if index == 0:
            words.extend(word)
        elif ":" in word and not word.startswith(("bridge:", "exhausted:")):
            words.extend(re.findall(r"(?:^[^>]+|[^>]+)(?:>(?=[ROYGBP])|>-)?", word))
        elif word == "end" or word.startswith(("bridge:", "exhausted:")):
            continue
    return words


def finish_rollwrite_turn(record: GameRecord, upto: int, words: list[str],
                          rng: random.Random) -> list[str]:
    """Random offered pieces until the turn is whole (the next position is the next turn)."""
    words = list(words)
    while True:
        position = lcn.legal_moves(partial_record(record, upto, words))
        if position.over or position.turn > upto + 1:
            return words
        assert position.moves, (upto + 1, words)
        words.append(rng.choice(position.moves).lcn)


def test_rollwrite_pieces_split_as_offered() -> None:
    assert rollwrite_words("ROG307 Ada:R3+>G>O+>- Bo:O7 Cy:- bridge:R end") == [
        "R", "O", "G", "3", "0", "7", "Ada:R3+>", "G>", "O+>-", "Bo:O7", "Cy:-"]
    assert joined(rollwrite_words("ROG307 Ada:R3+>G>O+>- Bo:O7")) == \
        "ROG307 Ada:R3+>G>O+>- Bo:O7"


@pytest.mark.parametrize(("seed", "players"), ROLLWRITE_GAMES)
def test_rollwrite_offers_every_piece_played_and_only_what_the_validator_accepts(
        seed: int, players: int) -> None:
    from lcn.variants.rollwrite_play import random_game as rollwrite_game

    game = rollwrite_game(seed, players=players)
    rng = random.Random(seed)
    names = [game.tags[f"Player{s + 1}"] for s in range(players)]
    for upto, turn in enumerate(game.turns):
        if upto % 3:
            continue  # every third turn: each seat rolls some of them over the four games
        played = rollwrite_words(turn.text)
        sound = rng.randrange(len(played))  # one position per turn where a word is finished
        for count in range(len(played)):
            position = lcn.legal_moves(partial_record(game, upto, played[:count]))
            assert position.turn == upto + 1 and not position.over
            assert position.player == names[(upto + sum(1 for w in played[:count] if ":" in w)
                                              - (1 if played[count - 1:count] and
                                                 played[count - 1].endswith(">") else 0))
                                             % players]
            offered_words = [m.lcn for m in position.moves]
            assert len(offered_words) == len(set(offered_words))
            assert played[count] in offered_words, (upto + 1, played[:count], played[count])
            if count == sound:
                word = rng.choice(offered_words)
                words = finish_rollwrite_turn(game, upto, [*played[:count], word], rng)
                assert errors_of(partial_record(game, upto, words)) == [], (upto + 1, words)
    assert lcn.legal_moves(game).over


@pytest.mark.parametrize("players", [2, 3])
def test_a_bot_plays_whole_rollwrite_games_through_the_library(players: int) -> None:
    rng = random.Random(300 + players)
    record = partial_record(GameRecord(tags=Tags()), 0, [])
    record.tags["Variant"] = "rollwrite"
    for seat in range(players):
        record.tags[f"Player{seat + 1}"] = ["Ada", "Bo", "Cy", "Dee", "Eve"][seat]
    for _ in range(400):
        if lcn.legal_moves(record).over:
            break
        upto = len(record.turns)
        words = finish_rollwrite_turn(record, upto, [], rng)
        record.turns.append(Turn(joined(words), number=upto + 1))
    else:
        raise AssertionError("the game did not end")
    report = validate_record(record)
    assert report.valid and report.over, [d.format() for d in report.diagnostics][:3]


def test_rollwrite_through_the_command_and_the_api(client: Any) -> None:
    text = (Path(__file__).resolve().parent.parent / "samples/rollwrite/two-players.lcn").read_text()
    game = lcn.read_game(text)
    cut = "\n".join(text.splitlines()[:text.splitlines().index("") + 1]) + \
        "\n\n1. RRG057 *\n"
    assert not lcn.legal_moves(text).moves and lcn.legal_moves(text).over
    result = CliRunner().invoke(cli, ["moves", "-", "--format", "json"], input=cut)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    first = game.tags["Player1"]
    assert data["player"] == first and data["turn"] == 1 and not data["over"]
    assert data["moves"][0] == {"lcn": f"{first}:-",
                                "label": f"{first} refuses and shades a dice symbol"}
    assert f"{first}:G0" in [m["lcn"] for m in data["moves"]]  # a 0 before green starts
    assert f"{first}:R5" in [m["lcn"] for m in data["moves"]]
    assert client.post("/api/v1/moves", json={"lcn": cut}).json == data
    start = CliRunner().invoke(cli, ["moves", "-", "--turn", "1"], input=text)
    assert start.exit_code == 0 and "6 moves" in start.output.splitlines()[0]
    broken = CliRunner().invoke(cli, ["moves", "-"], input=cut.replace("RRG057", "RRX057"))
    assert broken.exit_code == 1 and "cannot be finished" in broken.output
    assert "bad-roll" in broken.output


def test_a_variant_that_does_not_list_its_moves_says_so() -> None:
    from lcn.variants.rollwrite import RollWriteVariant

    class Silent(RollWriteVariant):
        lists_moves = False

    text = (Path(__file__).resolve().parent.parent / "samples/rollwrite/two-players.lcn").read_text()
    with pytest.raises(ValueError, match="does not list its moves"):
        lcn.legal_moves(text, variant=Silent())


def test_rollwrite_a_turn_that_cannot_go_on_names_what_is_wrong() -> None:
    head = '[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
    with pytest.raises(InvalidRecord) as caught:
        lcn.legal_moves(head + "1. ROG307 Ada:R3> Bo:-\n*\n")
    codes = [d.code for d in caught.value.diagnostics]
    assert codes == ["move-syntax", "bad-acceleration"]
    assert "cannot be finished" in str(caught.value)
    with pytest.raises(InvalidRecord):  # an error before the position
        lcn.legal_moves(head + "1. ROG307 Ada:R4 Bo:-\n2. RRR111 Bo:- Ada:R1\n*\n")
    # A turn whose players have all chosen is finished: the next turn's first die follows.
    position = lcn.legal_moves(head + "1. ROG307 Ada:R3 Bo:-\n*\n")
    assert position.turn == 2 and position.player == "Bo" and len(position.moves) == 6


def test_the_labels_in_another_language_on_request(tmp_path: Path) -> None:
    from site_support import make_app

    client = make_app(tmp_path).test_client()
    english = client.post("/api/v1/moves", json={"lcn": GAME}).json
    german = client.post("/api/v1/moves?lang=de", json={"lcn": GAME}).json
    assert [m["lcn"] for m in english["moves"]] == [m["lcn"] for m in german["moves"]]
    assert english["moves"] and all(e["label"] != g["label"]
                                    for e, g in zip(english["moves"], german["moves"], strict=True))
    assert {k: v for k, v in german.items() if k != "moves"} == \
        {k: v for k, v in english.items() if k != "moves"}
    page = client.get("/record", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'data-moves-url="/api/v1/moves?lang=de"' in page
