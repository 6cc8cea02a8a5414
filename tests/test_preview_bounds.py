"""The pictures of a game cost what they show, not what a hostile link makes them hold.

A self-contained link of a hundred-odd characters can carry player names of thousands of
characters, or a game of four hundred turns; the site draws a PNG of one position and a GIF
of the game from it. Nothing here is timed: the text measurements a picture makes are
counted, the frames of a GIF are counted, memory is the peak resident size of a child
process compared between a short and a four times longer game, and a whole request runs in
a child process whose CPU time is capped by ``RLIMIT_CPU`` (a cap far above what a bounded
picture costs and far below what the quadratic fitting of long names cost).
"""

from __future__ import annotations

import io
import itertools
import json
import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageSequence
from site_support import make_app

from replay_server import preview
from replay_server.sharing import encode_link

ROOT = Path(__file__).resolve().parent.parent


def long_game(turns: int, names: tuple[str, str] = ("Ada", "Bo")) -> str:
    """A legal classic game of ``turns`` turns: the players pass four cards round through the
    discard piles, so every position differs from the one before."""
    moves = ["xR5/d", "xB5/d", "xY5/B", "xG5/R"]
    cycle = ["xB5/Y", "xR5/G", "xY5/B", "xG5/R"]
    while len(moves) < turns:
        moves.append(cycle[(len(moves) - 4) % 4])
    return (f'[Player1 "{names[0]}"]\n[Player2 "{names[1]}"]\n[Event "{names[0]}"]\n\n'
            + " ".join(moves[:turns]) + " *\n")


@contextmanager
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The length of every text the pictures measure, in the order measured."""
    lengths: list[int] = []
    real = ImageDraw.ImageDraw.textlength

    def counting(self: ImageDraw.ImageDraw, text: Any, *args: Any, **kwargs: Any) -> float:
        lengths.append(len(text))
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "textlength", counting)
    yield lengths
    monkeypatch.undo()


def _picture_with_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, length: int) -> list[int]:
    app = make_app(tmp_path / str(length))
    token = encode_link(long_game(6, ("A" * length, "B" * length)))
    with measured(monkeypatch) as lengths:
        answer = app.test_client().get(f"/v.png?g={token}")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    return lengths


def test_long_names_cost_a_bounded_number_of_measurements(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Names (and an Event) of n and 4n characters: the characters measured do not grow with
    n beyond what is drawn, and the measurements are few (a title cut one character at a
    time measured the whole title once per character: quadratic in the name's length)."""
    short = _picture_with_names(tmp_path, monkeypatch, 1_000)
    long = _picture_with_names(tmp_path, monkeypatch, 4_000)
    assert sum(long) <= 1.1 * sum(short) + 1_000, (sum(short), sum(long))
    assert len(long) <= 300, len(long)
    assert max(long) <= 2 * preview.MAX_DRAWN_CHARACTERS


def test_a_fitted_text_is_the_longest_prefix_that_fits(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    with app.app_context():
        for text in ("Ada", "W" * 40, "Ada Lovelace " * 30, "i" * 5_000):
            fitted = preview._fit(draw, text, 30, 400)
            assert preview._text_width(draw, fitted, 30) <= 400
            if fitted != text:
                assert fitted.endswith("…")
                kept = fitted[:-1]
                assert text.startswith(kept)
                longer = text[:len(kept) + 1] + "…"
                assert (len(kept) >= preview.MAX_DRAWN_CHARACTERS
                        or preview._text_width(draw, longer, 30) > 400)


_PNG_CHILD = """
import sys, tempfile
sys.path.insert(0, "tests")
from site_support import make_app
from replay_server.sharing import encode_link
from test_preview_bounds import long_game
length = int(sys.argv[1])
client = make_app(tempfile.mkdtemp()).test_client()
token = encode_link(long_game(6, ("A" * length, "B" * length)))
answer = client.get("/v.png?g=" + token)
print(len(token), answer.status_code, answer.mimetype)
"""

#: CPU seconds for a child that starts the site and draws one picture (about two when the
#: picture is bounded; a minute when two 4,000-character names were fitted a character at
#: a time).
PNG_CPU_LIMIT = 20


def _cpu_limit() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (PNG_CPU_LIMIT, PNG_CPU_LIMIT))


def test_a_short_link_with_long_names_is_drawn_within_a_cpu_cap() -> None:
    result = subprocess.run([sys.executable, "-c", _PNG_CHILD, "4000"], cwd=ROOT, capture_output=True,
                            text=True, preexec_fn=_cpu_limit,
                            env={**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}"})
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    token_length, status, mimetype = result.stdout.split()
    assert int(token_length) < 200 and status == "200" and mimetype == "image/png"


# -- the rate limit ---------------------------------------------------------------------------

def test_pictures_count_against_the_preview_limit(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"RATELIMIT_ENABLED": True,
                                 "PREVIEW_RATELIMIT": "3 per minute"}).test_client()
    token = encode_link(long_game(8))
    statuses = [client.get(f"/v.png?g={token}&turn={n}").status_code for n in (1, 2)]
    statuses.append(client.get(f"/v.gif?g={token}").status_code)
    assert statuses == [200, 200, 200]
    refused = client.get(f"/v.png?g={token}&turn=3")
    assert refused.status_code == 429
    assert "Too many pictures" in refused.get_data(as_text=True)
    assert client.get(f"/v.gif?g={token}").status_code == 429
    # Other reads keep their own budget.
    assert client.get(f"/v?g={token}").status_code == 200


def test_without_the_rate_limit_pictures_are_not_counted(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"PREVIEW_RATELIMIT": "1 per minute"}).test_client()
    token = encode_link(long_game(8))
    assert [client.get(f"/v.png?g={token}&turn={n}").status_code for n in range(4)] == [200] * 4


# -- the GIF ----------------------------------------------------------------------------------

def test_a_long_games_gif_has_a_bounded_number_of_frames_first_and_last_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []
    real = preview.draw_position

    def counting(data: Any, position: Any, turn: int) -> Any:
        drawn.append(turn)
        return real(data, position, turn)

    monkeypatch.setattr(preview, "draw_position", counting)
    client = make_app(tmp_path).test_client()
    token = encode_link(long_game(preview.MAX_GIF_POSITIONS - 1))
    answer = client.get(f"/v.gif?g={token}")
    assert answer.status_code == 200 and answer.mimetype == "image/gif"
    frames = sum(1 for _ in ImageSequence.Iterator(Image.open(io.BytesIO(answer.data))))
    assert frames <= preview.MAX_GIF_FRAMES < preview.MAX_GIF_POSITIONS
    shown = sorted(drawn)  # the last position is drawn first: its palette serves them all
    assert shown[0] == 0 and shown[-1] == preview.MAX_GIF_POSITIONS - 1
    assert len(set(drawn)) == len(drawn) == frames  # each drawn once
    steps = [b - a for a, b in itertools.pairwise(shown)]
    assert max(steps) - min(steps) <= 1  # spread evenly over the game
    # Kept: asked again, nothing is drawn.
    drawn.clear()
    assert client.get(f"/v.gif?g={token}").data == answer.data and drawn == []


_GIF_CHILD = """
import io, json, resource, sys, tempfile
sys.path.insert(0, "tests")
from PIL import Image
from site_support import make_app
from replay_server.sharing import encode_link
from test_preview_bounds import long_game
turns = int(sys.argv[1])
client = make_app(tempfile.mkdtemp()).test_client()
client.get("/v.png?g=" + encode_link(long_game(3)))  # everything a picture needs, loaded
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
answer = client.get("/v.gif?g=" + encode_link(long_game(turns)))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
frames = Image.open(io.BytesIO(answer.data)).n_frames if answer.status_code == 200 else 0
print(json.dumps({"status": answer.status_code, "frames": frames, "mib": (after - before) / 1024}))
"""


def _gif_growth(turns: int) -> dict[str, Any]:
    result = subprocess.run([sys.executable, "-c", _GIF_CHILD, str(turns)], cwd=ROOT,
                            capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}"})
    assert result.returncode == 0, result.stderr[-2000:]
    answer: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    assert answer["status"] == 200
    return answer


def test_a_gifs_memory_does_not_grow_with_the_game() -> None:
    """Peak memory of a GIF of 100 and of 400 positions, each in a fresh process: every frame
    kept at full size made it grow in proportion (400 MiB, then 1,600 MiB)."""
    short, long = _gif_growth(99), _gif_growth(preview.MAX_GIF_POSITIONS - 1)
    assert long["frames"] <= preview.MAX_GIF_FRAMES
    assert long["mib"] <= 1.5 * short["mib"] + 16, (short, long)
    assert long["mib"] <= 120, (short, long)
