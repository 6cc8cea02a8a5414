"""brdg.me's e-mails, as its mailer sent them, import to the game the program played.

``tests/data/real/brdg.me/NAME.<player>.mbox.gz`` is the mailbox of one player: every e-mail
brdg.me's server code sent them during the match (``SendRichMail`` of Miniand/brdg.me,
through SMTP, received byte for byte; see the README there), kept as an mbox file. The log is
in the base64 ``text/plain`` part of each, under ``Since last time:``.
"""

from __future__ import annotations

import base64
import gzip
import re
from pathlib import Path

import pytest
from real_support import refused_at
from test_real_brdgme import GO, check_round, dump_of, games_played, viewer_of

from lcn.importers import export_records, import_text

MAILBOXES = sorted(GO.glob("*.mbox.gz"))
LOCATION = re.compile(r":(\d+):(\d+): error\[")
_PLAIN = re.compile(r"Content-Type: text/plain\n\n(\S+)\n")


def text_of(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def log_of(path: Path) -> Path:
    """The player's log as brdg.me renders it (the plain text the same game wrote)."""
    return path.with_name(path.name.removesuffix(".mbox.gz") + ".txt")


def test_there_are_mailboxes_of_both_players_of_a_complete_match() -> None:
    assert len(MAILBOXES) >= 2
    for path in MAILBOXES:
        assert dump_of(path)["finished"]
        text = text_of(path)
        assert text.startswith("From play@brdg.me ")
        # As brdg.me's mailer writes them: two base64 parts, the text with no charset, and
        # no blank line between the headers and the first boundary.
        first = text.split("\n\n", 1)[0]
        assert "Content-Type: multipart/alternative; boundary=" in first
        assert re.search(r"\n--[0-9a-f]{30,}\nContent-Transfer-Encoding: base64\n"
                         r"Content-Type: text/plain$", first)
        assert 'Content-Type: text/html; charset="UTF-8"' in text


@pytest.mark.parametrize("path", MAILBOXES, ids=lambda p: p.name)
def test_a_mailbox_imports_to_the_game_the_program_played(path: Path) -> None:
    dump = dump_of(path)
    result = import_text(text_of(path))
    assert result.format == "brdgme"
    assert result.valid, [d.format() for d in result.diagnostics if d.is_error]
    rounds = games_played(dump)
    assert len(result.records) == len(rounds)
    sees = viewer_of(log_of(path), dump)
    assert len(sees) == 1
    for record, round_ in zip(result.records, rounds, strict=True):
        check_round(record, round_, dump, sees, log_of(path))
    # Each message reached the player in one e-mail: together they are the player's log.
    assert export_records(result.records, "lcn").text == export_records(
        import_text(log_of(path).read_text(encoding="utf-8")).records, "lcn").text


def _recoded(text: str, index: int, edit: object) -> str:
    """The mailbox with the text part of its e-mail ``index`` decoded, edited, encoded."""
    m = list(_PLAIN.finditer(text))[index]
    body = base64.b64decode(m.group(1)).decode("utf-8")
    assert callable(edit)
    new = base64.b64encode(edit(body).encode("utf-8")).decode("ascii")
    return text[:m.start(1)] + new + text[m.end(1):]


def damages(text: str) -> list[tuple[str, str]]:
    parts = list(_PLAIN.finditer(text))
    with_play = [i for i, m in enumerate(parts) if b" played " in base64.b64decode(m.group(1))]
    out = []
    for at in (0.3, 0.8):  # cut inside a base64 part, in a log entry
        i = with_play[int(len(with_play) * at)]
        body = base64.b64decode(parts[i].group(1))
        cut = 4 * ((body.index(b" played ") + 4) // 3)
        out.append((f"cut at {at}", text[:parts[i].start(1) + cut]))
    i = with_play[len(with_play) // 2]
    out.append(("card edited", _recoded(text, i, lambda b: re.sub(
        r"played ((?:\x1b\[[0-9;]*m)*)([RGWBY])(X|10|[2-9])", r"played \1\g<2>11", b, count=1))))
    out.append(("verb edited", _recoded(text, i, lambda b: b.replace(" played ", " payed ", 1))))
    out.append(("stamp edited", _recoded(text, i, lambda b: b.replace(" UTC: ", " UTC; ", 1))))
    # Characters of the base64 alphabet that decode to bytes no text has (0xff), in an entry
    # (characters outside the alphabet are skipped, as RFC 2045 says decoders do).
    quad = parts[i].start(1) + 4 * ((base64.b64decode(parts[i].group(1)).index(b" played ") + 3)
                                    // 3)
    out.append(("base64 garbled", text[:quad] + "////" + text[quad + 4:]))
    return out


DAMAGED = [(path, label, text) for path in MAILBOXES for label, text in damages(text_of(path))]


@pytest.mark.parametrize("path, label, text", DAMAGED,
                         ids=[f"{p.name}:{label}" for p, label, _ in DAMAGED])
def test_a_damaged_mailbox_is_refused_with_its_place(tmp_path: Path, path: Path, label: str,
                                                     text: str) -> None:
    refused_at(tmp_path, path, text, label, LOCATION)
