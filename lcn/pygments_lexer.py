"""A Pygments lexer for LCN, registered as a Pygments plugin.

The package declares it under the ``pygments.lexers`` entry point group, so any tool built
on Pygments (the site's source view, Sphinx, ``pygmentize -l lcn``, many editors' previews)
highlights ``.lcn`` files once ``lcn`` is installed. It follows the notation's surface
(tags, comments, move numbers, glyphs, cards, terminations) rather than any one variant's
grammar, so it highlights every variant and never fails on a damaged record.

>>> from pygments.lexers import get_lexer_by_name
>>> lexer = get_lexer_by_name("lcn")
>>> tokens = [(str(kind)[6:], text) for kind, text in lexer.get_tokens('1. xB2/G R5/d! 57:-12')
...           if text.strip()]
>>> tokens[:4]
[('Name.Label', '1.'), ('Keyword', 'x'), ('Name.Constant', 'B2'), ('Punctuation', '/')]
>>> tokens[-3:]
[('Keyword', 'd'), ('Operator', '!'), ('Generic.Strong', '57:-12')]
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

_CARD = r"[YBWGRPO](?:10|[2-9]|w)"
#: A tag line as the reader takes it (the name's characters, a quoted value, escapes).
_TAG_LINE = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[ \t]+"(?:[^"\\]|\\.)*"[ \t]*\][ \t]*$')
#: The first line of movetext: a move number, a comment, a termination or a turn's word.
_MOVETEXT_START = re.compile(r"[ \t]*(?:[0-9]+\.|\{|;|\*|-?[0-9]+(?::-?[0-9]+)+|[A-Za-z][^\s\[\]]*)")


class LCNLexer(RegexLexer):
    """Lost Cities Notation: the PGN-like record of a game of Lost Cities."""

    name = "LCN"
    aliases: ClassVar[list[str]] = ["lcn", "lost-cities"]
    filenames: ClassVar[list[str]] = ["*.lcn"]
    mimetypes: ClassVar[list[str]] = ["text/x-lcn"]

    tokens: ClassVar[dict[str, list[Any]]] = {
        "root": [
            (r'^([ \t]*)(\[)([ \t]*)([A-Za-z0-9][A-Za-z0-9_+#=:-]*)([ \t]+)(")',
             bygroups(Whitespace, Punctuation, Whitespace, Name.Tag, Whitespace, String.Double),
             "tag-value"),
            (r"\{", Comment.Multiline, "comment"),
            (r";[^\n]*", Comment.Single),
            (r"(?<![\w:.-])-?\d+(?::-?\d+)+(?![\w:])", Generic.Strong),
            (r"(?<!\S)\*(?!\S)", Generic.Strong),
            (r"\d+\.+", Name.Label),
            (r"\$\d+", Name.Decorator),
            (r"[!?]{1,2}", Operator),
            (r"[A-Za-z][A-Za-z_]*(?=:)", Name.Attribute),
            (rf"x(?={_CARD}(?![\w]))", Keyword),
            (rf"{_CARD}(?![\w])", Name.Constant),
            (r"(?<=/)[dD](?![\w])", Keyword),
            (r"(?<=/)[YBWGRPO](?![\w])", Name.Constant),
            (r"[/:,=+-]", Punctuation),
            (r"\d+", Number.Integer),
            (r"\s+", Whitespace),
            (r"[^\s{;!?$/:,=+*-]+", Name),
            (r".", Text),
        ],
        "tag-value": [
            (r"\\.", String.Escape),
            (r'[^"\\\n]+', String.Double),
            (r'(")([ \t]*)(\])', bygroups(String.Double, Whitespace, Punctuation), "#pop"),
            (r'"', String.Double, "#pop"),
            (r"\n", Whitespace, "#pop"),
        ],
        "comment": [
            (r"[^}]+", Comment.Multiline),
            (r"\}", Comment.Multiline, "#pop"),
        ],
    }

    @staticmethod
    def analyse_text(text: str) -> float:
        """How surely the text is LCN, for ``pygments.lexers.guess_lexer``.

        LCN is a tag section (``[Name "value"]`` lines, with a ``Player1`` tag: PGN names
        its players White and Black) followed by movetext. Both together are sure (1.0,
        above the INI lexer's 0.8 for a first line in brackets); an LCN tag section alone is
        likely; anything else is not LCN. Only the head of the text is looked at.
        """
        lines = text[:8192].lstrip("\ufeff").splitlines()
        at = 0
        while at < len(lines) and (not lines[at].strip() or lines[at].startswith("%")):
            at += 1  # blank lines and escape lines before the first game
        names = []
        while at < len(lines) and (match := _TAG_LINE.match(lines[at])):
            names.append(match.group(1))
            at += 1
        if "Player1" not in names:
            return 0.0
        while at < len(lines) and not lines[at].strip():
            at += 1
        if at < len(lines) and _MOVETEXT_START.match(lines[at]):
            return 1.0
        return 0.5 if at >= len(lines) else 0.0
