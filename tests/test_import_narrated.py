"""Narrated logs: the documented grammar in English and German, errors by line, the round trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lcn import validate_record, write_game
from lcn.importers import ImportError_, export_records, houserules, import_text
from lcn.model import GameRecord, Tags, Turn
from lcn.variants.classic_play import random_game, strip_deal

DATA = Path(__file__).resolve().parent / "data" / "imports"
OPENING = "Ada plays the red 7\nAda draws from the draw pile\n"


def turns(text: str) -> list[str]:
    return [t.text for t in import_text(text, "text").records[0].turns]


def refused(text: str) -> ImportError_:
    with pytest.raises(ImportError_) as caught:
        import_text(text, "text")
    return caught.value


# -- the fixtures --------------------------------------------------------------------------
def test_the_same_game_told_in_english_and_in_german() -> None:
    english = import_text((DATA / "narrated-en.txt").read_bytes())
    german = import_text((DATA / "narrated-de.txt").read_bytes())
    assert english.format == german.format == "text"
    assert english.valid and german.valid
    expected = ["Rw/d", "xG5/d", "R3/G", "xBw/d", "W4/d", "xYw/B", "R7/d=Y8"]
    for result in (english, german):
        record = result.records[0]
        assert [t.text for t in record.turns] == expected
        assert record.players() == ["Ada Lovelace", "Bo"]
        assert record.turns[2].glyphs == ["!?"] and len(record.turns[2].comments) == 1
        assert record.intro_comments and record.termination == "*"


# -- the grammar ---------------------------------------------------------------------------
@pytest.mark.parametrize("line, move", [
    ("Bo plays the red 8", "R8"), ("Bo played red eight", "R8"), ("Bo places the R8", "R8"),
    ("Bo puts the red 8 on his red expedition", "R8"), ("Bo adds the red 8 to his expedition", "R8"),
    ("Bo plays a red investment card", "Rw"), ("Bo plays the red handshake", "Rw"),
    ("Bo plays a red coin", "Rw"), ("Bo plays a red wager card", "Rw"), ("Bo plays rx", "Rw"),
    ("Bo plays the grey 8", "W8"), ("Bo plays the gold 8", "Y8"), ("Bo plays the Blue Ten", "B10"),
    ("Bo discards the green 8", "xG8"), ("Bo discards the green wager", "xGw"),
    ("Bo throws away the green 8", "xG8"), ("Bo puts the green 8 onto the discard pile", "xG8"),
    ("Bo discards the green 8 onto the green discard pile", "xG8"),
    ("Bo spielt die rote 8 aus", "R8"), ("Bo legt die rote 8 an seine Expedition", "R8"),
    ("Bo spielt eine rote Wette", "Rw"), ("Bo spielt die rote Investition aus", "Rw"),
    ("Bo spielt die rote Wett-Karte aus", "Rw"), ("Bo spielt den roten Handschlag", "Rw"),
    ("Bo wirft die grüne 8 ab", "xG8"), ("Bo wirft die gruene acht weg", "xG8"),
    ("Bo legt die weiße 8 ab", "xW8"), ("Bo legt die weisse 8 auf den Ablagestapel", "xW8"),
    ("Bo wirft die gelbe Investitionskarte ab", "xYw"),
])
def test_placing_a_card(line: str, move: str) -> None:
    text = f"{OPENING}{line}\nBo draws a card\n"
    assert turns(text)[1] == f"{move}/d"


@pytest.mark.parametrize("line, draw", [
    ("Bo draws from the draw pile", "d"), ("Bo draws a card", "d"), ("Bo draws", "d"),
    ("Bo draws a card from the deck", "d"), ("Bo draws from the stack", "d"),
    ("Bo draws the blue 5 from the draw pile", "d=B5"), ("Bo takes a card from the deck", "d"),
    ("Bo takes the green 9", "G"), ("Bo takes the green 9 from the discard pile", "G"),
    ("Bo draws the green 9 from the green discard pile", "G"), ("Bo picks up the green 9", "G"),
    ("Bo takes from the green discard pile", "G"), ("Bo takes the top green card", "G"),
    ("Bo zieht vom Nachziehstapel", "d"), ("Bo zieht eine Karte", "d"),
    ("Bo zieht die blaue 5 vom Stapel", "d=B5"), ("Bo nimmt die grüne 9", "G"),
    ("Bo nimmt vom grünen Ablagestapel", "G"), ("Bo zieht die grüne 9 vom Ablagestapel", "G"),
])
def test_drawing_a_card(line: str, draw: str) -> None:
    text = f"Ada discards the green 9\nAda draws a card\nBo plays the red 3\n{line}\n"
    assert turns(text)[1] == f"R3/{draw}"


def test_one_line_may_hold_a_whole_turn() -> None:
    assert turns("Ada plays the red 7 and draws from the draw pile\n"
                 "Bo discards the green 5, then he takes a card from the deck\n"
                 "Ada spielt die rote 8 und zieht eine Karte\n"
                 "Bo wirft die grüne 6 ab, dann zieht er vom Stapel\n") == ["R7/d", "xG5/d", "R8/d",
                                                                            "xG6/d"]


def test_what_sites_put_around_the_actions_is_read_too() -> None:
    text = ("Ada vs Bo\n"
            "1. [18:02] Ada plays the red 7.\n"
            "2. [18:02] Ada draws from the draw pile.\n"
            "(18:03) It is Bo's turn.\n"
            "- Bo discards the green 5!\n"
            "* Bo draws a card. ; a comment to the end of the line\n"
            "43 cards left\n"
            "Deck: 42 cards\n")
    result = import_text(text)
    assert result.format == "text"
    assert [t.text for t in result.records[0].turns] == ["R7/d", "xG5/d"]
    assert result.records[0].turns[1].comments == ["a comment to the end of the line"]
    problems = [(d.code, d.line) for d in result.diagnostics if d.is_error]
    assert problems == [("log-mismatch", 7)]  # after two draws 42 cards are left, not 43


def test_names_with_spaces_and_names_that_are_verbs() -> None:
    record = import_text("Players: Drew, Anna Lena Maier\nDrew plays the red 7\nDrew draws a card\n"
                         "Anna Lena Maier discards the blue 3\nAnna Lena Maier draws a card\n").records[0]
    assert record.players() == ["Drew", "Anna Lena Maier"]
    assert [t.text for t in record.turns] == ["R7/d", "xB3/d"]


def test_the_viewer_s_hand_and_draws() -> None:
    text = ("Your hand: red 7, R8, the blue wager, green 2, green 3, Y4, yellow 5, white 10\n"
            "Bo's hand: red 2, red 3, red 4, red 5, red 6, blue 2, blue 3, blue 4\n"
            "You play the red 7\nYou draw the white 2 from the draw pile\n"
            "Bo plays the red 2\nBo draws a card\n"
            "You play the white 2\nYou draw a card\n")
    result = import_text(text)
    record = result.records[0]
    assert record.tags["Player1"] == "You" and record.tags["Player2"] == "Bo"
    assert record.tags["Hand1"] == "R7 R8 Bw G2 G3 Y4 Y5 W10"
    assert record.tags["Hand2"] == "R2 R3 R4 R5 R6 B2 B3 B4"
    assert [t.text for t in record.turns] == ["R7/d=W2", "R2/d", "W2/d"]
    assert result.valid


def test_round_headings_make_a_match_and_the_rules_end_each_round() -> None:
    first, second = random_game(61, names=("Ada", "Bo")), random_game(62, names=("Bo", "Ada"))
    told = [export_records([strip_deal(game)], "text").text.split("\n\n", 1)[1]
            for game in (first, second)]
    text = f"Round 1\n{told[0]}\n=== Round 2 ===\n{told[1]}"
    result = import_text(text)
    assert [r.tags.get("Game") for r in result.records] == ["1", "2"]
    assert {r.tags["Match"] for r in result.records} == {"Ada vs Bo"}
    assert [r.termination for r in result.records] == [first.termination, second.termination]
    # Without headings the draw pile's end still ends each game.
    joined = "\n".join(line for line in text.splitlines() if "Round" not in line
                       and not line.startswith("Final score"))
    again = import_text(joined)
    assert [len(r.turns) for r in again.records] == [len(first.turns), len(second.turns)]
    assert "Game" not in again.records[0].tags


# -- the round trip ------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=100_000), six=st.booleans(),
       view=st.sampled_from(["all", None, 0, 1]), reveal=st.booleans(), notes=st.booleans())
def test_lcn_to_text_to_lcn_is_unchanged(seed: int, six: bool, view: object, reveal: bool,
                                          notes: bool) -> None:
    game = random_game(seed, expeditions=6 if six else 5, reveal_draws=reveal)
    if view != "all":
        game = strip_deal(game, keep=view)  # type: ignore[arg-type]
    if notes:
        game.tags["Event"] = 'Club; round {2} "final"'
        game.intro_comments.append("A game\nover two lines")
        game.turns[4].glyphs += ["?!", "$18"]
        game.turns[4].comments += ["why?", "a } brace"]
        game.turns[9].comments.append("Bo said: \"take it\"; and so on")
        game.closing_comments.append("Well played.")
    text = export_records([game], "text").text
    result = import_text(text)
    assert result.format == "text" and result.valid, [d.format() for d in result.diagnostics]
    expected = write_game(game)
    if notes:  # a comment holding `}` is written as a `;` comment, as the LCN writer does
        expected = expected.replace("{a } brace}", "; a } brace\n")
    assert write_game(result.records[0]).split() == expected.split()


def test_several_games_and_an_unfinished_one_go_both_ways() -> None:
    games = [random_game(71), strip_deal(random_game(72), keep=1), random_game(73)]
    games[2].turns = games[2].turns[:9]
    games[2].termination = games[2].tags["Result"] = "*"
    text = export_records(games, "text").text
    back = import_text(text).records
    assert [write_game(r) for r in back] == [write_game(g) for g in games]


def test_the_text_form_reads_aloud() -> None:
    game = GameRecord(tags=Tags({"Player1": "Ada", "Player2": "Bo"}), termination="*",
                      turns=[Turn("xRw/d"), Turn("B4/R"), Turn("xB5/d=Y2"), Turn("xG3/B")])
    text = export_records([game], "text").text
    assert text.splitlines()[3:] == [
        "Ada discards a red wager.", "Ada draws from the draw pile.",
        "Bo plays the blue 4.", "Bo takes a red wager.",
        "Ada discards the blue 5.", "Ada draws the yellow 2 from the draw pile.",
        "Bo discards the green 3.", "Bo takes the blue 5.",
    ]


def test_games_that_cannot_be_told_say_why() -> None:
    rivals = GameRecord(tags=Tags({"Variant": "rivals"}))
    broken = GameRecord(tags=Tags({"Player1": "A", "Player2": "B"}), turns=[Turn("Q5/d")])
    result = export_records([rivals, broken], "text")
    assert len(result.diagnostics) == 2
    assert "a rivals game" in result.diagnostics[0].message
    assert "turn 1 `Q5/d` is not a classic move" in result.diagnostics[1].message


# -- house rules ---------------------------------------------------------------------------
def test_taking_back_the_discarded_card_is_named_as_a_house_rule() -> None:
    result = import_text(f"{OPENING}Bo discards the green 5\nBo takes the green 5\n")
    record = result.records[0]
    assert record.tags["HouseRules"] == houserules.TAKE_BACK
    (note,) = [d for d in result.diagnostics if d.code == "house-rule"]
    assert note.line == 4 and note.rule == "C-DRAW-NOT-JUST-DISCARDED"
    (error,) = [d for d in result.diagnostics if d.is_error]
    assert error.code == "draw-just-discarded" and error.line == 4


def _bonus_game() -> GameRecord:
    for seed in range(3000):
        game = random_game(seed)
        report = validate_record(game)
        if houserules.scores_without_bonus(report.state) != report.score.totals:
            return game
    raise AssertionError("no game with an 8-card expedition")


def test_scores_without_the_bonus_are_named_as_a_house_rule() -> None:
    game = _bonus_game()
    report = validate_record(game)
    plain = houserules.scores_without_bonus(report.state)
    names = game.players()
    text = export_records([game], "text").text.replace(f'[Result "{game.termination}"]\n', "")
    text = text.replace(f"Final score: {names[0]} {report.score.totals[0]}, {names[1]} "
                        f"{report.score.totals[1]}.",
                        f"{names[0]} scores {plain[0]} points\n{names[1]} scores {plain[1]} points")
    result = import_text(text)
    record = result.records[0]
    assert record.tags["HouseRules"] == houserules.NO_BONUS
    assert record.termination == game.termination and result.valid
    (note,) = [d for d in result.diagnostics if d.code == "house-rule"]
    assert note.rule == "C-SCORE-BONUS" and note.severity.value == "warning"


def test_scores_no_rule_explains_are_kept_and_fail_validation() -> None:
    game = random_game(5)
    names = game.players()
    text = export_records([game], "text").text.replace(f'[Result "{game.termination}"]\n', "")
    text = text.rsplit("Final score", 1)[0] + f"Final score: {names[0]} 1, {names[1]} 2\n"
    result = import_text(text)
    assert result.records[0].termination == "1:2" and "HouseRules" not in result.records[0].tags
    (error,) = [d for d in result.diagnostics if d.is_error]
    assert error.code == "result-mismatch" and error.line == len(text.splitlines())


# -- errors by line, never a guess ---------------------------------------------------------
@pytest.mark.parametrize("text, line, message", [
    (f"{OPENING}Bo says hello\n", 3, "`Bo says hello` is not a line of a narrated log"),
    (f"{OPENING}Bo discards the green frog\n", 3, "`frog` does not fit here"),
    (f"{OPENING}Bo plays the red 7\nBo draws the blue 5\n", 4, "from where?"),
    (f"{OPENING}Bo plays the red 8\nBo takes a card\n", 4, "takes what?"),
    (f"{OPENING}Bo legt die rote 8\n", 3, "`legt` alone does not say where the card goes"),
    (f"{OPENING}Bo plays the red 8\nBo draws a card\nCy plays the red 9\n", 5, "a third player, Cy"),
    (f"{OPENING}Bo plays the red 8\nBo draws a card\nBo plays the red 9\n", 5,
     "Bo acts, but it is Ada's turn"),
    (f"{OPENING}Ada plays the red 8\n", 3, "Ada acts, but it is the other player's turn"),
    ("Ada plays the red 7\nAda plays the red 8\n", 2, "a second card placed before drawing"),
    ("Ada draws a card\n", 1, "draws without having played or discarded"),
    (f"{OPENING}Bo plays the red\n", 3, "which card?"),
    (f"{OPENING}Bo plays the red 8 onto the draw pile\nBo draws a card\n", 3,
     "cannot be placed on the draw pile"),
    (f"{OPENING}Bo plays the red 8 to the blue expedition\n", 3, "not the blue one"),
    (f"{OPENING}It is Ada's turn\n", 3, "but it is the other player's"),
    (f"Players: Ada, Bo\n{OPENING}It is Ada's turn\n", 4, "but it is Bo's"),
    (f"{OPENING}Bo plays the red 8 {{never closed\n", 3, "never closed"),
    ('[Player1 "Bo"]\n' + OPENING, 2, "Ada moves first, but the tags make Bo Player1"),
])
def test_every_unreadable_line_is_an_error_with_its_line(text: str, line: int, message: str) -> None:
    error = refused(text)
    assert message in str(error), str(error)
    assert error.diagnostics[0].line == line


def test_every_bad_line_is_reported_at_once() -> None:
    error = refused("Ada plays the red 7\nAda dances\nAda draws a card\nBo sings\nBo plays R4\n")
    assert [d.line for d in error.diagnostics] == [2, 4]
