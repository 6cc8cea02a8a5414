"""Annotating in the browser: the library-level edit, the save route, and a real browser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

import lcn
from replay_server.sharing import MAX_COMMENT_LENGTH, AnnotationError, annotate, annotation_form, encode_link

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _canonical(relative: str) -> str:
    text = lcn.write_games(lcn.read_games((SAMPLES / relative).read_text(encoding="utf-8")))
    assert text is not None
    return text


GAME = _canonical("classic/rulebook-scoring.lcn")
MATCH = _canonical("classic/match.lcn")
BROKEN = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R7/d xB2/d 2. R5/d *\n'  # R5 cannot follow R7


def _read(text: str, game: int = 1) -> lcn.GameRecord:
    return list(lcn.read_games(text))[game - 1]


def test_annotations_change_only_what_the_form_says() -> None:
    before = _read(GAME)
    text = annotate(GAME, 1, MultiDict({
        "annotator": "  Ada   Lovelace ", "game_comment": "A close game.\n\nDecided late.",
        "comment-3": "Opening red this early is bold.", "glyph-3": "!?",
    }))
    after = _read(text)
    assert after.tags["Annotator"] == "Ada Lovelace"
    assert after.intro_comments == ["A close game.", "Decided late."]
    assert after.turns[2].comments == ["Opening red this early is bold."]
    assert after.turns[2].glyphs[0] == "!?"
    for i, (old, new) in enumerate(zip(before.turns, after.turns, strict=True), start=1):
        assert old.text == new.text
        if i != 3:
            assert (old.comments, old.glyphs) == (new.comments, new.glyphs)
    assert [(k, v) for k, v in after.tags.items() if k != "Annotator"] == \
        [(k, v) for k, v in before.tags.items() if k != "Annotator"]
    # The result is canonical: writing it again changes nothing.
    assert lcn.write_games(lcn.read_games(text)) == text


def test_an_empty_field_clears_and_an_absent_one_keeps() -> None:
    annotated = annotate(GAME, 1, MultiDict({"annotator": "Ada", "comment-2": "x", "glyph-2": "?"}))
    cleared = annotate(annotated, 1, MultiDict({"annotator": "", "comment-2": "", "glyph-2": ""}))
    record = _read(cleared)
    assert "Annotator" not in record.tags
    assert record.turns[1].comments == []
    assert record.turns[1].glyphs == []
    kept = _read(annotate(annotated, 1, MultiDict({"comment-5": "later"})))
    assert kept.tags["Annotator"] == "Ada"
    assert kept.turns[1].comments == ["x"] and kept.turns[1].glyphs == ["?"]


def test_numeric_glyphs_are_kept_when_the_suffix_glyph_changes() -> None:
    text = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d! $14 {first} xB2/d *\n'
    record = _read(annotate(text, 1, MultiDict({"glyph-1": "??"})))
    assert record.turns[0].glyphs == ["??", "$14"]
    assert record.turns[0].comments == ["first"]
    record = _read(annotate(text, 1, MultiDict({"glyph-1": ""})))
    assert record.turns[0].glyphs == ["$14"]


def test_a_comment_with_a_closing_brace_is_stored_as_read_back() -> None:
    text = annotate(GAME, 1, MultiDict({"comment-1": "set {a} aside\nnext line"}))
    assert _read(text).turns[0].comments == ["set {a} aside next line"]


def test_other_games_of_a_file_are_untouched() -> None:
    text = annotate(MATCH, 2, MultiDict({"comment-1": "Second game, first turn.", "annotator": "Bo"}))
    before, after = list(lcn.read_games(MATCH)), list(lcn.read_games(text))
    assert len(before) == len(after) > 1
    assert lcn.write_game(after[0]) == lcn.write_game(before[0])
    assert after[1].turns[0].comments == ["Second game, first turn."]
    assert after[1].tags["Annotator"] == "Bo"


@pytest.mark.parametrize(("game", "form", "message"), [
    (1, {"glyph-1": "!!!"}, "unknown glyph"),
    (1, {"glyph-1": "$3"}, "unknown glyph"),
    (1, {"comment-1": "x" * (MAX_COMMENT_LENGTH + 1)}, "too long"),
    (1, {"annotator": "x" * 201}, "too long"),
    (1, {"comment-999": "x"}, "names turn 999"),
    (1, {"comment-0": "x"}, "names turn 0"),
    (1, {"comment-x": "x"}, "unknown field"),
    (1, {"comment-\u00b2": "x"}, "unknown field"),  # a superscript two is no turn number
    (1, {"glyph-\uff12": "!"}, "unknown field"),
    (1, {"bogus": "x"}, "unknown field"),
    (9, {}, "game 9 does not exist"),
])
def test_bad_annotation_forms_are_refused_clearly(game: int, form: dict[str, str], message: str) -> None:
    with pytest.raises(AnnotationError, match=message):
        annotate(GAME, game, MultiDict(form))


def test_the_form_starts_from_the_game_as_it_is() -> None:
    text = annotate(GAME, 1, MultiDict({"annotator": "Ada", "comment-4": "one\n\ntwo", "glyph-4": "!"}))
    form = annotation_form(text, 1)
    assert form is not None
    assert form.annotator == "Ada"
    assert len(form.turns) == len(_read(GAME).turns)
    assert (form.turns[3].glyph, form.turns[3].comment) == ("!", "one\n\ntwo")
    assert annotation_form(text, 5) is None


# --- the save route --------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Any]:
    from site_support import make_app

    application = make_app(tmp_path, {"DATABASE_URL": database_url})
    yield application
    application.extensions["lcn_store"].close()


def test_saving_stores_a_new_version_and_keeps_the_original(app: Any) -> None:
    store = app.extensions["lcn_store"]
    original, _ = store.put(GAME)
    client = app.test_client()
    response = client.post("/annotate", data={"source": original, "turn": "4", "annotator": "Ada",
                                              "comment-4": "The turning point.", "glyph-4": "!"})
    assert response.status_code == 303
    match = re.fullmatch(r"/g/([A-Za-z0-9_-]{16})\?turn=4&saved=1", response.headers["Location"])
    assert match, response.headers["Location"]
    new_id = match.group(1)
    assert new_id != original
    assert store.get(original) == GAME
    saved = store.get(new_id)
    assert saved is not None and _read(saved).turns[3].comments == ["The turning point."]
    page = client.get(response.headers["Location"])
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "The turning point." in body
    assert f'href="/g/{new_id}.lcn"' in body  # offered for download
    # Saving the same annotations again is harmless: the same permalink.
    again = client.post("/annotate", data={"source": original, "turn": "4", "annotator": "Ada",
                                           "comment-4": "The turning point.", "glyph-4": "!"})
    assert again.headers["Location"] == response.headers["Location"]


def test_saving_from_a_self_contained_link(app: Any) -> None:
    client = app.test_client()
    response = client.post("/annotate", data={"g": encode_link(MATCH), "game": "2",
                                              "comment-1": "From a link.", "format": "json"})
    assert response.status_code == 201
    new_id = response.get_json()["id"]
    saved = app.extensions["lcn_store"].get(new_id)
    assert saved is not None and _read(saved, 2).turns[0].comments == ["From a link."]


@pytest.mark.parametrize(("data", "status"), [
    ({}, 400),
    ({"source": "not an id"}, 400),
    ({"source": "AAAAAAAAAAAAAAAA"}, 404),
    ({"g": "AAAA"}, 400),
    ({"g": "A" * 9000}, 414),
    ({"g": encode_link(GAME), "game": "x"}, 400),
    ({"g": encode_link(GAME), "game": "7"}, 400),
    ({"g": encode_link(GAME), "glyph-1": "!!!"}, 400),
    ({"g": encode_link(GAME), "comment-1": "x" * (MAX_COMMENT_LENGTH + 1)}, 400),
    ({"g": encode_link(BROKEN), "comment-1": "a rule is broken here"}, 400),
])
def test_bad_saves_are_4xx_never_500(app: Any, data: dict[str, str], status: int) -> None:
    response = app.test_client().post("/annotate", data=data)
    assert response.status_code == status
    assert "Traceback" not in response.get_data(as_text=True)


def test_saving_needs_a_post(app: Any) -> None:
    assert app.test_client().get("/annotate").status_code == 405


# --- in a real browser ---------------------------------------------------------------------


def test_annotate_a_turn_in_the_browser_and_open_the_new_link_there(tmp_path: Path) -> None:
    from site_support import browser, browser_page, live_server, make_app

    application = make_app(tmp_path)
    original, _ = application.extensions["lcn_store"].put(GAME)
    with live_server(application) as base, browser() as chromium:
        with browser_page(chromium) as (page, errors):
            page.goto(f"{base}/g/{original}?turn=6")
            row = page.locator("#annotate-turn-6")
            row.wait_for(state="visible")
            assert page.locator("#annotate-turn-5").is_hidden()  # narrowed to the current turn
            page.fill("#annotate-annotator", "Ada")
            page.fill("#annotate-comment-6", "Discarding here keeps the yellow open.")
            page.select_option("#annotate-glyph-6", "!?")
            with page.expect_navigation():
                page.click("#annotate-save")
            page.locator("#share-saved").wait_for(state="visible")
            page.wait_for_function("() => !location.search.includes('saved')")
            assert re.search(r"/g/[A-Za-z0-9_-]{16}\?turn=6$", page.url), page.url
            new_link = page.locator("#share-turn").input_value()
            assert errors.messages == []
        assert f"/g/{original}" not in new_link
        with browser_page(chromium) as (page, errors):
            page.goto(new_link)
            assert "turn=6" in page.url
            comment = page.get_by_text("Discarding here keeps the yellow open.").first
            comment.wait_for(state="visible")
            assert errors.messages == []
        with browser_page(chromium, java_script=False) as (page, _):
            page.goto(f"{base}/g/{original}?turn=6")
            assert "Discarding here" not in page.content()  # the original is unchanged
            # Without JavaScript the form lists every turn and saves all the same.
            assert page.locator("#annotate-turn-5").is_visible()
            page.fill("#annotate-comment-2", "Plain form, no script.")
            with page.expect_navigation():
                page.click("#annotate-save")
            assert re.search(r"/g/[A-Za-z0-9_-]{16}\?turn=6&saved=1$", page.url), page.url
            page.goto(page.url.replace("turn=6&saved=1", "turn=2"))
            assert page.get_by_text("Plain form, no script.").first.is_visible()
    application.extensions["lcn_store"].close()
