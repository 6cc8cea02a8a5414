"""The importers speak German: `lcn convert` in a German environment says every problem with
a real log (damaged copies of the programs' own output in tests/data/real) and every note on
what it could not carry over in German, with no English sentence of the catalog left in.

Two checks, so that a message can fail either way: each diagnostic's message differs from the
English run's (a plain English string that never went through the catalog says the same in
both), and no English phrase of the catalog's templates appears in the German output (a nested
part left English, such as a field's name inside a sentence).
"""

from __future__ import annotations

import re
import string
from functools import cache
from pathlib import Path

import pytest
import test_real_brdgme
import test_real_metapyziks
import test_real_openspiel
from babel.messages.pofile import read_po
from click.testing import CliRunner

from cli.main import cli
from lcn.messages import LOCALE_DIR

REAL = Path(__file__).resolve().parent / "data" / "real"

#: What `lcn` says about an input: a diagnostic (``file:line:column: error[code] message``,
#: the place left out when it has none), its summary (``file: 1 game read as brdgme``), or
#: the command's own line (``lcn: file: ...``).
SAID = re.compile(r"^(?:lcn: |\S*?\.(?:txt|json)(?::\d+)*: (?:(?:error|warning|info)\[[\w-]+\] )?)"
                  r"(.*)$", re.MULTILINE)


def _cases() -> list[tuple[str, str, str]]:
    """(id, file name, text): damaged copies of every program's real output, and real logs
    whose conversion leaves notes (a half turn, a disqualification, the wagers' ids)."""
    cases: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for path, label, text in test_real_brdgme.DAMAGED:
        if (path.parent.name, label) not in seen:  # one copy of each damage per program
            seen.add((path.parent.name, label))
            cases.append((f"{path.parent.name}/{path.name}:{label}",
                          path.name.removesuffix(".gz"), text))
    game = test_real_openspiel.GAMES[0]
    for label, (name, text) in test_real_openspiel._damaged(game).items():
        cases.append((f"openspiel/{game}:{label}", name, text))
    for label, (name, text) in test_real_metapyziks._damaged().items():
        cases.append((f"metapyziks:{label}", name, text))
    for path in (REAL / "brdg.me" / "midturn-3.mick.txt",
                 REAL / "metapyziks" / "disqualified.console.txt",
                 REAL / "openspiel" / f"{game}.actions.txt"):
        cases.append((f"{path.parent.name}/{path.name}", path.name, path.read_text()))
    return cases


CASES = _cases()


@cache
def english_phrases() -> frozenset[str]:
    """The English pieces of the library's templates that their German wording does not keep:
    runs of two words or more between placeholders and quoted notation."""
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / "lcn.po").open("rb") as handle:
        catalog = read_po(handle)
    phrases = set()
    for entry in catalog:
        if not entry.id or not entry.string:
            continue
        literal = "\x00".join(text for text, *_ in string.Formatter().parse(str(entry.id)))
        for piece in re.split(r"\x00|`[^`]*`|\"[^\"]*\"|\([^)]*\)|[:;,.]", literal):
            piece = piece.strip()
            if (len(piece.split()) >= 2 and len(piece) >= 10 and piece.lower() not in
                    str(entry.string).lower()):
                phrases.add(piece)
    return frozenset(phrases)


def _convert(tmp_path: Path, name: str, text: str, language: str) -> str:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    runner = CliRunner(env={"LANGUAGE": language, "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""})
    result = runner.invoke(cli, ["convert", str(source), "-o", str(tmp_path / "out.lcn")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.stderr
    return result.stderr


def _messages(output: str) -> list[str]:
    return SAID.findall(output)


def _english_left(output: str) -> list[str]:
    shown = "\n".join(_messages(output))
    return sorted(p for p in english_phrases() if p in shown)


@pytest.mark.parametrize("name, text", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_convert_says_the_problems_of_real_logs_in_german(tmp_path: Path, name: str,
                                                          text: str) -> None:
    english = _messages(_convert(tmp_path, name, text, "en"))
    german_output = _convert(tmp_path, name, text, "de")
    german = _messages(german_output)
    assert english, "the case gives no diagnostic to check"
    assert len(german) == len(english)
    same = [e for e, g in zip(english, german, strict=True) if e == g]
    assert not same, f"said in English in a German environment: {same}"
    assert not _english_left(german_output), german_output


@pytest.mark.parametrize("name, text", [CASES[0][1:], CASES[-2][1:]],
                         ids=[CASES[0][0], CASES[-2][0]])
def test_the_check_finds_english(tmp_path: Path, name: str, text: str) -> None:
    """The phrase check is not empty-handed: it finds the English run's sentences."""
    assert _english_left(_convert(tmp_path, name, text, "en"))
