"""What every damaged real log must give, in one place: the real-log tests of each program
damage their fixtures in their own ways, and all of them expect the same refusal."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from lcn_cli.main import cli


def refused(tmp_path: Path, path: Path, text: str, label: str) -> tuple[Path, str]:
    """Convert a damaged copy of ``path``; check it is refused with exit 1, no traceback and
    the copy's name in the message; give the copy's path and the command's standard error."""
    copy = tmp_path / path.name.removesuffix(".gz")
    copy.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["convert", str(copy), "-o", str(tmp_path / "out.lcn")])
    assert result.exit_code == 1, (label, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{copy}:" in result.stderr, (label, result.stderr[-2000:])
    return copy, result.stderr


def refused_at(tmp_path: Path, path: Path, text: str, label: str,
               location: re.Pattern[str]) -> tuple[int, int]:
    """As ``refused``, and the ``line:col`` the message gives (``location``'s two groups) lies
    within the damaged text."""
    _, stderr = refused(tmp_path, path, text, label)
    where = location.search(stderr)
    assert where is not None, (label, stderr[-2000:])
    line, column = int(where.group(1)), int(where.group(2))
    lines = text.split("\n")
    assert 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1
    return line, column
