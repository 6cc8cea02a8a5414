"""Annotating in the browser: the library-level edit, the save route, and a real browser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

import lcn
from replay_server.forms import (
    MAX_ANNOTATOR_LENGTH,
    MAX_COMMENT_LENGTH,
    AnnotationFormSchema,
    load_annotation_form,
)
from replay_server.sharing import AnnotationError, annotate, annotation_form, encode_link

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
    # What the form's schema checks besides.
    (1, {"glyph-47": "!"}, "names turn 47, but the game has 46 turns"),
    (1, {"comment-46": "x", "glyph-0": "!"}, "names turn 0"),
    (1, {"comment-\u0663": "x"}, "unknown field"),  # an Arabic-Indic three is no turn number
    (1, {"comment-01x": "x"}, "unknown field"),
    (1, {"annotator": "x" * (MAX_ANNOTATOR_LENGTH + 1)},
     rf"the field annotator is too long \({MAX_ANNOTATOR_LENGTH + 1} characters; "
     rf"at most {MAX_ANNOTATOR_LENGTH}\)"),
    (1, {"game_comment": "x" * (MAX_COMMENT_LENGTH + 1)}, "the field game_comment is too long"),
    (1, {"glyph-2": "!", "glyph-3": "!!!", "bogus": "x"},
     "glyph-3 has an unknown glyph.*unknown field 'bogus'"),  # every problem, not the first
    (1, {"game": "x"}, "the field game must be a whole number"),
    (1, {"game": "0"}, "the field game must be 1 or more"),
    (1, {"game": "\u0663"}, "the field game must be a whole number"),
    (1, {"game": " 1"}, "the field game must be a whole number"),
    (1, {"turn": "-1"}, "the field turn must be a whole number"),
    (1, {"turn": "1e3"}, "the field turn must be a whole number"),
    (1, {"turn": "9" * 10}, "at most 9 digits"),
    (1, {"turn": "47"}, "the field turn names turn 47, but the game has 46 turns"),
    (1, {"format": "xml"}, "the field format must be one of html, json"),
])
def test_bad_annotation_forms_are_refused_clearly(game: int, form: dict[str, str], message: str) -> None:
    with pytest.raises(AnnotationError, match=message):
        annotate(GAME, game, MultiDict(form))


def test_the_schema_states_the_form_of_each_game() -> None:
    assert set(AnnotationFormSchema(turns=3).fields) == {
        "annotator", "game_comment", "source", "g", "game", "turn", "format"}
    loaded = load_annotation_form(MultiDict({
        "source": "AAAAAAAAAAAAAAAA", "turn": "3", "annotator": " Ada  L ", "game_comment": "a\n\nb",
        "comment-2": "two", "glyph-3": " ?! ", "format": "json"}), 3)
    assert loaded == {"source": "AAAAAAAAAAAAAAAA", "game": 1, "turn": 3, "annotator": "Ada L",
                      "game_comment": ["a", "b"], "comments": {2: ["two"]}, "glyphs": {3: "?!"},
                      "format": "json"}
    # Before the game is known, the per-turn fields are neither read nor refused.
    assert load_annotation_form(MultiDict({"game": "2", "glyph-99": "!!!"})) == \
        {"game": 2, "comments": {}, "glyphs": {}}
    with pytest.raises(AnnotationError, match="the field game must be 1 or more"):
        load_annotation_form(MultiDict({"game": "0", "glyph-99": "!!!"}))


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


@pytest.mark.parametrize(("data", "message"), [
    ({"game": "x"}, "the field game must be a whole number"),
    ({"game": "0"}, "the field game must be 1 or more, not 0"),
    ({"turn": "-2"}, "the field turn must be a whole number"),
    ({"turn": "47"}, "the field turn names turn 47, but the game has 46 turns"),
    ({"format": "xml"}, "the field format must be one of html, json"),
    ({"glyph-47": "!"}, "the field glyph-47 names turn 47, but the game has 46 turns"),
    ({"comment-\u0663": "x"}, "unknown field"),
    ({"surprise": "x"}, "unknown field"),
    ({"game_comment": "x" * (MAX_COMMENT_LENGTH + 1)}, "the field game_comment is too long"),
])
def test_bad_forms_are_answered_with_what_is_wrong(app: Any, data: dict[str, str], message: str) -> None:
    store = app.extensions["lcn_store"]
    original, _ = store.put(GAME)
    response = app.test_client().post("/annotate", data={"source": original, **data})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert store.count() == 1  # nothing was stored


def test_the_json_answer_is_the_one_the_openapi_document_states(app: Any) -> None:
    import jsonschema
    from openapi_check import _strict

    client = app.test_client()
    document = client.get("/api/v1/openapi.json").json
    operation = document["paths"]["/annotate"]["post"]
    form = operation["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]
    stated = document["components"]["schemas"][form["$ref"].rsplit("/", 1)[1]]
    assert {"annotator", "game_comment", "source", "g", "game", "turn", "format"} == \
        set(stated["properties"])
    assert stated["properties"]["annotator"]["maxLength"] == MAX_ANNOTATOR_LENGTH
    assert stated["properties"]["game_comment"]["maxLength"] == MAX_COMMENT_LENGTH
    answer = operation["responses"]["201"]["content"]["application/json"]["schema"]
    schema = {"$ref": answer["$ref"], "components": _strict(document["components"])}
    response = client.post("/annotate", data={"g": encode_link(GAME), "turn": "4",
                                              "comment-4": "x", "format": "json"})
    assert response.status_code == 201
    body = response.get_json()
    jsonschema.validate(body, schema, cls=jsonschema.Draft7Validator)
    assert body == {"id": body["id"], "url": f"/g/{body['id']}?turn=4"}
    with pytest.raises(jsonschema.ValidationError, match="'created' was unexpected"):
        jsonschema.validate(dict(body, created=True), schema, cls=jsonschema.Draft7Validator)


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
