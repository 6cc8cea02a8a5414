"""The site's pages without a browser: home, paste/upload/import, replays, errors, caching,
downloads, the CSP's rules on markup, configuration, samples and ``lcn serve``."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from site_support import SAMPLES, make_app, sample_text

import lcn
from lcn import importers
from lcn.importers import Conversion, Importer, formats
from lcn.replay import replay_text
from replay_server.config import ConfigError, load_config
from replay_server.pages import render_replay
from replay_server.samples import find_samples, samples_dir

CLASSIC = "classic/rulebook-scoring.lcn"
INVALID = ('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. B2/d R4/d\n3. R7/d Q5/d *\n')
VARIANT_SAMPLES = ["classic/rulebook-scoring", "rivals/three-players", "rollwrite/three-players"]


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return make_app(tmp_path)


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


def _store(client: Any, text: str) -> str:
    answer = client.post("/", data={"text": text, "format": "auto"})
    assert answer.status_code == 303, answer.data[:2000]
    location = answer.headers["Location"]
    assert re.fullmatch(r"/g/[A-Za-z0-9_-]{16}", location)
    return location


def _position(html: str) -> str:
    match = re.search(r'<section class="position" data-turn="(\d+)"', html)
    assert match, "no position on the page"
    return match.group(1)


def _totals(html: str) -> list[int]:
    return [int(v) for v in re.findall(r'<span class="total" data-seat="\d">(-?\d+)</span>', html)]


def test_home_offers_paste_upload_formats_and_every_sample(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'name="text"' in html and 'type="file"' in html and 'enctype="multipart/form-data"' in html
    for name, _title in formats():
        assert f'<option value="{name}"' in html
    for sample in find_samples(None):
        assert f'href="/samples/{sample.name}"' in html
    assert len(find_samples(None)) == len(list(SAMPLES.rglob("*.lcn")))


def test_paste_stores_and_opens_the_replay(client: Any) -> None:
    location = _store(client, sample_text(CLASSIC))
    page = client.get(location)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Ada" in html and "Bo" in html and "18:67" in html
    assert _position(html) == "0"


def test_upload_of_a_file(client: Any) -> None:
    data = {"text": "", "format": "auto",
            "file": (io.BytesIO(sample_text("rivals/two-players.lcn").encode()), "game.lcn")}
    answer = client.post("/", data=data, content_type="multipart/form-data")
    assert answer.status_code == 303
    assert "Quinn" in client.get(answer.headers["Location"]).get_data(as_text=True)


def test_import_of_another_format_through_the_form(client: Any) -> None:
    narrated = ("Ada plays the red 7\nAda draws from the draw pile\n"
                "Bo plays the red 8\nBo draws from the draw pile\n")
    for fmt in ("auto", "text"):
        answer = client.post("/", data={"text": narrated, "format": fmt})
        assert answer.status_code == 303, fmt
    wrong = client.post("/", data={"text": narrated, "format": "nonsense"})
    assert wrong.status_code == 400 and "unknown format" in wrong.get_data(as_text=True)


def test_invalid_input_shows_every_diagnostic_beside_the_source(client: Any) -> None:
    answer = client.post("/", data={"text": INVALID, "format": "lcn"})
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    report = next(iter(lcn.validate(INVALID)))
    errors = [d for d in report.diagnostics if d.is_error]
    assert len(errors) >= 2
    for d in errors:
        assert f"[{d.code}]" in html
        assert f'<tr id="src-{d.line}" class="has-diag"><td class="ln">{d.line}</td>' in html
    # The bad spans themselves are marked: B2 on line 4, the colour Q on line 5.
    assert '<mark class="error">B2</mark>' in html
    assert '<mark class="error">Q</mark>5/d' in html
    assert "nothing was stored" in html
    assert 'data-turn' not in html  # no replay was opened


def test_a_file_of_several_games_lists_them(client: Any) -> None:
    bad = sample_text(CLASSIC) + "\n" + INVALID
    html = client.post("/", data={"text": bad}).get_data(as_text=True)
    assert "2 games in the input" in html
    location = _store(client, sample_text("classic/match.lcn"))
    listing = client.get(location).get_data(as_text=True)
    games = list(lcn.read_games(sample_text("classic/match.lcn")))
    for index in range(1, len(games) + 1):
        assert f'href="?game={index}"' in listing
    second = client.get(location + "?game=2&turn=3").get_data(as_text=True)
    assert _position(second) == "3"
    expected = replay_text(sample_text("classic/match.lcn"))[1]["running"][3]
    assert _totals(second) == expected
    assert 'aria-current="page"' in second
    match = replay_text(sample_text("classic/match.lcn"))[1]["match"]
    for name, total in match["totals"].items():
        assert f'<span class="match-total">{name} <b>{total}</b></span>' in second


def test_empty_and_undecodable_input_are_clear_400s(client: Any) -> None:
    empty = client.post("/", data={"text": "   \n"})
    assert empty.status_code == 400 and "input was empty" in empty.get_data(as_text=True)
    data = {"file": (io.BytesIO(b'[Player1 "\xff"]\n'), "bad.lcn")}
    bad = client.post("/", data=data, content_type="multipart/form-data")
    assert bad.status_code == 400 and "UTF-8" in bad.get_data(as_text=True)


@pytest.mark.parametrize("name", VARIANT_SAMPLES)
def test_every_turn_is_a_plain_link_and_the_page_opens_at_turn(client: Any, name: str) -> None:
    data = replay_text(sample_text(name + ".lcn"))[0]
    turn = data["applied"] // 2
    html = client.get(f"/samples/{name}?turn={turn}").get_data(as_text=True)
    assert _position(html) == str(turn)
    assert _totals(html) == data["running"][turn]
    for n in range(data["applied"] + 1):
        assert f'href="?turn={n}" data-turn="{n}"' in html
    assert f'class="mv seat-{data["turns"][turn - 1]["player"]} current" href="?turn={turn}"' in html
    # Steps are links too.
    assert f'data-step="prev" href="?turn={turn - 1}"' in html
    assert f'data-step="next" href="?turn={turn + 1}"' in html
    assert f'data-step="last" href="?turn={data["applied"]}"' in html
    assert f"board-{data['variant']}" in html


@pytest.mark.parametrize("name", VARIANT_SAMPLES)
def test_the_positions_fragment_holds_every_position(client: Any, name: str) -> None:
    data = replay_text(sample_text(name + ".lcn"))[0]
    html = client.get(f"/samples/{name}?turn=2&part=positions").get_data(as_text=True)
    turns = re.findall(r'<section class="position" data-turn="(\d+)"', html)
    assert turns == [str(n) for n in range(data["applied"] + 1)]
    assert "<html" not in html


def test_turn_arguments_out_of_range_or_malformed(client: Any) -> None:
    data = replay_text(sample_text(CLASSIC))[0]
    assert _position(client.get("/samples/classic/rulebook-scoring?turn=9999").get_data(as_text=True)) \
        == str(data["applied"])
    assert _position(client.get("/samples/classic/rulebook-scoring?turn=-4").get_data(as_text=True)) == "0"
    bad = client.get("/samples/classic/rulebook-scoring?turn=abc")
    assert bad.status_code == 400 and "whole number" in bad.get_data(as_text=True)
    assert "<html" in bad.get_data(as_text=True)  # a page for people, not JSON
    assert client.get("/samples/classic/rulebook-scoring?game=5").status_code == 404


@pytest.mark.parametrize(("query", "message"), [
    ("turn=abc", "?turn=abc: expected a whole number"),
    ("turn=1.5", "?turn=1.5: expected a whole number"),
    ("game=two&turn=3", "?game=two: expected a whole number"),
])
def test_the_number_arguments_are_loaded_through_the_query_schema(client: Any, query: str,
                                                                   message: str) -> None:
    from replay_server.sharing import encode_link

    bad = client.get(f"/samples/classic/rulebook-scoring?{query}")
    assert bad.status_code == 400 and message in bad.get_data(as_text=True)
    token = encode_link(sample_text(CLASSIC))
    assert message in client.get(f"/v?g={token}&{query}").get_data(as_text=True)


def test_empty_or_other_arguments_are_as_if_absent_and_links_refuse_negatives(client: Any) -> None:
    from replay_server.sharing import encode_link

    page = client.get("/samples/classic/rulebook-scoring?turn=&game=&utm_source=x")
    assert page.status_code == 200 and _position(page.get_data(as_text=True)) == "0"
    token = encode_link(sample_text(CLASSIC))
    assert _position(client.get(f"/v?g={token}&turn=3&game=").get_data(as_text=True)) == "3"
    # A page clamps a negative turn (test above); a link, whose numbers the site writes, refuses it.
    for query in ("turn=-1", "game=-2"):
        bad = client.get(f"/v?g={token}&{query}")
        assert bad.status_code == 400, query
        assert f"?{query}: expected a whole number, 0 or more" in bad.get_data(as_text=True)


def test_unknown_pages_and_games_are_404_pages(client: Any) -> None:
    for path in ("/g/AAAAAAAAAAAAAAAA", "/g/AAAAAAAAAAAAAAAA.lcn", "/samples/nope", "/nothing"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.mimetype == "text/html" and "Not found" in answer.get_data(as_text=True)


def test_a_wrong_method_is_a_405_page_that_names_the_allowed_ones(client: Any) -> None:
    answer = client.put("/")
    assert answer.status_code == 405 and answer.mimetype == "text/html"
    assert "PUT is not allowed" in answer.get_data(as_text=True)
    assert set(answer.headers["Allow"].split(", ")) >= {"GET", "POST"}


def test_stored_pages_are_cached_with_etags(client: Any) -> None:
    location = _store(client, sample_text(CLASSIC))
    first = client.get(location + "?turn=5")
    assert "immutable" in first.headers["Cache-Control"]
    etag = first.headers["ETag"]
    again = client.get(location + "?turn=5", headers={"If-None-Match": etag})
    assert again.status_code == 304
    other = client.get(location + "?turn=6")
    assert other.headers["ETag"] != etag


def test_downloads_as_lcn_and_json(client: Any) -> None:
    location = _store(client, sample_text(CLASSIC))
    gid = location.rsplit("/", 1)[1]
    text = client.get(f"/g/{gid}.lcn")
    assert text.mimetype == "text/plain" and "attachment" in text.headers["Content-Disposition"]
    assert text.get_data(as_text=True) == lcn.write_games(lcn.read_games(sample_text(CLASSIC)))
    document = client.get(f"/g/{gid}.json")
    assert document.json == client.get(f"/api/v1/games/{gid}").json
    page = client.get(location).get_data(as_text=True)
    assert f'href="/g/{gid}.lcn"' in page and f'href="/g/{gid}.json"' in page


def test_source_view_is_highlighted_by_the_lcn_lexer(client: Any) -> None:
    html = client.get("/samples/classic/rulebook-scoring").get_data(as_text=True)
    assert '<div class="highlight">' in html
    assert '<span class="nt">Player1</span>' in html


def _no_inline_code(html: str, where: str) -> None:
    assert not re.search(r"\sstyle\s*=", html), f"style attribute in {where}"
    assert "<style" not in html, f"style block in {where}"
    for match in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S):
        attributes, body = match.groups()
        if "application/json" in attributes:
            continue
        assert "src=" in attributes and not body.strip(), f"inline script in {where}"
    assert not re.search(r"\son[a-z]+\s*=", html), f"inline event handler in {where}"


def test_no_page_has_inline_scripts_or_styles(client: Any) -> None:
    location = _store(client, sample_text("classic/match.lcn"))
    pages = ["/", "/nothing", location, location + "?game=2&turn=4&view=none",
             *(f"/samples/{name}?turn=3" for name in VARIANT_SAMPLES)]
    for path in pages:
        _no_inline_code(client.get(path).get_data(as_text=True), path)
    _no_inline_code(client.post("/", data={"text": INVALID}).get_data(as_text=True), "errors")


def test_render_replay_embed_is_compact(app: Any) -> None:
    with app.test_request_context("/embed/x?turn=3"):
        html = render_replay(sample_text(CLASSIC), game_id=None, turn=3, embed=True)
    assert 'class="replay-page embed"' in html
    assert "site-header" not in html and "share-panel" not in html and "annotate-panel" not in html
    assert _position(html) == "3"


def test_hands_switch_is_a_link_per_view(client: Any) -> None:
    html = client.get("/samples/classic/rulebook-scoring?turn=4&view=1").get_data(as_text=True)
    assert 'class="replay view-1"' in html
    for view in ("all", "1", "2", "none"):
        assert f'data-view="{view}"' in html
    assert 'href="?turn=4&amp;view=none"' in html
    assert 'href="?turn=5&amp;view=1"' in html  # stepping keeps the view


def test_config_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"LCN_DATA_DIR": str(tmp_path / "data"), "LCN_MAX_CONTENT_LENGTH": "1_000",
           "LCN_RATELIMIT": "5 per minute", "LCN_OTHER": "x"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    config = load_config(None)
    assert (tmp_path / "data").is_dir()
    assert config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'data' / 'lcn.sqlite3'}"
    assert config["MAX_CONTENT_LENGTH"] == 1000 and config["RATELIMIT"] == "5 per minute"
    assert config["OTHER"] == "x"
    assert config["RATELIMIT_STORAGE_URI"] == "memory://"
    overridden = load_config({"DATABASE_URL": "postgresql://x/y", "TESTING": True})
    assert overridden["DATABASE_URL"] == "postgresql://x/y" and overridden["TESTING"] is True
    monkeypatch.delenv("LCN_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    xdg = load_config(None)
    assert xdg["DATA_DIR"] == str(tmp_path / "xdg" / "lcn")
    monkeypatch.setenv("LCN_MAX_CONTENT_LENGTH", "lots")
    with pytest.raises(ConfigError, match="LCN_MAX_CONTENT_LENGTH"):
        load_config(None)
    monkeypatch.setenv("LCN_MAX_CONTENT_LENGTH", "1000")
    monkeypatch.setenv("LCN_RATELIMIT_ENABLED", "perhaps")
    with pytest.raises(ConfigError, match="LCN_RATELIMIT_ENABLED"):
        load_config(None)


def test_samples_come_from_the_package_or_the_configured_folder(tmp_path: Path, app: Any) -> None:
    assert samples_dir(None) is not None
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "one.lcn").write_text(sample_text(CLASSIC))
    client = make_app(tmp_path / "d", {"SAMPLES_DIR": str(tmp_path / "mine")}).test_client()
    html = client.get("/").get_data(as_text=True)
    assert 'href="/samples/one"' in html and "/samples/classic/" not in html
    assert client.get("/samples/one").status_code == 200


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_lcn_serve_shows_the_samples(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LCN_")}
    env["HOME"] = str(tmp_path)  # the default data directory goes under it
    env.pop("XDG_DATA_HOME", None)
    command = [sys.executable, "-c", "from lcn_cli.main import main; main()", "serve", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        html = None
        while time.monotonic() < deadline and html is None:
            try:
                html = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read().decode()
            except OSError:
                time.sleep(0.2)
        assert html is not None, "lcn serve did not answer"
        assert 'href="/samples/classic/rulebook-scoring"' in html
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/samples/rivals/two-players?turn=3",
                                      timeout=5).read().decode()
        assert _position(page) == "3"
        assert (tmp_path / ".local" / "share" / "lcn" / "lcn.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
        assert server.stdout is not None
        server.stdout.close()


def test_the_home_form_over_the_size_limit_is_a_413_page(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"MAX_CONTENT_LENGTH": 1000}).test_client()
    answer = client.post("/", data={"text": sample_text(CLASSIC) * 3})
    assert answer.status_code == 413
    assert answer.mimetype == "text/html" and "Too large" in answer.get_data(as_text=True)


class _MovesPerLine(Importer):
    """A made-up log format: 'MOVES:' then one classic move per line, Ada and Bo in turn."""

    name = "moves-per-line"
    title = "One move per line (a test format)"

    def detect(self, text: str) -> float:
        return 0.95 if text.startswith("MOVES:\n") else 0.0

    def read(self, text: str) -> Conversion:
        moves = " ".join(line.strip() for line in text.splitlines()[1:] if line.strip())
        record = lcn.read_game(f'[Player1 "Ada"]\n[Player2 "Bo"]\n\n{moves} *\n')
        assert record is not None
        return Conversion([record])


def test_a_format_registered_later_appears_on_the_home_page(client: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    importers._load()
    monkeypatch.setitem(importers._REGISTRY, _MovesPerLine.name, _MovesPerLine())
    html = client.get("/").get_data(as_text=True)
    assert '<option value="moves-per-line">One move per line (a test format)</option>' in html
    for fmt in ("auto", "moves-per-line"):
        answer = client.post("/", data={"text": "MOVES:\nR5/d\nR4/d\n", "format": fmt})
        assert answer.status_code == 303, fmt
    page = client.get(answer.headers["Location"] + "?turn=2").get_data(as_text=True)
    assert _totals(page) == [-15, -16]


def test_a_paste_may_be_as_large_as_an_upload(client: Any) -> None:
    # Flask's own limit for a form field is 500 kB; a paste under the 2 MiB limit is accepted.
    padded = sample_text(CLASSIC) + " " * 700_000 + "\n"  # a space is one byte in a form
    assert client.post("/", data={"text": padded}).status_code == 303


def test_samples_replay_even_when_the_database_is_down(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from replay_server.storage import StoreUnavailable, get_store

    with app.app_context():
        store = get_store()

    def down(text: str) -> tuple[str, bool]:
        raise StoreUnavailable("the database is down")

    monkeypatch.setattr(store, "put", down)
    client = app.test_client()
    page = client.get("/samples/rivals/two-players?turn=4")
    assert page.status_code == 200 and _position(page.get_data(as_text=True)) == "4"
    assert client.post("/", data={"text": sample_text(CLASSIC)}).status_code == 503
    assert client.post("/api/v1/games", json={"lcn": sample_text(CLASSIC)}).status_code == 503


def test_lcn_serve_names_a_bad_setting_instead_of_starting(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from lcn_cli.main import cli

    env = {"LCN_DATA_DIR": str(tmp_path), "LCN_MAX_CONTENT_LENGTH": "lots"}
    result = CliRunner().invoke(cli, ["serve", "--port", "0"], env=env)
    assert result.exit_code == 1
    assert "LCN_MAX_CONTENT_LENGTH='lots': expected a whole number of bytes" in result.output
    assert "Traceback" not in result.output
