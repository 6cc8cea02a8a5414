"""Logs printed by the real brdg.me (Go) and brdgme (Rust) programs import to the games they played.

The fixtures in ``tests/data/real/brdg.me`` and ``tests/data/real/brdgme`` were written by the
programs themselves (built from their repositories, driven by ``scripts/real``; see the
README there); each ``NAME.state.json`` is the program's own state: each round's deal, deck
order, turns and scores. Nothing here runs the programs: the tests read what they printed.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from real_support import refused

from lcn import validate_record
from lcn.importers import ImportError_, import_text
from lcn.importers.brdgme import lcn_card
from lcn.model import GameRecord
from lcn.variants.classic import CLASSIC_5, ClassicMove, format_move, parse_cards, parse_move

REAL = Path(__file__).resolve().parent / "data" / "real"
GO = REAL / "brdg.me"
RUST = REAL / "brdgme"

# The logs as brdg.me renders them (the command line's transcripts, ``*.cli.txt``, and the
# mailboxes have tests of their own).
GO_LOGS = sorted(p for p in GO.glob("*.txt") if not p.name.endswith(".cli.txt"))
RUST_LOGS = sorted(RUST.glob("*.repl.txt.gz"))
ALL_LOGS = GO_LOGS + RUST_LOGS


def text_of(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")


def dump_of(path: Path) -> dict[str, Any]:
    dump: dict[str, Any] = json.loads(
        (path.parent / (path.name.split(".")[0] + ".state.json")).read_text())
    return dump


def viewer_of(path: Path, dump: dict[str, Any]) -> set[str]:
    """Whose deck draws the log names: brdg.me shows each player their own; brdgme's REPL all."""
    if path.parent == RUST:
        return set(dump["players"])
    who = path.name[len(path.name.split(".")[0]) + 1:].removesuffix(".txt").removesuffix(".ansi")
    return {name for name in dump["players"] if name.lower() == who}


def shown_name(path: Path, name: str) -> str:
    """A player as the log names them: brdg.me (``TrimPlayerName``) shows the part of the
    e-mail address before the ``@``, at most 12 characters; brdgme the name."""
    return name if path.parent == RUST else name.strip().split("@")[0][:12]


def expected_moves(round_: dict[str, Any], sees: set[str]) -> list[str]:
    moves = []
    for turn in round_["turns"]:
        draw = "d" if turn["draw"] == "deck" else turn["draw"]
        drawn = lcn_card(turn["drawn"]) if draw == "d" and turn["player"] in sees else None
        moves.append(format_move(ClassicMove(turn["action"] == "discard", lcn_card(turn["card"]),
                                             draw, drawn)))
    return moves


def games_played(dump: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in dump["rounds"] if r["turns"]]


def test_there_are_real_logs_of_both_programs() -> None:
    assert len(GO_LOGS) >= 10 and len(RUST_LOGS) >= 4
    finished = [p for p in ALL_LOGS if dump_of(p)["finished"]]
    assert len(finished) >= 8  # complete matches of three rounds


@pytest.mark.parametrize("path", [p for p in ALL_LOGS if len(dump_of(p)["players"]) == 2],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_real_log_imports_to_the_game_the_program_played(path: Path) -> None:
    dump = dump_of(path)
    result = import_text(text_of(path))
    assert result.format == "brdgme"
    assert result.valid, [d.format() for d in result.diagnostics if d.is_error]
    rounds = games_played(dump)
    assert len(result.records) == len(rounds)
    sees = viewer_of(path, dump)
    for record, round_ in zip(result.records, rounds, strict=True):
        check_round(record, round_, dump, sees, path)
    inferred = [d for d in result.diagnostics if d.code == "inferred"]
    if path.parent == RUST:
        # brdgme leaves the last draw of every finished round out of its log.
        assert len(inferred) == sum(1 for r in rounds if "scores" in r)
        assert all(d.severity == "info" and d.line and d.column for d in inferred)
        assert all("drew the last card" in d.message for d in inferred)
    else:
        assert not inferred  # brdg.me logs the last draw ("0 remaining")
    if dump.get("pending"):
        pending = dump["pending"]
        half = [d for d in result.diagnostics if d.code == "not-carried"]
        assert len(half) == 1 and f"{pending['player']}'s turn" in half[0].message


def check_round(record: GameRecord, round_: dict[str, Any], dump: dict[str, Any], sees: set[str],
                path: Path) -> None:
    rust = path.parent == RUST
    players = dump["players"]
    starter = round_["starter"]
    seats = [starter, next(p for p in players if p != starter)]
    assert [record.tags["Player1"], record.tags["Player2"]] == [shown_name(path, p) for p in seats]
    assert record.tags["Game"] == str(round_["number"])
    assert [t.text for t in record.turns] == expected_moves(round_, sees)
    for seat, name in enumerate(seats, 1):
        tag = record.tags.get(f"Hand{seat}")
        if rust:  # brdgme logs each deal privately, and its REPL prints them all
            assert tag is not None
            assert sorted(parse_cards(tag, CLASSIC_5)) == sorted(
                lcn_card(c) for c in round_["hands"][name])
        else:  # brdg.me does not log the deal
            assert tag is None
    # The deck: every card the log shows drawn from it is the program's next card.
    order = [lcn_card(c) for c in round_["draw_order"]]
    drawn = [parse_move(t.text, CLASSIC_5).drawn for t in record.turns
             if parse_move(t.text, CLASSIC_5).draw == "d"]
    assert len(drawn) <= len(order)
    for index, card in enumerate(drawn):
        assert card is None or card == order[index], index
    if rust:
        assert drawn == order[:len(drawn)]
    report = validate_record(record)
    assert report.score is not None
    assert not [d for d in report.diagnostics if d.is_error], [d.format() for d in report.diagnostics]
    if "scores" in round_:
        assert report.score.totals == [round_["scores"][seats[0]], round_["scores"][seats[1]]]
        assert record.termination == f"{round_['scores'][seats[0]]}:{round_['scores'][seats[1]]}"
        assert len(drawn) == len(order)  # the round ran to its last card
    else:
        assert record.termination == "*"


def test_the_three_player_game_of_brdgme_is_refused_with_the_reason() -> None:
    path = RUST / "three-players-4.repl.txt.gz"
    assert len(dump_of(path)["players"]) == 3
    with pytest.raises(ImportError_) as caught:
        import_text(text_of(path))
    assert "3-player game" in str(caught.value)
    assert caught.value.diagnostics[0].line and caught.value.diagnostics[0].column


def test_match_totals_agree_with_the_program() -> None:
    for path in [p for p in ALL_LOGS if dump_of(p)["finished"]]:
        dump = dump_of(path)
        records = import_text(text_of(path)).records
        totals = {shown_name(path, p): 0 for p in dump["players"]}
        for record in records:
            score = validate_record(record).score
            assert score is not None
            for name, points in zip((record.tags["Player1"], record.tags["Player2"]),
                                    score.totals, strict=True):
                totals[name] += points
        assert totals == {shown_name(path, p): t for p, t in dump["totals"].items()}, path.name


# -- damaged copies ------------------------------------------------------------------------
ENTRY = re.compile(r"(played|discarded) (?:\x1b\[[0-9;]*m)*([RGWBY])(X|10|[2-9])")
LOCATION = re.compile(r":(\d+):(\d+): error\[")


def replaced(lines: list[str], index: int, line: str) -> str:
    return "\n".join([*lines[:index], line, *lines[index + 1:]])


def damages(text: str) -> list[tuple[str, str]]:
    """Damaged copies of a log: cut inside an entry, one entry edited, a marker changed."""
    lines = text.split("\n")
    out: list[tuple[str, str]] = []
    entry_lines = [i for i, line in enumerate(lines) if ENTRY.search(line)]
    for fraction in (0.2, 0.5, 0.9):  # truncated in the middle of an entry
        i = entry_lines[int(len(entry_lines) * fraction)]
        m = ENTRY.search(lines[i])
        assert m is not None
        out.append((f"cut at {fraction}", "\n".join([*lines[:i], lines[i][:m.start() + 3]])))
    i = entry_lines[len(entry_lines) // 3]  # a card that is not one of the game's
    out.append(("card edited", replaced(lines, i, ENTRY.sub(
        lambda m: m.group(1) + " " + m.group(2) + "11", lines[i], count=1))))
    i = entry_lines[len(entry_lines) // 2]  # another player's name
    out.append(("name edited", replaced(lines, i, re.sub(  # a letter more in the player's name
        r"((?:\x1b\[[0-9;]*m)*) (played|discarded) ", r"x\1 \2 ", lines[i], count=1))))
    i = entry_lines[2 * len(entry_lines) // 3]  # the verb of an entry
    out.append(("verb edited", replaced(
        lines, i, lines[i].replace("played", "payed").replace("discarded", "discorded"))))
    # The marker of the format: the stamp of an entry (brdgme's `` - ``, brdg.me's ``UTC:``).
    i = entry_lines[len(entry_lines) // 4]
    marked = re.sub(r"(\d\d:\d\d:\d\d\.\d+(?:\x1b\[[0-9;]*m)*) - ", r"\1 + ", lines[i], count=1)
    out.append(("stamp changed", replaced(lines, i, marked.replace(" UTC: ", " UTC; ", 1))))
    return out


DAMAGED = [(path, label, text) for path in ALL_LOGS if len(dump_of(path)["players"]) == 2
           and "ansi" not in path.name for label, text in damages(text_of(path))]


@pytest.mark.parametrize("path, label, text", DAMAGED,
                         ids=[f"{p.parent.name}/{p.name}:{label}" for p, label, _ in DAMAGED])
def test_a_damaged_copy_is_refused_with_its_place(tmp_path: Path, path: Path, label: str,
                                                   text: str) -> None:
    _, stderr = refused(tmp_path, path, text, label)
    where = LOCATION.search(stderr)
    assert where is not None, (label, stderr[-2000:])
    line = int(where.group(1))
    assert 1 <= line <= text.count("\n") + 1
