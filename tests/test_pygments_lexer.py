"""The LCN lexer as any Pygments user meets it: through Pygments' own plugin lookup."""

from __future__ import annotations

from pathlib import Path

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import find_lexer_class_for_filename, get_lexer_by_name, get_lexer_for_mimetype
from pygments.token import Comment, Error, Generic, Keyword, Name, Operator, String

from lcn.pygments_lexer import LCNLexer

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "samples").rglob("*.lcn"))


def test_pygments_finds_the_lexer_by_name_filename_and_mimetype() -> None:
    assert isinstance(get_lexer_by_name("lcn"), LCNLexer)
    assert find_lexer_class_for_filename("game.lcn") is LCNLexer
    assert isinstance(get_lexer_for_mimetype("text/x-lcn"), LCNLexer)


def _tokens(text: str) -> list[tuple[object, str]]:
    return [(kind, value) for kind, value in get_lexer_by_name("lcn").get_tokens(text) if value.strip()]


def test_tags_comments_moves_glyphs_and_the_termination() -> None:
    text = ('[Event "Club \\"night\\""]\n[Player1 "Ada"]\n\n{A comment\nover two lines} '
            '1. Rw/d! xB2/G $4 ; rest of line\n2. R5/d?! 57:-12\n')
    tokens = _tokens(text)
    kinds = dict((value, kind) for kind, value in tokens)
    assert kinds["Event"] is Name.Tag and kinds["Player1"] is Name.Tag
    assert (String.Escape, '\\"') in tokens
    assert any(kind is Comment.Multiline and "over two lines" in value for kind, value in tokens)
    assert kinds["; rest of line"] is Comment.Single
    assert kinds["1."] is Name.Label and kinds["2."] is Name.Label
    assert kinds["Rw"] is Name.Constant and kinds["B2"] is Name.Constant
    assert kinds["x"] is Keyword and kinds["d"] is Keyword
    assert kinds["!"] is Operator and kinds["?!"] is Operator
    assert kinds["$4"] is Name.Decorator
    assert kinds["57:-12"] is Generic.Strong


def test_the_unfinished_marker_and_rivals_words() -> None:
    tokens = _tokens("3. Quinn1 Dev2 Quinn- place:Rw,B4 up:Yw *\n")
    assert (Name.Attribute, "place") in tokens and (Name.Attribute, "up") in tokens
    assert (Name.Constant, "Rw") in tokens and (Name.Constant, "Yw") in tokens
    assert tokens[-1] == (Generic.Strong, "*")


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_sample_lexes_without_error_tokens_and_loses_nothing(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tokens = list(get_lexer_by_name("lcn").get_tokens(text))
    assert [value for kind, value in tokens if kind is Error] == []
    expected = text if text.endswith("\n") else text + "\n"  # Pygments ends the text with a newline
    assert "".join(value for _, value in tokens) == expected


def test_html_output_marks_the_parts() -> None:
    html = highlight('[Player1 "Ada"]\n\n1. R5/d *\n', get_lexer_by_name("lcn"), HtmlFormatter())
    assert '<span class="nt">Player1</span>' in html
    assert '<span class="no">R5</span>' in html
