"""`lcn show`'s text board speaks the environment's language: in German, every line of the
board that says a word (a label, a status, a colour, a hand) is said in German, for each
game, while the columns stay where they are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_german_importers import english_phrases

from cli.main import cli

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
#: (sample, turn, view): the classic board with a hidden hand, Rivals after an auction,
#: Roll & Write's sheets.
BOARDS = [("classic/rulebook-scoring.lcn", "10", "1"), ("classic/rulebook-scoring.lcn", None, "all"),
          ("rivals/three-players.lcn", "12", "all"), ("rivals/three-players.lcn", None, "all"),
          ("rollwrite/three-players.lcn", "8", "all"), ("rollwrite/three-players.lcn", None, "all")]


def _show(sample: str, turn: str | None, view: str, language: str) -> list[str]:
    runner = CliRunner(env={"LANGUAGE": language, "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""})
    args = ["show", str(SAMPLES / sample), "--view", view] + (["--turn", turn] if turn else [])
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.stdout.split("\n")


def _names(sample: str) -> set[str]:
    return set(re.findall(r'\[Player\d? "([^"]+)"\]', (SAMPLES / sample).read_text())) | \
        {n for tag in re.findall(r'\[Players "([^"]+)"\]', (SAMPLES / sample).read_text())
         for n in tag.split(",")}


@pytest.mark.parametrize("sample, turn, view", BOARDS)
def test_the_board_is_drawn_in_german(sample: str, turn: str | None, view: str) -> None:
    english = _show(sample, turn, view, "en")
    german = _show(sample, turn, view, "de")
    assert len(german) == len(english)
    names = {n.strip() for n in _names(sample)}
    worded = 0
    for en, de in zip(english, german, strict=True):
        words = {w for w in re.findall(r"[A-Za-z]{3,}", en) if w not in names}
        if words:
            worded += 1
            assert de != en, f"left in English: {en!r}"
        # The columns stay in place: a line of columns is as long in both languages.
        if re.search(r"\s{4,}-?\d+$", en):
            assert len(de) == len(en), (en, de)
    assert worded >= 5
    shown = "\n".join(german)
    assert not [p for p in english_phrases() if p in shown], shown


def test_the_german_board_uses_the_game_s_words() -> None:
    classic = "\n".join(_show("classic/rulebook-scoring.lcn", "10", "1", "de"))
    assert "Nachziehstapel: 34 Karten" in classic and "Ablagestapel:" in classic
    assert "Expeditionen von Ada:" in classic and "8 Karten, verdeckt" in classic
    assert "  R Rot " in classic
    rivals = "\n".join(_show("rivals/three-players.lcn", "12", "all", "de"))
    assert "Auslage:" in rivals and "Vorrat:" in rivals and "Letzte Versteigerung" in rivals
    rollwrite = "\n".join(_show("rollwrite/three-players.lcn", "8", "all", "de"))
    assert "Wurf von Tove" in rollwrite and "\nBrücke " in rollwrite and "\nKreis " in rollwrite
