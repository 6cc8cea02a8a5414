"""Hostile inputs to the importers: bounded cost, and a clear refusal where there is a bound.

Each shape here once cost time or memory growing faster than the input (a line of commas,
thousands of player names, an e-mail in ``charset=punycode`` or of thousands of nested
parts, a run of numbers refused at its first, a long Metapyziks file). Costs are compared
between an input and one four times larger (CPU time or counted calls, with wide margins),
or measured against a cap; nothing is compared with a clock.
"""

from __future__ import annotations

import base64
import gc
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lcn_cli.main import cli
from site_support import make_app

from lcn.importers import ImportError_, InputTooComplex, export_records, get_importer, import_text
from tests.test_linear_cost import calls

ACTION = "Ada plays the red 7\n"


def cpu(work: Callable[[], object]) -> float:
    """The least CPU time of three runs of ``work`` (the least is the least disturbed), the
    cyclic garbage collector off: its passes grow with the objects alive, not with the work
    measured, and move a ratio on a loaded machine."""
    best = float("inf")
    for _ in range(3):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def grows_linearly(make: Callable[[int], str], run: Callable[[str], object], n: int) -> tuple[float, float]:
    """CPU time on ``make(n)`` and ``make(4 * n)``: a linear cost grows about 4 times, a
    quadratic one 16 times; the tests allow up to 8."""
    small, large = make(n), make(4 * n)
    return cpu(lambda: run(small)), cpu(lambda: run(large))


def _quietly(function: Callable[[str], object]) -> Callable[[str], object]:
    def run(text: str) -> object:
        try:
            return function(text)
        except ImportError_:
            return None
    return run


# -- narrated logs ----------------------------------------------------------------------------

def _commas(n: int) -> str:
    return ACTION + "Ada drew " + "," * n + "!\n"


@pytest.mark.parametrize("entry", ["detect", "read"])
def test_a_line_of_trailing_commas_costs_linear_time(entry: str) -> None:
    importer = get_importer("text")
    run = importer.detect if entry == "detect" else _quietly(importer.read)
    small, large = grows_linearly(_commas, run, 20_000)
    assert large < 8 * small + 0.05, (small, large)


def _named(n: int) -> str:
    return "".join(f"Players: a{i}, b{i}\n" for i in range(n)) + (
        ACTION + "Ada draws from the draw pile\n") * n


def test_thousands_of_player_names_cost_linear_steps() -> None:
    """Each action line looked its subject up among every name so far, sorted anew."""
    read = _quietly(get_importer("text").read)
    small, large = calls(read, _named(300)), calls(read, _named(1_200))
    assert large < 4.5 * small + 2_000, (small, large)


# -- brdg.me's e-mails ------------------------------------------------------------------------

HEAD = ("From play@brdg.me Mon Jan  1 00:00:00 2024\nSubject: Your turn in Lost Cities\n"
        "From: play@brdg.me\nMIME-Version: 1.0\n")


def mail(body: bytes, charset: str) -> str:
    return (HEAD + "Content-Type: multipart/alternative; boundary=BOUND\n\n"
            "--BOUND\nContent-Transfer-Encoding: base64\n"
            f"Content-Type: text/plain; charset={charset}\n\n"
            f"{base64.b64encode(body).decode('ascii')}\n--BOUND--\n")


@pytest.mark.parametrize("charset", ["punycode", "idna", "uu", "zlib", "zlib_codec", "base64",
                                     "base64_codec", "rot13", "hex", "bz2", "quopri",
                                     "unicode_escape", "raw_unicode_escape", "charmap"])
def test_a_codec_that_is_not_a_charset_is_refused(charset: str) -> None:
    text = mail("Since last time:\n".encode("ascii"), charset)
    with pytest.raises(ImportError_) as caught:
        import_text(text)
    assert f"`{charset}`" in caught.value.message and "not a charset of text" in caught.value.message
    (problem,) = caught.value.diagnostics
    line = text.split("\n")[problem.line - 1] if problem.line else ""
    assert line.startswith("Content-Type: text/plain") and \
        line[(problem.column or 1) - 1:].startswith(charset)


def test_a_punycode_body_is_refused_before_it_is_decoded() -> None:
    """Python's punycode decoder inserts each character into a list: quadratic."""
    # Fifty letters, not more: the encoder costs the letters times the length (10 s with 500).
    body = "".join(chr(0x400 + i * 7 % 50) for i in range(200_000)).encode("punycode")
    text = mail(body, "punycode")
    spent = cpu(lambda: _quietly(import_text)(text))
    tiny = cpu(lambda: _quietly(import_text)(mail(body[:50_000], "punycode")))
    assert spent < 8 * tiny + 0.05, (tiny, spent)
    with pytest.raises(ImportError_, match="punycode"):
        import_text(text)


@pytest.mark.parametrize("charset", ["utf-8", "us-ascii", "iso-8859-1", "ISO-8859-15",
                                     "windows-1252", "koi8-r", "latin1", "cp1250", "shift_jis",
                                     '"UTF-8"', "x-unknown-charset"])
def test_the_charsets_of_text_are_read(charset: str) -> None:
    name = charset.strip('"')
    codec = "utf-8" if name == "x-unknown-charset" else name
    text = mail("Since last time:\n".encode(codec), charset)
    with pytest.raises(ImportError_) as caught:  # no log entry: but read, not refused
        import_text(text)
    assert "charset" not in caught.value.message, caught.value.message


def nested(depth: int) -> str:
    """An e-mail whose text part lies under ``depth`` multipart parts, one in another."""
    head = HEAD + "Content-Type: multipart/alternative; boundary=B0\n\n"
    opening = "".join(f"--B{i - 1}\nContent-Type: multipart/alternative; boundary=B{i}\n\n"
                      for i in range(1, depth))
    closing = "".join(f"--B{i}--\n" for i in reversed(range(depth)))
    return head + opening + f"--B{depth - 1}\nContent-Type: text/plain\n\nSince last time:\n" + closing


def siblings(count: int) -> str:
    """An e-mail of ``count`` parts side by side."""
    parts = "".join("--B\nContent-Type: text/html\n\nx\n" for _ in range(count))
    return HEAD + "Content-Type: multipart/alternative; boundary=B\n\n" + parts + "--B--\n"


@pytest.mark.parametrize(("text", "said"), [
    (nested(2_000), "more than 20 parts that hold parts"),
    (nested(21), "more than 20 parts that hold parts"),
    (siblings(5_000), "more than 1000 parts"),
], ids=["2000-nested", "21-nested", "5000-side-by-side"])
def test_an_e_mail_of_too_many_parts_is_refused(text: str, said: str) -> None:
    with pytest.raises(InputTooComplex) as caught:
        import_text(text)
    assert said in caught.value.message
    (problem,) = caught.value.diagnostics
    assert problem.line is not None and problem.line > 5


def test_an_e_mail_within_the_bounds_is_read() -> None:
    for text in (nested(20), siblings(900)):
        with pytest.raises(ImportError_) as caught:
            import_text(text)
        assert not isinstance(caught.value, InputTooComplex)
        assert "no log entry" in caught.value.message


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("bounds")).test_client()


def test_the_site_answers_a_deeply_nested_mailbox_with_a_400(client: Any) -> None:
    text = nested(2_000)
    api = client.post("/api/v1/games", data=text.encode(), content_type="text/plain")
    assert api.status_code == 400, api.get_data(as_text=True)[:500]
    assert "more than 20 parts" in api.get_json()["error"]["message"]
    page = client.post("/", data={"text": text, "format": "auto"})
    assert page.status_code == 400, page.get_data(as_text=True)[:500]
    assert "more than 20 parts" in page.get_data(as_text=True)


def test_lcn_convert_refuses_a_deeply_nested_mailbox_with_exit_2(tmp_path: Path) -> None:
    source = tmp_path / "nested.mbox"
    source.write_text(nested(2_000), encoding="utf-8")
    result = CliRunner().invoke(cli, ["convert", str(source)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "more than 20 parts that hold parts" in result.output



# -- OpenSpiel histories ------------------------------------------------------------------------

def peak(work: Callable[[], object]) -> int:
    """Bytes allocated at the peak while ``work`` runs, beyond what was there before."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        work()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def numbers(size: int, separator: str) -> str:
    """A history of ``size`` characters refused at its second action (a card dealt twice)."""
    return ("0" + separator + "0" + separator + separator.join(["1"] * size))[:size]


@pytest.mark.parametrize("separator", [", ", "\n"], ids=["one-line", "one-a-line"])
def test_a_history_refused_at_its_second_action_stops_there(separator: str) -> None:
    """It made a token, then a problem, for every action of the file before saying anything."""
    text = numbers(1 << 20, separator)
    read = _quietly(get_importer("openspiel").read)
    assert peak(lambda: read(text)) < len(text), "more memory than the input itself"
    with pytest.raises(ImportError_) as caught:
        get_importer("openspiel").read(text)
    assert [(d.line, d.column) for d in caught.value.diagnostics] == \
        [(1, 4) if separator == ", " else (2, 1)]
    small, large = calls(read, numbers(20_000, separator)), calls(read, numbers(80_000, separator))
    assert large < 1.5 * small + 2_000, (small, large)


def test_a_refused_history_costs_a_small_multiple_of_itself_through_detection() -> None:
    text = numbers(1 << 20, ", ")
    assert peak(lambda: _quietly(import_text)(text)) < 32 * len(text)


# -- Metapyziks game strings --------------------------------------------------------------------

GAME_STRING = (Path(__file__).resolve().parent / "data" / "real" / "metapyziks"
               / "six-colours.gamestring.txt").read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("to", ["lcn", "json"])
def test_lcn_convert_of_many_long_games_holds_a_small_multiple_of_its_input(
        tmp_path: Path, to: str) -> None:
    """Every game's record and report were held until the end: a few hundred bytes for each
    turn, near a gigabyte for 4 MiB of game strings (a turn takes about one character)."""
    text = (GAME_STRING + "\n") * 120
    source, output = tmp_path / "games.txt", tmp_path / f"games.{to}"
    source.write_text(text, encoding="utf-8")
    runner = CliRunner()
    used = peak(lambda: runner.invoke(cli, ["convert", "-q", "--to", to, str(source), "-o",
                                            str(output)]))
    expected = export_records(import_text(text).records, to).text
    assert output.read_text(encoding="utf-8") == expected
    if to == "lcn":
        assert used < 40 * len(text), f"{used / len(text):.0f} bytes for each byte of input"
