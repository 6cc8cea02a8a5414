"""``pygments.lexers.guess_lexer`` and LCN: every sample is taken for LCN, and no other
common format is."""

from __future__ import annotations

from pathlib import Path

import pytest
from pygments.lexers import guess_lexer

from lcn.pygments_lexer import LCNLexer

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_FILES = sorted((ROOT / "samples").rglob("*.lcn"))

PGN = """[Event "F/S Return Match"]
[Site "Belgrade, Serbia JUG"]
[Date "1992.11.04"]
[Round "29"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {This opening is called the Ruy Lopez.} 4. Ba4 Nf6 1/2-1/2
"""
INI = """[Player1 settings]
name = Ada
colour = red

[Player2 settings]
name = Bo
"""
TOML = """[project]
name = "lost-cities-notation"
version = "1.0.0"

[tool.ruff]
line-length = 110
"""
OTHERS = {
    "pgn": PGN,
    "ini": INI,
    "toml": TOML,
    "desktop": "[Desktop Entry]\nName=LCN\nExec=lcn serve\n",
    "markdown": (ROOT / "README.md").read_text(encoding="utf-8"),
    "markdown-spec": (ROOT / "docs" / "spec.md").read_text(encoding="utf-8"),
    "python": (ROOT / "lcn" / "reader.py").read_text(encoding="utf-8"),
    "python-tests": Path(__file__).read_text(encoding="utf-8"),
    "json": (ROOT / "docs" / "lcn-record.schema.json").read_text(encoding="utf-8"),
    "shell": (ROOT / "scripts" / "test").read_text(encoding="utf-8"),
    "pyproject": (ROOT / "pyproject.toml").read_text(encoding="utf-8"),
    "yaml": "site_name: LCN\nnav:\n  - Home: index.md\n",
}


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_guess_lexer_takes_every_sample_for_lcn(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert LCNLexer.analyse_text(text) == 1.0
    assert isinstance(guess_lexer(text), LCNLexer)


def test_an_lcn_tag_section_alone_is_likely_lcn() -> None:
    assert LCNLexer.analyse_text('[Player1 "Ada"]\n[Player2 "Bo"]\n') == 0.5
    assert LCNLexer.analyse_text('\ufeff\n[Player1 "Ada"]\n\n1. R5/d *\n') == 1.0


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_no_other_common_format_is_taken_for_lcn(name: str) -> None:
    text = OTHERS[name]
    assert LCNLexer.analyse_text(text) == 0.0
    assert not isinstance(guess_lexer(text), LCNLexer)
