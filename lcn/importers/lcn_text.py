"""LCN itself as a format of ``lcn convert``: read as the reader reads it, written canonically.

Reading LCN here lets every other output format start from an LCN file (``lcn convert
--to metapyziks game.lcn``). The reader is lenient, so a file with problems still converts;
its problems are reported with the file's own lines, like ``lcn validate`` does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..diagnostics import Diagnostic
from ..messages import template
from ..model import GameRecord
from ..reader import Reader
from ..writer import write_game
from .base import Conversion, Importer, syntax_error

_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z0-9][A-Za-z0-9_+#=:-]*\s+"(?:[^"\\]|\\.)*"\s*\]\s*$')
#: Movetext words of any variant have digits, slashes, colons or glyphs; prose has none.
_NOTATION_WORD = re.compile(r"[0-9/:*$]|-$|^[!?]+$")
#: A comment left open runs to the end, as in LCN (and so ``{{{…`` is scanned once, not once
#: per brace).
_COMMENTS = re.compile(r"\{[^}]*\}?|;[^\n]*")  # a comment left open runs to the end
_CLASSIC_WORD = re.compile(r"(?:\d+\.+)?x?[YBWGRPO](?:10|[2-9]|w)/(?:[dD](?:=[YBWGRPO](?:10|[2-9]|w))?"
                           r"|[YBWGRP])[!?]*", re.IGNORECASE)


class LCNImporter(Importer):
    name = "lcn"
    title = template("LCN (Lost Cities Notation)")
    writes = True

    def detect(self, text: str) -> float:
        lines = [line for line in text.split("\n", 200)[:200] if line.strip()]
        if not lines:
            return 0.0
        tags = sum(1 for line in lines if _TAG_LINE.match(line))
        movetext = _COMMENTS.sub(" ", "\n".join(line for line in lines if not _TAG_LINE.match(line)))
        words = movetext.split()
        if _TAG_LINE.match(lines[0]) and tags >= min(2, len(lines)):
            # Tags alone say little (other formats can carry them): the movetext decides.
            if not words:
                return 0.9
            notation = sum(1 for word in words if _NOTATION_WORD.search(word))
            return 0.5 + 0.45 * notation / len(words)
        if not words:
            return 0.0
        moves = sum(1 for word in words if _CLASSIC_WORD.fullmatch(word))
        return 0.8 * moves / len(words) if moves >= 2 else 0.0

    def games_past(self, text: str, limit: int) -> bool:
        return any(count > limit for count, _ in enumerate(Reader(text, express=True), 1))

    def read(self, text: str) -> Conversion:
        reader = Reader(text)
        records = list(reader)
        if not records:
            raise syntax_error(self.name, reader.file_diagnostics or [])
        diagnostics: list[Diagnostic] = list(reader.file_diagnostics)
        return Conversion(records, diagnostics, [None] * len(records))

    def write_record(self, record: GameRecord) -> str:
        return write_game(record)

    def join(self, chunks: list[str]) -> str:
        return "\n".join(chunks)

    def write(self, records: Sequence[GameRecord]) -> tuple[str, list[Diagnostic]]:
        return self.join([write_game(r) for r in records]), []


IMPORTER = LCNImporter()
