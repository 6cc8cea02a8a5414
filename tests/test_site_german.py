"""The site's pages in German say their errors in German: an import that fails (the
importers' messages), the import formats' names, a bad query argument, a bad form (the
site's own checks and marshmallow's), and an HTTP error that has only Werkzeug's wording.
The API keeps answering in English."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
import test_real_brdgme
from site_support import make_app
from test_german_importers import english_phrases
from werkzeug.exceptions import UnsupportedMediaType

from lcn.importers import formats
from lcn.messages import translate

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en"}


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    app = make_app(tmp_path)

    def unsupported() -> str:
        raise UnsupportedMediaType()  # Werkzeug's own description, nothing of the site's

    app.add_url_rule("/test-unsupported", view_func=unsupported)
    return app


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


def _words(page: str) -> str:
    """The text a person reads in the page's main part (tags out, entities read)."""
    main = re.search(r"<main.*?</main>", page, re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main.group(0) if main else page)).split())


def _english_left(text: str) -> list[str]:
    return sorted(p for p in english_phrases() if p in text)


def test_the_import_formats_are_named_in_german(client: Any) -> None:
    page = client.get("/", headers=GERMAN).get_data(as_text=True)
    options = re.findall(r'<option value="([\w-]+)"[^>]*>([^<]*)</option>', page)
    titles = dict(formats())
    named = {name: html.unescape(text) for name, text in options if name in titles}
    assert named.keys() == titles.keys()
    assert named["brdgme"] == "Protokoll oder Befehle von brdg.me"
    for name, title in titles.items():
        assert named[name] == translate(title, "de")
    changed = [name for name, title in titles.items() if named[name] != str(title)]
    assert len(changed) >= len(titles) - 1  # "LCN (Lost Cities Notation)" is the same in both
    english = client.get("/", headers=ENGLISH).get_data(as_text=True)
    assert ">brdg.me log or commands</option>" in english


DAMAGED = [(label, text) for path, label, text in test_real_brdgme.DAMAGED
           if path.parent.name == "brdg.me" and path.name == "match-1.public.txt"]


@pytest.mark.parametrize("label, text", DAMAGED, ids=[label for label, _ in DAMAGED])
def test_a_broken_import_is_told_in_german(client: Any, label: str, text: str) -> None:
    answer = client.post("/", data={"text": text, "format": "auto"}, headers=GERMAN)
    assert answer.status_code == 400
    words = _words(answer.get_data(as_text=True))
    assert "die Eingabe wurde nicht gespeichert" in words or "nicht gespeichert" in words, words
    problems = words[words.index("nicht gespeichert"):]
    assert not _english_left(problems), (label, problems[:2000])
    english = _words(client.post("/", data={"text": text, "format": "auto"},
                                 headers=ENGLISH).get_data(as_text=True))
    assert _english_left(english), english[:2000]  # the check sees English where it is


@pytest.mark.parametrize(("query", "german", "english"), [
    ("turn=abc", "?turn=abc: erwartet wird eine ganze Zahl", "?turn=abc: expected a whole number"),
    ("game=two", "?game=two: erwartet wird eine ganze Zahl", "?game=two: expected a whole number"),
])
def test_a_bad_query_argument_is_refused_in_german(client: Any, query: str, german: str,
                                                    english: str) -> None:
    answer = client.get(f"/samples/classic/rulebook-scoring?{query}", headers=GERMAN)
    assert answer.status_code == 400
    words = _words(answer.get_data(as_text=True))
    assert german in words and "Ungültige Eingabe" in words
    assert english in _words(client.get(f"/samples/classic/rulebook-scoring?{query}",
                                        headers=ENGLISH).get_data(as_text=True))


def test_a_bad_annotation_form_is_refused_in_german(client: Any) -> None:
    stored = client.post("/", data={"text": '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d B2/d *\n',
                                    "format": "auto"})
    source = stored.headers["Location"].rsplit("/", 1)[-1]
    form = {"source": source, "turn": "abc", "glyph-1": "!!!", "comment-9": "x",
            "annotator": "x" * 300}
    words = _words(client.post("/annotate", data=form, headers=GERMAN).get_data(as_text=True))
    assert "das Feld turn muss eine ganze Zahl sein" in words, words
    words = _words(client.post("/annotate", data={**form, "turn": "1"},
                               headers=GERMAN).get_data(as_text=True))
    assert "das Feld annotator ist zu lang (300 Zeichen; höchstens 200)" in words, words
    words = _words(client.post("/annotate", data={**form, "turn": "1", "annotator": "Ada"},
                               headers=GERMAN).get_data(as_text=True))
    assert "hat ein unbekanntes Zeichen '!!!'" in words, words
    assert "das Feld comment-9 nennt Zug 9, aber die Partie hat 2 Züge" in words
    english = _words(client.post("/annotate", data={**form, "turn": "1"},
                                 headers=ENGLISH).get_data(as_text=True))
    assert "the field annotator is too long (300 characters; at most 200)" in english


def test_werkzeug_descriptions_are_replaced_on_pages_but_not_in_the_api(client: Any) -> None:
    words = _words(client.get("/test-unsupported", headers=GERMAN).get_data(as_text=True))
    assert "Die Seite liest das Gesendete in dieser Form nicht" in words, words
    assert UnsupportedMediaType.description not in words
    words = _words(client.get("/test-unsupported", headers=ENGLISH).get_data(as_text=True))
    assert "The site does not read what was sent in this form" in words
    answer = client.get("/api/v1/games/AAAAAAAAAAAAAAAA", headers=GERMAN)
    assert answer.status_code == 404 and answer.is_json
    assert answer.get_json()["error"]["message"].isascii()  # the API speaks English
