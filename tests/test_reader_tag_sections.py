"""A new game's tag section is taken in one step, with the same outcome as line by line.

When a game's first tag line starts a section of usual tag lines (each at its first column,
no escape, no name repeated), the reader takes the whole section in one search over its
text (``reader._read_section``) instead of a step of its loop for each line. These tests
compare what it reads with what the line-by-line reader reads from the same text given as
a stream of lines (``io.StringIO``, or a binary stream that only reads lines: no block
of lines to take a section from): the same
records, tag values, tag lines and diagnostics, on usual sections, on every kind of unusual
one, across the reader's 16 KiB blocks, and on random edits of tag lines.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lcn
from lcn import reader as reader_module
from lcn.reader import Reader

SAMPLES = sorted(Path(__file__).resolve().parent.parent.joinpath("samples").rglob("*.lcn"))

GAME = '[Event "Club night"]\n[Site "Kitchen"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\nR5/d R4/d *\n'


def _read(source: str | bytes | io.StringIO, express: bool) -> list[tuple[object, ...]]:
    """Each record with what equality of records leaves out: its tags' lines."""
    records = list(Reader(source, express=express))
    for record in records:
        record.expand()
    return [(record, dict(record.tags.lines), record.line, record.movetext_line) for record in records]


class _Lines:
    """A binary stream that only reads lines: the reader takes it a line at a time."""

    def __init__(self, data: bytes) -> None:
        self.readline = io.BytesIO(data).readline


def _same(text: str) -> None:
    """From a str and from bytes, as the line-by-line reader reads each."""
    data = text.encode("utf-8", "surrogateescape")
    for source, lines in ((text, io.StringIO(text)), (data, _Lines(data))):
        reference = _read(lines, False)  # type: ignore[arg-type]  # no section taken at once
        for express in (False, True):
            assert _read(source, express) == reference


def _counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"taken": 0, "refused": 0}
    original = reader_module._read_section

    def counting(*args: object) -> bool:
        taken = original(*args)  # type: ignore[arg-type]
        calls["taken" if taken else "refused"] += 1
        return taken

    monkeypatch.setattr(reader_module, "_read_section", counting)
    return calls


def test_usual_tag_sections_are_taken_in_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counted(monkeypatch)
    text = "\n".join([GAME] * 50)
    records = list(Reader(text.encode()))
    assert len(records) == 50 and calls == {"taken": 50, "refused": 0}
    assert records[1].tags.lines == {"Event": 8, "Site": 9, "Player1": 10, "Player2": 11}
    assert list(records[1].tags.items()) == [("Event", "Club night"), ("Site", "Kitchen"),
                                             ("Player1", "Ada"), ("Player2", "Bo")]
    _same(text)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_every_sample_reads_the_same(path: Path) -> None:
    _same(path.read_text(encoding="utf-8"))


UNUSUAL = {
    "a repeated name": GAME.replace('[Site "Kitchen"]', '[Event "Again"]'),
    "an escape": GAME.replace('"Kitchen"', '"Kit\\"chen\\\\"'),
    "an unknown escape": GAME.replace('"Kitchen"', '"Kit\\nchen"'),
    "an indented tag line": GAME.replace('[Site', '  [Site'),
    "an indented first tag line": "  " + GAME,
    "blanks after a tag line": GAME.replace('"Kitchen"]', '"Kitchen"]  \t'),
    "blanks inside the brackets": GAME.replace('[Site "Kitchen"]', '[ Site \t "Kitchen" ]'),
    "a bracket inside a value": GAME.replace('"Kitchen"', '"[Kitchen] x"'),
    "a tag inside a line": GAME.replace('[Site "Kitchen"]', 'x [Site "Kitchen"]'),
    "two tags on a line": GAME.replace('[Site "Kitchen"]', '[Site "Kitchen"] [Round "2"]'),
    "text after the bracket": GAME.replace('[Site "Kitchen"]', '[Site "Kitchen"] x'),
    "no closing bracket": GAME.replace('[Site "Kitchen"]', '[Site "Kitchen"'),
    "no closing quote": GAME.replace('[Site "Kitchen"]', '[Site "Kitchen]'),
    "no value": GAME.replace('[Site "Kitchen"]', '[Site]'),
    "an empty value": GAME.replace('"Kitchen"', '""'),
    "a name not allowed": GAME.replace('[Site', '[_Site'),
    "a comment line in the section": GAME.replace('[Site', '{a note}\n[Site'),
    "an escape line in the section": GAME.replace('[Site', '% a note\n[Site'),
    "movetext with no blank line": GAME.replace('"Bo"]\n\n', '"Bo"]\n'),
    "a line of blanks after the section": GAME.replace('"Bo"]\n\n', '"Bo"]\n  \n'),
    "one tag line": '[Player1 "Ada"]\n\nR5/d R4/d *\n',
    "a section at the end": GAME + '\n[Event "Last"]\n[Site "x"]',
    "a section and no movetext": GAME + '\n[Event "Last"]\n[Site "x"]\n\n',
    "a tag section after movetext": GAME.replace("*\n", "\n[Round \"2\"]\n[Site \"y\"]\n\nR5/d *\n"),
    "a game without tags before": "R5/d R4/d *\n\n" + GAME,
    "no-break spaces": GAME.replace('[Site "Kitchen"]', '[Site\u00a0"Kitchen"]'),
    "a value of other scripts": GAME.replace('"Kitchen"', '"Küche 厨房"'),
    "a bad byte": GAME.replace('"Kitchen"', '"K\udcffitchen"'),
    "a carriage return": GAME.replace('[Site "Kitchen"]\n', '[Site "Kitchen"]\r\n'),
}


@pytest.mark.parametrize("text", UNUSUAL.values(), ids=UNUSUAL.keys())
def test_unusual_sections_read_the_same(text: str) -> None:
    _same(text)
    _same("\n".join([GAME, text, GAME]))


def test_sections_across_the_readers_blocks_read_the_same() -> None:
    """Games of every length put tag sections across each 16 KiB block of bytes."""
    games = [GAME.replace("Club night", "x" * (seed * 37 % 101)) for seed in range(600)]
    text = "\n".join(games)
    assert len(text.encode()) > 4 * (1 << 14)
    _same(text)


def test_a_section_whose_name_is_repeated_is_reported_once() -> None:
    record = lcn.read_game(UNUSUAL["a repeated name"])
    assert record is not None
    assert [d.code for d in record.diagnostics] == ["duplicate-tag"]
    assert record.diagnostics[0].line == 2 and record.tags["Event"] == "Club night"


EDITS = st.sampled_from(['"', "\\", "[", "]", " ", "\t", "", "x", "Event", "\n", "{", ";", "%", "é"])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(GAME)), st.integers(0, 3), EDITS)
def test_any_edit_of_a_tag_section_reads_the_same(at: int, cut: int, insert: str) -> None:
    text = GAME[:at] + insert + GAME[at + cut:]
    _same("\n".join([GAME, text, GAME]))
