"""Format detection reads a bounded head of the input, and one upload is detected and read once.

Detection runs on every upload to the site and every ``lcn convert``. It looked at the whole
input: the narrated format's parser took about 4 s of CPU on a single hostile 2 MiB line
(``you drew ,,,…``), and the site detected and imported an upload twice (once to count its
games, once to import it). Costs are counted calls, not seconds.
"""

from __future__ import annotations

import gzip
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from site_support import make_app

import lcn.importers as importers
from lcn.importers import detect, get_importer

DATA = Path(__file__).parent / "data"
KIB = 1024


class _Past(BaseException):
    """Raised from the profiler once a count passes its bound (a BaseException: the
    registry's ``except Exception`` around a faulty importer must not swallow it)."""


def calls(function: Callable[[str], object], text: str, most: int | None = None) -> int:
    """The Python and C function calls one call makes; stops with _Past beyond ``most``,
    so that code of unbounded cost fails quickly instead of running to the end."""
    count = 0

    def profile(_frame: object, event: str, _arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1
            if most is not None and count > most:
                raise _Past

    sys.setprofile(profile)
    try:
        function(text)
    finally:
        sys.setprofile(None)
    return count


def _words(size: int) -> str:
    pick = random.Random(7).choice
    vocabulary = ["Ada", "plays", "the", "red", "7", "draws", "from", "pile", "you", "drew",
                  "discards", "a", "wager", "blue", "Spielt", "die", "gelbe"]
    words: list[str] = []
    length = 0
    while length < size:
        words.append(pick(vocabulary))
        length += len(words[-1]) + 1
    return " ".join(words)[:size]


#: One line of each hostile shape, cut to a size.
SHAPES: dict[str, Callable[[int], str]] = {
    "trailing commas": lambda size: ("Ada plays the red 7\nAda draws from the draw pile\n"
                                     "you drew " + "," * size)[:size],
    "one line of commas": lambda size: ("you drew " + "," * size)[:size],
    "bangs": lambda size: (" !" * size)[:size],
    "random words": _words,
}


@pytest.mark.parametrize("shape", SHAPES)
def test_detection_reads_a_bounded_head(shape: str) -> None:
    small = calls(detect, SHAPES[shape](256 * KIB))
    most = int(1.05 * small) + 2_000
    try:
        large = calls(detect, SHAPES[shape](2048 * KIB), most)
    except _Past:
        pytest.fail(f"{shape}: detection on 2 MiB made more than {most} calls "
                    f"({small} on 256 KiB): it reads the whole input")
    assert large <= most


def _text(path: Path) -> str:
    data = path.read_bytes()
    return importers.decode(gzip.decompress(data) if path.suffix == ".gz" else data)


def test_a_json_document_longer_than_the_head_is_still_detected() -> None:
    # JSON is known to be records only once parsed whole: its detection sees all of it.
    text = _text(DATA / "real" / "brdgme" / "web-1.logs.json.gz")
    assert len(text) > importers.DETECTION_HEAD
    assert detect(text)[0] == ("json", 0.1)


def test_a_long_log_is_detected_as_before() -> None:
    text = _text(DATA / "real" / "brdgme" / "match-1.repl.txt.gz")
    assert len(text) > 16 * importers.DETECTION_HEAD
    assert detect(text)[0] == ("brdgme", 0.95)
    # The import itself still reads every line: the last rounds are there.
    assert importers.import_text(text).records == get_importer("brdgme").read(text).records


# -- the site: one upload, one detection, one read --------------------------------------------

@pytest.fixture()
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of the brdg.me importer's detect and read (read_detected and read_each go
    through read)."""
    importer = get_importer("brdgme")
    counts = {"detect": 0, "read": 0}

    def counting(name: str) -> Callable[..., Any]:
        original = getattr(importer, name)

        def wrapper(*args: Any) -> Any:
            counts[name] += 1
            return original(*args)
        return wrapper
    for name in counts:
        monkeypatch.setattr(importer, name, counting(name))
    return counts


LOG = DATA / "imports" / "brdgme-match.log"


def test_an_upload_through_the_form_is_detected_and_read_once(
        tmp_path: Path, counted: dict[str, int]) -> None:
    client = make_app(tmp_path).test_client()
    response = client.post("/", data={"text": LOG.read_text(), "format": "auto"})
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    assert counted == {"detect": 1, "read": 1}


def test_an_upload_through_the_api_is_detected_and_read_once(
        tmp_path: Path, counted: dict[str, int]) -> None:
    client = make_app(tmp_path).test_client()
    response = client.post("/api/v1/games", data=LOG.read_bytes(), content_type="text/plain")
    assert response.status_code in (200, 201), response.get_data(as_text=True)[:2000]
    assert counted == {"detect": 1, "read": 1}


def test_too_many_games_of_another_format_are_still_refused_before_validation(
        tmp_path: Path, counted: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    validated: list[object] = []

    def validate_games(records: object) -> list[object]:
        validated.append(records)
        return []
    monkeypatch.setattr(importers, "validate_games", validate_games)
    client = make_app(tmp_path, {"MAX_GAMES": 1}).test_client()
    response = client.post("/api/v1/games", data=LOG.read_bytes(), content_type="text/plain")
    assert response.status_code == 413
    form = client.post("/", data={"text": LOG.read_text(), "format": "auto"})
    assert form.status_code == 413
    assert validated == [] and counted == {"detect": 2, "read": 2}
