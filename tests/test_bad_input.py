"""Bad input: every kind gets a diagnostic with its place and a clear message, through the
library and through ``lcn validate``; never a traceback."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn.diagnostics import Severity

HEAD = b'[Player1 "Ada"]\n[Player2 "Bo"]\n\n'


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes
    code: str
    line: int
    column: int | None
    severity: Severity
    #: Words the message must hold: what was expected or what to do.
    says: str
    exit_code: int


CASES = [
    Case("wrong card R11", HEAD + b"1. R11/d R4/d *\n", "bad-card", 4, 4, Severity.ERROR,
         "a card is a colour and a value 2-10", 1),
    Case("wrong card Q5", HEAD + b"1. R5/d Q5/d *\n", "bad-card", 4, 9, Severity.ERROR,
         "expected one of Y B W G R", 1),
    Case("wrong draw source", HEAD + b"1. R5/x *\n", "bad-draw", 4, 6, Severity.ERROR,
         "expected `/d` (draw pile)", 1),
    Case("unterminated comment", HEAD + b"1. R5/d {no end\nR4/d *\n", "unterminated-comment", 4, 9,
         Severity.ERROR, "expected `}`", 1),
    Case("unterminated string", b'[Player1 "Ada]\n[Player2 "Bo"]\n\n1. R5/d *\n',
         "unterminated-string", 1, 10, Severity.ERROR, 'expected a closing `"`', 1),
    Case("malformed tag line", b'[Player1 "Ada"]\n[Player2 Bo]\n\n1. R5/d *\n', "tag-syntax", 2, 10,
         Severity.ERROR, 'expected `"` to open the value', 1),
    Case("tag line without its bracket", b'[Player1 "Ada"\n[Player2 "Bo"]\n\n1. R5/d *\n',
         "tag-syntax", 1, 15, Severity.ERROR, "expected `]`", 1),
    Case("missing blank line", b'[Player1 "Ada"]\n[Player2 "Bo"]\n1. R5/d *\n', "missing-blank-line",
         3, 1, Severity.WARNING, "expected a blank line", 0),
    Case("Windows line ending", HEAD.replace(b"\n", b"\r\n") + b"1. R5/d *\r\n", "crlf", 1, 16,
         Severity.WARNING, "`lcn fmt` writes LF", 0),
    Case("byte order mark", b"\xef\xbb\xbf" + HEAD + b"1. R5/d *\n", "bom", 1, 1, Severity.WARNING,
         "ignored", 0),
    Case("Latin-1 file", b'[Player1 "J\xf6rg"]\n[Player2 "Bo"]\n\n1. R5/d *\n', "encoding", 1, 12,
         Severity.ERROR, "LCN files are UTF-8", 1),
    Case("UTF-16 file", "\ufeff[Player1 \"Ada\"]\n".encode("utf-16"), "encoding", 1, 1,
         Severity.ERROR, "LCN files are UTF-8", 1),
    Case("no-break space", HEAD + "1. R5/d\u00a0R4/d *\n".encode(), "bad-space", 4, 8,
         Severity.ERROR, "U+00A0 (NO-BREAK SPACE)", 1),
    Case("empty file", b"", "empty-file", 1, None, Severity.ERROR, "no game found", 1),
    Case("blank file", b"\n \n\t\n", "empty-file", 3, None, Severity.ERROR, "no game found", 1),
    Case("no termination", HEAD + b"1. R5/d R4/d\n", "missing-termination", 4, None, Severity.ERROR,
         "expected the final scores or `*`", 1),
    Case("stray closing brace", HEAD + b"1. R5/d } R4/d *\n", "comment-syntax", 4, 9, Severity.ERROR,
         "without an opening `{`", 1),
    Case("unknown glyph", HEAD + b"1. R5/d!!! R4/d *\n", "glyph", 4, 8, Severity.ERROR,
         "expected one of", 1),
    Case("unknown variant", b'[Variant "chess"]\n\n1. e4 *\n', "unknown-variant", 1, 1,
         Severity.ERROR, "expected one of", 1),
]


def found(case: Case) -> list[lcn.Diagnostic]:
    reader = lcn.Reader(case.data)
    diagnostics = list(reader.file_diagnostics)
    for game in reader:
        diagnostics.extend(lcn.validate_record(game).diagnostics)
    diagnostics.extend(reader.file_diagnostics)
    return [d for d in diagnostics if d.code == case.code]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_library_reports_it_with_its_place(case: Case) -> None:
    matches = found(case)
    assert matches, case.name
    d = matches[0]
    assert (d.line, d.column, d.severity) == (case.line, case.column, case.severity)
    assert case.says in d.message
    assert d.rule is not None


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_lcn_validate_reports_it(case: Case, tmp_path: Path) -> None:
    path = tmp_path / "bad.lcn"
    path.write_bytes(case.data)
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == case.exit_code, result.output
    place = f"{path}:{case.line}:{case.column}:" if case.column else f"{path}:{case.line}:"
    assert f"{place} {case.severity.value}[{case.code}]" in result.output
    assert "Traceback" not in result.output
    data = json.loads(CliRunner().invoke(cli, ["validate", "--format", "json", str(path)]).output)
    diagnostics = [d for g in data["games"] for d in g["diagnostics"]]
    diagnostics += [d for f in data["files"] for d in f["diagnostics"]]
    assert any(d["code"] == case.code and d["line"] == case.line for d in diagnostics)


def test_no_word_is_lost_after_a_unicode_space() -> None:
    for space in ("\u00a0", "\u2003", "\u3000", "\x1c"):
        game = lcn.read_game(HEAD + f"1. R5/d{space}R4/d 2. R6/d {space}*\n".encode())
        assert [t.text for t in game.turns] == ["R5/d", "R4/d", "R6/d"] and game.termination == "*"
        assert [(d.code, d.column) for d in game.diagnostics] == [("bad-space", 8), ("bad-space", 22)]


def test_a_100_mb_line(tmp_path: Path) -> None:
    path = tmp_path / "huge.lcn"
    with path.open("wb") as handle:
        handle.write(HEAD + b"1. R5/d {")
        chunk = b"x" * (1 << 20)
        for _ in range(100):
            handle.write(chunk)
        handle.write(b"} R4/d *\n\n" + HEAD + b"1. Y5/d Y4/d *\n")
    games = list(lcn.read_games(path))
    assert len(games) == 2
    [d] = [d for d in games[0].diagnostics if d.code == "line-too-long"]
    assert (d.line, d.column, d.rule) == (4, lcn.reader.MAX_LINE + 1, "LCN-FILE")
    assert not games[1].diagnostics and [t.text for t in games[1].turns] == ["Y5/d", "Y4/d"]
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}:4:{lcn.reader.MAX_LINE + 1}: error[line-too-long]" in result.output
    assert len(result.output) < 10_000  # the source line is shown shortened, and no caret
    assert "game 2 (classic: Ada vs Bo, line 6): valid" in result.output
    fmt = CliRunner().invoke(cli, ["fmt", "--write", str(path)])
    assert fmt.exit_code == 1 and path.stat().st_size > 100 << 20


def test_a_huge_comment_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "comment.lcn"
    with path.open("wb") as handle:
        handle.write(HEAD + b"1. R5/d {")
        for _ in range(3000):
            handle.write(b"y" * 1000 + b"\n")
        handle.write(b"} R4/d *\n")
    [game] = list(lcn.read_games(path))
    assert [t.text for t in game.turns] == ["R5/d", "R4/d"]
    assert len(game.turns[0].comments[0]) <= lcn.reader.MAX_COMMENT + 1000
    # Dropping part of it is an error: `lcn fmt` must not write the shortened comment back.
    [d] = game.diagnostics
    assert (d.code, d.rule, d.line, d.column) == ("comment-too-long", "LCN-COMMENT", 4 + 1047, 1)
    fmt = CliRunner().invoke(cli, ["fmt", "--write", str(path)])
    assert fmt.exit_code == 1 and "error[comment-too-long]" in fmt.stderr


def test_binary_garbage_never_raises() -> None:
    import random

    rng = random.Random(7)
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        reader = lcn.Reader(HEAD + data)
        for game in reader:
            lcn.validate_record(game)
            lcn.write_game(game)
