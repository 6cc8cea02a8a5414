"""The message catalogs: every message of the library and the site has its German wording.

The templates are extracted from the source as Babel extracts them for translators, so a
message added without a catalog entry, or an entry whose placeholders differ from its
template, fails here rather than showing English (or nothing) to a German reader.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from lcn.messages import (
    LANGUAGES,
    Message,
    language_from_environment,
    msg,
    normalise_language,
    translate,
)

ROOT = Path(__file__).resolve().parent.parent

#: (domain, source folders, catalog folder, Babel's method map, extraction keywords): the
#: library's catalog holds the command's words too (cli/ says them with ``msg``).
DOMAINS = {
    "lcn": ((ROOT / "lcn", ROOT / "cli"), ROOT / "lcn" / "locale", [("**.py", "python")],
            {"msg": None, "template": None}),
    "messages": ((ROOT / "replay_server",), ROOT / "replay_server" / "translations",
                 [("**.py", "python"), ("templates/**.html", "jinja2")], None),
}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def extracted(domain: str) -> Iterator[tuple[str, str, int]]:
    sources, _catalogs, method_map, keywords = DOMAINS[domain]
    options = {"**.py": {}, "templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    kwargs = {"keywords": keywords} if keywords else {}
    for source in sources:
        for filename, lineno, message, _comments, _context in extract_from_dir(
                str(source), method_map=method_map, options_map=options, **kwargs):
            ids = message if isinstance(message, tuple) else (message,)
            for text in ids:
                if text:
                    yield text, f"{source.name}/{filename}", lineno


def catalog(domain: str, language: str) -> Catalog:
    _source, catalogs, _map, _keywords = DOMAINS[domain]
    path = catalogs / language / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=domain)


def brace_fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def percent_fields(text: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)s", text))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_message_has_a_translation(domain: str, language: str) -> None:
    entries = catalog(domain, language)
    missing = sorted({f"{file}:{line}: {text!r}" for text, file, line in extracted(domain)
                      if not (entries.get(text) and entries.get(text).string
                              and not entries.get(text).fuzzy)})
    assert not missing, f"{len(missing)} messages without a {language} wording:\n" + \
        "\n".join(missing[:40])


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_translations_keep_the_placeholders(domain: str, language: str) -> None:
    fields = brace_fields if domain == "lcn" else percent_fields
    wrong = [entry.id for entry in catalog(domain, language)
             if entry.id and entry.string and isinstance(entry.id, str)
             and fields(entry.id) != fields(str(entry.string))]
    assert not wrong, wrong


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_no_stale_entries(domain: str, language: str) -> None:
    """An entry whose template left the source is a wording nobody sees: remove it."""
    used = {text for text, _file, _line in extracted(domain)}
    stale = [entry.id for entry in catalog(domain, language) if entry.id and entry.id not in used]
    assert not stale, stale


def test_a_message_is_its_english_text_and_says_itself_again_in_german() -> None:
    from lcn.diagnostics import hint

    said = hint("keyword-typo", meant="up:")
    assert isinstance(said, Message)
    assert said == "did you mean `up:`?"
    assert translate(said, "de") == "war `up:` gemeint?"
    assert translate(said, "de_CH.UTF-8") == "war `up:` gemeint?"
    assert translate(said, "fr") == "did you mean `up:`?"
    assert translate("plain text", "de") == "plain text"


def test_nested_messages_are_translated_with_their_parent() -> None:
    inner = msg("did you mean `{meant}`?", meant="R5")
    outer = msg("`{word}` is one word: write it without the space, `{joined}`",
                word=inner, joined="x")
    assert "war `R5` gemeint?" in translate(outer, "de")


def test_messages_survive_pickling_with_their_template() -> None:
    import pickle

    said = msg("did you mean `{meant}`?", meant="R5")
    again = pickle.loads(pickle.dumps(said))
    assert again == said and translate(again, "de") == "war `R5` gemeint?"


@pytest.mark.parametrize(("environ", "expected"), [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}, "de"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_MESSAGES": "de_AT"}, "de"),
    ({}, "en"),
])
def test_the_command_language_follows_the_environment(environ: dict[str, str],
                                                      expected: str) -> None:
    assert language_from_environment(environ) == expected


def test_unknown_languages_fall_back_to_english() -> None:
    assert normalise_language("pt-BR") == "en"
    assert normalise_language(None) == "en"
    assert normalise_language("DE-de") == "de"


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    from site_support import make_app

    return make_app(tmp_path).test_client()


@pytest.mark.parametrize(("headers", "cookie", "lang", "nav"), [
    ({}, None, "en", "Paste or upload"),
    ({"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}, None, "de", "Einfügen oder hochladen"),
    ({"Accept-Language": "fr-FR,fr;q=0.9"}, None, "en", "Paste or upload"),
    ({"Accept-Language": "de"}, "en", "en", "Paste or upload"),
    ({"Accept-Language": "en"}, "de", "de", "Einfügen oder hochladen"),
    ({"Accept-Language": "de"}, "xx", "de", "Einfügen oder hochladen"),
])
def test_the_page_language_follows_the_cookie_then_the_browser(
        client: Any, headers: dict[str, str], cookie: str | None, lang: str, nav: str) -> None:
    if cookie is not None:
        client.set_cookie("lang", cookie)
    page = client.get("/", headers=headers).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    assert nav in page


def test_cached_replay_pages_are_kept_per_language(client: Any) -> None:
    """A page cached in one language is never sent to a visitor of the other."""
    sample = "/samples/classic/rulebook-scoring"
    english = client.get(sample).get_data(as_text=True)
    german = client.get(sample, headers={"Accept-Language": "de"})
    assert '<html lang="en">' in english
    assert '<html lang="de">' in german.get_data(as_text=True)
    assert "Accept-Language" in german.headers.get("Vary", "")
    assert '<html lang="en">' in client.get(sample).get_data(as_text=True)
