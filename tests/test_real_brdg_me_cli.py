"""The output of brdg.me's command line imports to the game the program played.

``tests/data/real/brdg.me/NAME.cli.txt.gz`` is a shell transcript of brdg.me's own
``cmd/main.go`` (Miniand/brdg.me, built as it is; ``scripts/real/brdg_me_cli_driver.py``):
each command after ``$ ``, then what the program printed, a ``--- OUTPUT FOR <player> ---``
section for each player it shows, with the messages new to that player under ``Since last
time:`` and the board in terminal colours. ``NAME.state.json`` is the program's state, read
with its own ``dump`` command.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from real_support import refused_at
from test_real_brdgme import GO, check_round, dump_of, games_played

from lcn.importers import import_text

TRANSCRIPTS = sorted(GO.glob("*.cli.txt.gz"))
LOCATION = re.compile(r":(\d+):(\d+): error\[")
SECTION = re.compile(r"^--- OUTPUT FOR (.+) ---$", re.M)


def text_of(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def test_there_are_transcripts_of_a_complete_match_and_a_session_left_mid_turn() -> None:
    dumps = [dump_of(p) for p in TRANSCRIPTS]
    assert any(d["finished"] for d in dumps) and any(d.get("pending") for d in dumps)
    for path in TRANSCRIPTS:
        text = text_of(path)
        assert text.startswith("$ brdgme new lost_cities ")
        players = {m.group(1) for m in SECTION.finditer(text)}
        assert players == set(dump_of(path)["players"])


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_a_transcript_imports_to_the_game_the_program_played(path: Path) -> None:
    dump = dump_of(path)
    text = text_of(path)
    result = import_text(text)
    assert result.format == "brdgme"
    assert result.valid, [d.format() for d in result.diagnostics if d.is_error]
    rounds = games_played(dump)
    assert len(result.records) == len(rounds)
    # Read from the sections of the player shown last, who has seen every message.
    viewer = list(SECTION.finditer(text))[-1].group(1)
    for record, round_ in zip(result.records, rounds, strict=True):
        check_round(record, round_, dump, {viewer}, path)
    if dump.get("pending"):
        half = [d for d in result.diagnostics if d.code == "not-carried"]
        assert len(half) == 1 and f"{dump['pending']['player']}'s turn" in half[0].message


def damages(text: str) -> list[tuple[str, str]]:
    entries = [m for m in re.finditer(r" (played|discarded) ", text)]
    out = []
    for at in (0.2, 0.6, 0.95):
        m = entries[int(len(entries) * at)]
        out.append((f"cut at {at}", text[:m.start() + 4]))
    m = entries[len(entries) // 3]
    out.append(("verb edited", text[:m.start()] + " payed " + text[m.end():]))
    line_start = text.rfind("\n", 0, m.start()) + 1
    stamp = text.index(" UTC: ", line_start)
    out.append(("stamp edited", text[:stamp] + " UTC; " + text[stamp + 6:]))
    card = re.compile(r"([RGWBY])(X|10|[2-9])")
    c = card.search(text, m.end())
    assert c is not None
    out.append(("card edited", text[:c.start()] + c.group(1) + "11" + text[c.end():]))
    return out


DAMAGED = [(path, label, text) for path in TRANSCRIPTS for label, text in damages(text_of(path))]


@pytest.mark.parametrize("path, label, text", DAMAGED,
                         ids=[f"{p.name}:{label}" for p, label, _ in DAMAGED])
def test_a_damaged_transcript_is_refused_with_its_place(tmp_path: Path, path: Path, label: str,
                                                        text: str) -> None:
    refused_at(tmp_path, path, text, label, LOCATION)
