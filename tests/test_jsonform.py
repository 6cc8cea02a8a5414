"""The JSON form of records: lossless both ways, strict on input, and true to its schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lcn import read_game, read_games, write_game
from lcn.jsonform import JSONFormError, document, dumps, from_json, loads, to_json
from lcn.model import GameRecord, Tags, Turn
from lcn.variants.classic_play import random_game, strip_deal

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "lcn-record.schema.json").read_text(encoding="utf-8"))


# -- a small JSON Schema checker (the keywords the published schema uses) ------------------
def schema_errors(instance: Any, schema: dict[str, Any], root: dict[str, Any] | None = None,
                  path: str = "$") -> list[str]:
    """Every place where ``instance`` breaks ``schema`` (draft 2020-12, the subset used)."""
    root = root or schema
    if "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        errors = schema_errors(instance, target, root, path)
        rest = {k: v for k, v in schema.items() if k not in ("$ref", "$schema", "$id", "$defs",
                                                             "title", "description")}
        return errors + (schema_errors(instance, rest, root, path) if rest else [])
    errors: list[str] = []
    kinds = {"object": dict, "array": list, "string": str, "null": type(None)}
    if "type" in schema:
        allowed = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        ok = any((isinstance(instance, int) and not isinstance(instance, bool)) if kind == "integer"
                 else isinstance(instance, kinds[kind]) for kind in allowed)
        if not ok:
            return [f"{path}: {instance!r} is not of type {allowed}"]
    if "const" in schema and instance != schema["const"]:
        errors.append(f"{path}: {instance!r} is not {schema['const']!r}")
    if "pattern" in schema and isinstance(instance, str) and not re.search(schema["pattern"], instance):
        errors.append(f"{path}: {instance!r} does not match {schema['pattern']}")
    if "minimum" in schema and isinstance(instance, int) and instance < schema["minimum"]:
        errors.append(f"{path}: {instance} < {schema['minimum']}")
    if isinstance(instance, dict):
        for key in schema.get("required", []):
            if key not in instance:
                errors.append(f"{path}: {key} is required")
        properties = schema.get("properties", {})
        for key, value in instance.items():
            if key in properties:
                errors += schema_errors(value, properties[key], root, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: unexpected property {key}")
    if isinstance(instance, list) and "items" in schema:
        for index, item in enumerate(instance):
            errors += schema_errors(item, schema["items"], root, f"{path}[{index}]")
    return errors


def record_schema() -> dict[str, Any]:
    return {"$ref": "#/$defs/record", "$defs": SCHEMA["$defs"]}


ANNOTATED = """[Event "Club evening, round 2"]
[Date "2024.??.??"]
[Player1 "Clara"]
[Player2 "Dev"]
[Annotator "Ada"]
[MyOwnTag "kept \\"as is\\""]
[Result "*"]

{A quick start: both players open an expedition on their first turn.}
1. rw/d ; Clara bets on red before placing a single red number card.
Y2/d 2. R4/d! {The four keeps every higher red open.}
{Two comments on one turn are kept apart.} 2... Y3/d $10
3. xB10/d?! xR6/d ?
{Dev throws away a red card that Clara wants:
  she takes it from the red discard pile.}
4. R5/R * {The game was adjourned.} {Two closing comments.}
"""


def fields(record: GameRecord) -> dict[str, Any]:
    """Everything of a record the JSON form must keep (places in a file excepted)."""
    return {
        "tags": record.tags.items(),
        "intro": record.intro_comments,
        "turns": [(t.text, t.number, t.number_dots, t.glyphs, t.comments) for t in record.turns],
        "termination": record.termination,
        "closing": record.closing_comments,
    }


# -- lossless ------------------------------------------------------------------------------
def test_an_annotated_game_survives_json_exactly() -> None:
    record = read_game(ANNOTATED)
    data = to_json(record)
    assert data["tags"][5] == {"name": "MyOwnTag", "value": 'kept "as is"'}
    assert data["turns"][2] == {"text": "R4/d", "number": 2, "dots": 1, "glyphs": ["!"],
                                "comments": ["The four keeps every higher red open.",
                                             "Two comments on one turn are kept apart."]}
    assert data["turns"][3]["number"] == 2 and data["turns"][3]["dots"] == 3
    assert data["closing_comments"] == ["The game was adjourned.", "Two closing comments."]
    back = from_json(json.loads(json.dumps(data)))
    assert fields(back) == fields(record)
    assert write_game(back) == write_game(record)


def test_tag_order_is_kept_even_when_it_is_unusual() -> None:
    record = GameRecord(tags=Tags({"Zeta": "1", "Alpha": "2", "Player2": "Bo", "Player1": "Ada"}))
    assert list(from_json(to_json(record)).tags.items()) == list(record.tags.items())


def test_a_record_without_termination_or_turns() -> None:
    record = GameRecord(tags=Tags({"Player1": "Ada", "Player2": "Bo"}))
    data = to_json(record)
    assert data["termination"] is None and data["turns"] == []
    assert fields(from_json(data)) == fields(record)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), six=st.booleans(),
       view=st.sampled_from([None, 0, 1, "all"]), reveal=st.booleans())
def test_random_games_survive_lcn_json_lcn(seed: int, six: bool, view: Any, reveal: bool) -> None:
    game = random_game(seed, expeditions=6 if six else 5, reveal_draws=reveal)
    if view != "all":
        game = strip_deal(game, keep=view)
    text = write_game(game)
    through = loads(dumps([read_game(text)]))
    assert len(through) == 1
    assert write_game(through[0]) == text
    assert fields(through[0]) == fields(read_game(text))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(
    st.from_regex(r"x?[RGBWY](?:[2-9]|10|w)/(?:d|[RGBWY])", fullmatch=True),
    st.one_of(st.none(), st.integers(min_value=0, max_value=99)),
    st.integers(min_value=1, max_value=3),
    st.lists(st.sampled_from(["!", "?", "!!", "??", "!?", "?!", "$14", "$0"]), max_size=3),
    st.lists(st.text(alphabet=st.characters(blacklist_characters="{}", blacklist_categories=("Cs",)),
                     max_size=20), max_size=2),
), max_size=12), st.lists(st.text(max_size=10), max_size=2),
    st.one_of(st.none(), st.just("*"), st.just("12:-3")))
def test_arbitrary_records_survive(turns: list[Any], intro: list[str], termination: str | None) -> None:
    record = GameRecord(tags=Tags({"Player1": "A b", "Player2": 'Quote " and \\ slash'}),
                        intro_comments=intro, termination=termination, closing_comments=["end"])
    for text, number, dots, glyphs, comments in turns:
        record.turns.append(Turn(text, number=number, number_dots=dots if number is not None else 0,
                                 glyphs=glyphs, comments=comments))
    data = json.loads(json.dumps(to_json(record)))
    assert fields(from_json(data)) == fields(record)
    assert not schema_errors(data, record_schema())


def test_every_sample_file_survives() -> None:
    samples = sorted((ROOT / "samples").rglob("*.lcn"))
    assert samples, "the project ships sample games"
    for path in samples:
        games = list(read_games(path))
        back = loads(dumps(games))
        assert [write_game(g) for g in back] == [write_game(g) for g in games], path.name


# -- the published schema ------------------------------------------------------------------
def test_the_schema_accepts_what_the_writer_writes() -> None:
    games = [random_game(1), strip_deal(random_game(2), keep=1), read_game(ANNOTATED)]
    data = json.loads(dumps(games))
    assert data["format"] == "lcn-json" and data["version"] == 1
    assert schema_errors(data, SCHEMA) == []


def test_the_schema_rejects_what_the_reader_rejects() -> None:
    good = document([read_game(ANNOTATED)])
    broken = [
        ("games", 5),
        ("format", "pgn-json"),
    ]
    for key, value in broken:
        data = dict(good, **{key: value})
        assert schema_errors(data, SCHEMA), key
        with pytest.raises(JSONFormError):
            loads(json.dumps(data))
    bad_turns = [{"text": "R5/d", "glyphs": ["!!!"]}, {"text": 5}, {"text": "R5/d", "extra": 1},
                 {"text": "R5/d", "number": -1}]
    for turn in bad_turns:
        record = dict(to_json(read_game(ANNOTATED)), turns=[turn])
        assert schema_errors(record, record_schema()), turn
        with pytest.raises(JSONFormError):
            from_json(record)
    for tag in ({"name": "bad name", "value": "x"}, {"name": "A", "value": "two\nlines"}):
        record = dict(to_json(read_game(ANNOTATED)), tags=[tag])
        assert schema_errors(record, record_schema()), tag
        with pytest.raises(JSONFormError):
            from_json(record)
    record = dict(to_json(read_game(ANNOTATED)), termination="57-12")
    assert schema_errors(record, record_schema())
    with pytest.raises(JSONFormError):
        from_json(record)


# -- clear errors ---------------------------------------------------------------------------
def test_errors_name_the_place_in_the_document() -> None:
    data = document([read_game(ANNOTATED), read_game(ANNOTATED)])
    data["games"][1]["turns"][3]["glyphs"] = ["!", "wow"]
    with pytest.raises(JSONFormError) as caught:
        loads(json.dumps(data))
    assert caught.value.problems == [("games.1.turns.3.glyphs.1",
                                      "not a glyph (!, ?, !!, ??, !?, ?! or $N)")]


def test_duplicate_tags_are_refused() -> None:
    with pytest.raises(JSONFormError, match=r"tags\.1\.name: tag Player1 appears twice"):
        from_json({"tags": [{"name": "Player1", "value": "A"}, {"name": "Player1", "value": "B"}],
                   "turns": []})


def test_syntax_errors_carry_line_and_column() -> None:
    with pytest.raises(JSONFormError) as caught:
        loads('{"format": "lcn-json",\n "version": 1,\n "games": [,]}')
    assert (caught.value.line, caught.value.column) == (3, 12)
    assert "not valid JSON" in str(caught.value)


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "0: expected a record (a JSON object), not a number"),
    ('"games"', "expected a document of games (a JSON object), not a string"),
    ('{"format": "lcn-json", "version": 2, "games": []}', "version: this reader knows version 1"),
    ('{"tags": []}', "turns: Missing data for required field."),
    ('{"tags": [], "turns": [{"text": "R5/d", "dots": 2}]}',
     "turns.0.dots: dots are only given with a move number"),
])
def test_wrong_documents_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(JSONFormError) as caught:
        loads(text)
    assert message in str(caught.value)


def test_a_bare_record_and_a_list_of_records_are_read_too() -> None:
    record = to_json(read_game(ANNOTATED))
    assert len(loads(json.dumps(record))) == 1
    assert len(loads(json.dumps([record, record]))) == 2
