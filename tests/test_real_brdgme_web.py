"""brdgme's web page (its log panel, and the text a user copies from it) imports to the game.

The fixtures ``tests/data/real/brdgme/web-*`` were made by brdgme's own code
(``scripts/real/brdgme_web_driver.py``; the README there says how): the game played through
its JSON command line as brdgme's API server plays it, each log row rendered to HTML by the
markup crate as the API renders it, the log panel rendered by the web front end's own React
component, and the text copied from that panel in Chromium. ``NAME.state.json`` is the
program's own state (deals, deck order, turns, scores) to compare with.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from real_support import refused
from test_real_brdgme import RUST, dump_of, expected_moves, games_played

from lcn import validate_record
from lcn.importers import export_records, import_text
from lcn.importers.brdgme import lcn_card
from lcn.variants.classic import CLASSIC_5, parse_cards, parse_move

WEB_TEXT = sorted(RUST.glob("web-*.web.txt"))
WEB_HTML = sorted(RUST.glob("web-*.web.html.gz"))
WEB = WEB_TEXT + WEB_HTML
LOCATION = re.compile(r":(\d+):(\d+): error\[")


def text_of(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")


def viewer(path: Path, dump: dict[str, Any]) -> str | None:
    """The player whose page it is (None: a spectator's, ``public``)."""
    who = path.name.split(".")[1]
    return next((p for p in dump["players"] if p.lower() == who), None)


def test_every_view_of_every_web_game_is_here() -> None:
    games = {p.name.split(".")[0] for p in WEB}
    assert len(games) >= 3
    for game in games:
        dump = dump_of(RUST / f"{game}.state.json")
        views = {p.name.split(".")[1] for p in WEB_TEXT if p.name.startswith(game + ".")}
        assert views == {*(p.lower() for p in dump["players"]), "public"}
        assert {p.name.split(".")[1] for p in WEB_HTML if p.name.startswith(game + ".")} == views
    assert sum(dump_of(p)["finished"] for p in WEB_TEXT) >= 6


def test_the_copied_text_has_every_form_of_the_pages_separator() -> None:
    """brdgme/web writes the time of an entry more than ten minutes after the one before,
    with the day in one of three forms depending on how old it is when the page is seen."""
    separators = [line for p in WEB_TEXT for line in text_of(p).split("\n")
                  if line.startswith("- ")]
    forms = {
        "today": r"- \d\d?:\d\d [AP]M -",
        "this week": r"- [A-Z][a-z]{2}, \d\d?:\d\d [AP]M -",
        "this year": r"- [A-Z][a-z]{2} \d\d?, \d\d?:\d\d [AP]M -",
        "older": r"- \d{4}-\d\d?-\d\d?, \d\d?:\d\d [AP]M -",
    }
    for form, pattern in forms.items():
        assert any(re.fullmatch(pattern, s) for s in separators), form
    assert all(any(re.fullmatch(p, s) for p in forms.values()) for s in separators)
    assert any("<Mick> played " in text_of(p) for p in WEB_TEXT)


@pytest.mark.parametrize("path", WEB_TEXT, ids=lambda p: p.name)
def test_the_copied_text_holds_every_row_the_page_shows(path: Path) -> None:
    """One line for each log row the server gives the viewer (public ones and their own)."""
    dump = dump_of(path)
    rows = json.loads(gzip.decompress((RUST / (path.name.split(".")[0] + ".logs.json.gz"))
                                      .read_bytes()))
    who = viewer(path, dump)
    position = None if who is None else dump["players"].index(who)
    shown = [r for r in rows if r["is_public"] or position in r["to"]]
    lines = [line for line in text_of(path).split("\n") if line and not line.startswith("- ")]
    assert len(lines) == len(shown)
    private = [line for line in lines if line.startswith("You drew ")]
    assert len(private) == sum(1 for r in shown if not r["is_public"])
    assert (position is None) == (not private)


@pytest.mark.parametrize("path", WEB, ids=lambda p: p.name)
def test_a_web_page_imports_to_the_game_the_program_played(path: Path) -> None:
    dump = dump_of(path)
    who = viewer(path, dump)
    sees = set() if who is None else {who}
    result = import_text(text_of(path))
    assert result.format == "brdgme"
    assert result.valid, [d.format() for d in result.diagnostics if d.is_error]
    rounds = games_played(dump)
    assert len(result.records) == len(rounds)
    for record, round_ in zip(result.records, rounds, strict=True):
        starter = round_["starter"]
        seats = [starter, next(p for p in dump["players"] if p != starter)]
        assert [record.tags["Player1"], record.tags["Player2"]] == seats
        assert record.tags["Game"] == str(round_["number"])
        expected = expected_moves(round_, sees)
        named = sum(1 for t in round_["turns"] if t["draw"] == "deck" and t["player"] in sees)
        if "scores" in round_:
            # The round's last draw is not logged; inferred, it stays hidden on a player's page
            # (the other player's hand is unseen, so the card could be any of those).
            last = round_["turns"][-1]
            assert last["draw"] == "deck"
            expected[-1] = expected[-1].split("=")[0]
            named -= last["player"] in sees
        assert [t.text for t in record.turns] == expected
        for seat, name in enumerate(seats, 1):  # a player's page shows their own deal only
            tag = record.tags.get(f"Hand{seat}")
            if name in sees:
                assert tag is not None and sorted(parse_cards(tag, CLASSIC_5)) == sorted(
                    lcn_card(c) for c in round_["hands"][name])
            else:
                assert tag is None
        order = [lcn_card(c) for c in round_["draw_order"]]
        drawn = [parse_move(t.text, CLASSIC_5).drawn for t in record.turns
                 if parse_move(t.text, CLASSIC_5).draw == "d"]
        for index, card in enumerate(drawn):
            assert card is None or card == order[index], index
        assert sum(card is not None for card in drawn) == named
        report = validate_record(record)
        assert report.score is not None
        assert not [d for d in report.diagnostics if d.is_error]
        if "scores" in round_:
            assert report.score.totals == [round_["scores"][seats[0]], round_["scores"][seats[1]]]
            assert len(drawn) == len(order)  # the last draw, which brdgme does not log, inferred
        else:
            assert record.termination == "*"
    inferred = [d for d in result.diagnostics if d.code == "inferred"]
    assert len(inferred) == sum(1 for r in rounds if "scores" in r)
    if dump.get("pending"):
        half = [d for d in result.diagnostics if d.code == "not-carried"]
        assert len(half) == 1 and f"{dump['pending']['player']}'s turn" in half[0].message


@pytest.mark.parametrize("path", WEB_HTML, ids=lambda p: p.name)
def test_the_panel_and_its_copied_text_give_the_same_games(path: Path) -> None:
    copied = path.with_name(path.name.removesuffix(".html.gz") + ".txt")
    from_html = export_records(import_text(text_of(path)).records, "lcn").text
    assert from_html == export_records(import_text(text_of(copied)).records, "lcn").text
    # The page saved with its lines broken and indented (white space, which a browser shows
    # as one space) reads the same.
    broken = text_of(path).replace("<div", "\n  <div").replace("<b>", "\n    <b>")
    assert export_records(import_text(broken).records, "lcn").text == from_html


# -- damaged copies ------------------------------------------------------------------------
def _edit(text: str, pattern: str, replacement: str, at: float) -> str:
    """``text`` with the match of ``pattern`` found at the fraction ``at`` of its matches
    replaced."""
    found = list(re.finditer(pattern, text))
    assert found, pattern
    m = found[int(len(found) * at)]
    return text[:m.start()] + m.expand(replacement) + text[m.end():]


def damages(text: str, page: bool) -> list[tuple[str, str]]:
    name = "&lt;" if page else "<"
    out = []
    for at in (0.2, 0.5, 0.9):  # cut inside an entry
        entries = list(re.finditer(r"(?:played|discarded) ", text))
        m = entries[int(len(entries) * at)]
        out.append((f"cut at {at}", text[:m.start() + 3]))
    out.append(("card edited", _edit(text, r"(played|discarded) (<b><span[^>]*>)?([RGWBY])"
                                     r"(X|10|[2-9])", r"\1 \2\g<3>11", 0.3)))
    out.append(("name edited", _edit(text, name + r"([A-Z][a-z]+)", name + r"\1x", 0.5)))
    out.append(("verb edited", _edit(text, r"discarded", "discorded", 0.6)))
    out.append(("separator edited", _edit(text, r"(- [^\n<]*?[AP]M) -", r"\1 =", 0.4)))
    if page:
        out.append(("markup broken", _edit(text, r"</div></div><div class=\"game-log-entry\">",
                                           "</div><div class=\"game-log-entry\">", 0.7)))
    return out


DAMAGED = [(path, label, text) for path in WEB
           for label, text in damages(text_of(path), path.suffix == ".gz")]


@pytest.mark.parametrize("path, label, text", DAMAGED,
                         ids=[f"{p.name}:{label}" for p, label, _ in DAMAGED])
def test_a_damaged_web_page_is_refused_with_its_place(tmp_path: Path, path: Path, label: str,
                                                      text: str) -> None:
    _, stderr = refused(tmp_path, path, text, label)
    where = LOCATION.search(stderr)
    assert where is not None, (label, stderr[-2000:])
    line, column = int(where.group(1)), int(where.group(2))
    assert 1 <= line <= text.count("\n") + 1
    assert 1 <= column <= len(text.split("\n")[line - 1]) + 1
