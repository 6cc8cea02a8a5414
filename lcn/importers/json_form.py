"""The JSON form of records (``lcn.jsonform``) as a format of ``lcn convert``.

Any variant converts: the JSON form is the record, not a reading of it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .. import jsonform
from ..diagnostics import Diagnostic, Severity
from ..messages import msg, template
from ..model import GameRecord
from .base import Conversion, Importer, SourceMap, note, syntax_error


class JSONImporter(Importer):
    name = "json"
    title = template("LCN records as JSON")
    writes = True
    streams = False  # one JSON document holds every game
    #: A JSON document is known to hold records only once it is parsed, and half of one does
    #: not parse: detection needs all of it (json.loads is linear, in C, and a text that does
    #: not start with ``{`` or ``[`` is refused at its first character).
    detects_whole = True

    def detect(self, text: str) -> float:
        head = text.lstrip()[:1]
        if head not in ("{", "["):
            return 0.0
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return 0.0
        try:
            jsonform.load_document(data)
        except jsonform.JSONFormError:
            # JSON, but not records: name this format only if it claims to be one.
            return 0.5 if isinstance(data, dict) and data.get("format") == jsonform.FORMAT else 0.1
        return 1.0

    def read(self, text: str) -> Conversion:
        try:
            records = jsonform.loads(text)
        except jsonform.JSONFormError as exc:
            problems = [note("json-form", msg("{path}: {message}", path=path, message=message)
                             if path else message, Severity.ERROR,
                             line=exc.line, column=exc.column) for path, message in exc.problems]
            raise syntax_error(self.name, problems) from None
        return Conversion(records, [], [SourceMap(tag_lines=False) for _ in records])

    def write_record(self, record: GameRecord) -> str:
        return jsonform.dumps([record])

    def write(self, records: Sequence[GameRecord]) -> tuple[str, list[Diagnostic]]:
        return jsonform.dumps(records), []


IMPORTER = JSONImporter()
