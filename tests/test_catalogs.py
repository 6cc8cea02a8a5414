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


# -- diagnostics in a chosen language ---------------------------------------------------------

BROKEN = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d Q7/d 2. R3/d *\n'


def test_a_diagnostic_is_said_in_german_with_the_same_code() -> None:
    from lcn import validate

    report = next(iter(validate(BROKEN)))
    errors = [d for d in report.diagnostics if d.is_error]
    assert errors
    first = errors[0]
    english, german = first.format("x.lcn"), first.format("x.lcn", language="de")
    assert f"error[{first.code}]" in english and f"error[{first.code}]" in german
    assert "unknown colour `Q`" in english
    assert "unbekannte Farbe `Q`" in german and "unknown" not in german
    assert first.to_json()["message"] == first.message
    assert first.to_json("de")["code"] == first.code
    assert first.to_json("de")["message"].startswith("unbekannte Farbe")


def test_words_inside_messages_are_translated_with_them() -> None:
    """A colour's name, a place of a card and a plural are parts of the German sentence."""
    from lcn import validate

    text = ('[Player1 "Ada"]\n[Player2 "Bo"]\n[Expeditions "6"]\n\n'
            "1. R5/d xB2/d 2. R3/R *\n")
    report = next(iter(validate(text)))
    said = [translate(d.message, "de") for d in report.diagnostics]
    assert any("Rot" in line for line in said), said
    assert not any("red" in line for line in said), said


def _run_lcn(args: list[str], lang: str, stdin: str | None = None) -> Any:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = lang
    return subprocess.run([sys.executable, "-m", "lcn_cli.main", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def test_lcn_validate_speaks_the_language_of_lang(tmp_path: Path) -> None:
    bad = tmp_path / "bad.lcn"
    bad.write_text(BROKEN, encoding="utf-8")
    english = _run_lcn(["validate", str(bad)], "C.UTF-8")
    german = _run_lcn(["validate", str(bad)], "de_DE.UTF-8")
    assert english.returncode == german.returncode == 1
    codes = re.findall(r"error\[[a-z-]+\]", english.stdout)
    assert codes and codes == re.findall(r"error\[[a-z-]+\]", german.stdout)
    assert "unknown colour" in english.stdout and "unknown colour" not in german.stdout
    assert "unbekannte Farbe `Q`" in german.stdout
    assert "Partie 1" in german.stdout and "Fehler" in german.stdout
    # JSON is for programs: its keys and its wording stay the same whatever LANG says.
    as_json = _run_lcn(["validate", "--format", "json", str(bad)], "de_DE.UTF-8")
    assert as_json.returncode == 1
    assert "unknown colour `Q`" in as_json.stdout and '"message"' in as_json.stdout


# -- the site in German -----------------------------------------------------------------------

#: What the players wrote (comments, tags, the source) is the game's, in its own language.
_GAME_TEXT = re.compile(r'<(script|style|textarea)\b.*?</\1>|<p class="mv-comment">.*?</p>'
                        r'|<div class="comment">.*?</div>|<details class="panel (?:tags|source)-panel'
                        r'.*?</details>|<p class="game-meta">.*?</p>|<p class="mv-comment">.*?</p>',
                        re.S)


def _visible(html: str, *, game_text: bool = True) -> str:
    body = html[html.find("<body"):]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    if not game_text:
        body = _GAME_TEXT.sub(" ", body)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_a_broken_paste_is_answered_in_german(client: Any) -> None:
    answer = client.post("/", data={"text": BROKEN, "format": "auto"},
                         headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert '<html lang="de">' in page
    text = _visible(page)
    assert "nichts wurde gespeichert" in text
    assert "error[bad-card]" in text and "unbekannte Farbe `Q`" in text
    assert "unknown colour" not in text and "nothing was stored" not in text
    english = _visible(client.post("/", data={"text": BROKEN, "format": "auto"}).get_data(
        as_text=True))
    assert "unknown colour `Q`" in english and "error[bad-card]" in english


def test_the_switch_keeps_the_choice_in_a_cookie_and_returns_to_the_page(client: Any) -> None:
    home = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'action="/language"' in home and 'lang="de"' in home and "Deutsch" in home
    answer = client.post("/language", headers={"Accept-Language": "en"},
                         data={"lang": "de", "next": "/samples/classic/rulebook-scoring?turn=2"})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith("/samples/classic/rulebook-scoring?turn=2")
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("lang=de") and "Max-Age=31536000" in cookie and "Path=/" in cookie
    page = client.get("/samples/classic/rulebook-scoring?turn=2",
                      headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="de">' in page and "Nachziehstapel" in page
    back = client.post("/language", data={"lang": "en", "next": "/"})
    assert back.status_code == 303
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "de"}).get_data(
        as_text=True)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil",
                                    "javascript:alert(1)"])
def test_the_switch_goes_back_only_to_this_site(client: Any, target: str) -> None:
    answer = client.post("/language", data={"lang": "de", "next": target})
    assert answer.status_code == 303
    assert answer.headers["Location"] in ("/", "http://localhost/")


def _english_of_the_site() -> list[str]:
    """The site's English sentences whose German differs: none may show on a German page."""
    entries = catalog("messages", "de")
    return [entry.id for entry in entries
            if isinstance(entry.id, str) and entry.id and entry.string != entry.id
            and "%" not in entry.id and "<" not in entry.id and len(entry.id) >= 8
            and " " in entry.id.strip()]


def test_the_samples_in_german_show_no_english_of_the_site_or_the_library(client: Any) -> None:
    from lcn.messages import load_catalog

    german = {"Accept-Language": "de"}
    english_ui = _english_of_the_site()
    assert len(english_ui) > 40
    pages = ["/samples/classic/rulebook-scoring?turn=3", "/"]
    home = client.get("/", headers=german).get_data(as_text=True)
    samples = sorted(set(re.findall(r'href="(/samples/[^"]+)"', home)))
    for variant in ("classic", "rivals", "rollwrite"):  # two of each game, at a later turn
        pages += [f"{path}?turn=5" for path in samples if path.startswith(f"/samples/{variant}/")][:2]
    assert len(pages) == 8, samples
    library = load_catalog(ROOT / "lcn" / "locale", "de", "lcn")
    assert library.gettext("red") == "Rot"
    for path in pages:
        answer = client.get(path, headers=german)
        assert answer.status_code == 200, path
        text = _visible(answer.get_data(as_text=True), game_text=False)
        left = [phrase for phrase in english_ui if phrase in text]
        assert not left, (path, left)
        # The final scores name the colours in German too.
        if "Endstand" in text:
            assert "yellow" not in text.split("Endstand", 1)[1].split("Herunterladen", 1)[0]


def test_every_html_answer_varies_on_the_language(client: Any) -> None:
    for path in ("/", "/samples/classic/rulebook-scoring", "/no-such-page"):
        vary = client.get(path).headers.get("Vary", "")
        assert "Accept-Language" in vary and "Cookie" in vary, path


def test_the_api_answers_in_english_whatever_the_browser_asks(client: Any) -> None:
    answer = client.get("/api/v1/games/zzzzzzzzzzzz", headers={"Accept-Language": "de"})
    assert answer.status_code in (400, 404)
    assert "Partie" not in answer.get_data(as_text=True)


# -- the build compiles the catalogs ----------------------------------------------------------

def test_the_build_compiles_every_catalog(tmp_path: Path) -> None:
    import gettext
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    for domain, folder in (("lcn", "lcn/locale"), ("messages", "replay_server/translations")):
        for language in TRANSLATED:
            mo = tmp_path / folder / language / "LC_MESSAGES" / f"{domain}.mo"
            assert mo.is_file(), mo
            with mo.open("rb") as handle:
                compiled = gettext.GNUTranslations(handle)
            entries = [e for e in catalog(domain, language) if isinstance(e.id, str) and e.id]
            assert entries
            assert all(compiled.gettext(e.id) == e.string for e in entries)


def test_a_language_is_a_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The languages are the catalogs found: adding one is adding its .po, not code."""
    from lcn import messages

    for code in ("de", "fr"):
        folder = tmp_path / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / "lcn.po").write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    (tmp_path / "xx").mkdir()  # a folder without a catalog is no language
    monkeypatch.setattr(messages, "LOCALE_DIR", tmp_path)
    assert messages._languages() == ("en", "de", "fr")
