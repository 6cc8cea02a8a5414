"""Messages for people, as templates with parameters, so that a language is a catalog.

Every sentence the library says to a person (a diagnostic, a hint, a turn told in words) is
made by :func:`msg` from an English template with named parameters::

    >>> from lcn.messages import msg
    >>> m = msg("{written} rolls this turn: the rolls go on clockwise from {written}",
    ...         written="Ivo")
    >>> m
    'Ivo rolls this turn: the rolls go on clockwise from Ivo'
    >>> m.said_in("de")
    'Ivo würfelt in diesem Zug: von Ivo an wird im Uhrzeigersinn weitergewürfelt'

A :class:`Message` *is* the English string (code that compares, joins or prints messages keeps
working), and it remembers its template and parameters, so that it can be said again in another
language when it is shown: the site in the visitor's language, ``lcn`` in the one ``LANG``
names. Parameters that are themselves messages (a colour's name, a nested reason) are
translated with it.

The translations are gettext catalogs: ``lcn/locale/<lang>/LC_MESSAGES/lcn.po``, compiled to
``.mo`` when the distribution is built. Where no ``.mo`` exists (a source checkout), the
``.po`` is compiled in memory by Babel on first use; the standard library's :mod:`gettext`
reads only compiled catalogs, which is why Babel does it.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

#: Where the library's catalogs live, and their gettext domain.
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "lcn"
DEFAULT_LANGUAGE = "en"


def _languages() -> tuple[str, ...]:
    """English (the templates themselves) and every language with a catalog: a language is
    added by adding its catalog (``docs/translating.md``), not by changing code."""
    found = {path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.[pm]o")}
    return (DEFAULT_LANGUAGE, *sorted(found - {DEFAULT_LANGUAGE}))


#: The languages the library speaks, English first.
LANGUAGES: tuple[str, ...] = _languages()


class Message(str):
    """An English sentence that can be said again in another language.

    A subclass of :class:`str` so that a message goes wherever text went before; the template
    and its parameters ride along for :meth:`translate`.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None) -> Message:
        values = dict(params or {})
        self = super().__new__(cls, template.format(**values))
        self.template = template
        self.params = values
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Messages cross process boundaries (lcn validate --jobs, clusters) with their template.
        return (Message, (self.template, self.params))

    def said_in(self, language: str | None) -> str:
        """This message in ``language`` (a code such as ``de`` or ``de_AT``; None: English).

        Not named ``translate``: :meth:`str.translate` maps characters, and a message is a str.
        """
        return translate(self, language)


def msg(text: str, /, **params: Any) -> Message:
    """The message ``text`` with its named parameters: the one way the library words things.

    Templates are extracted from the source by Babel (keyword ``msg``) into the catalogs, so
    the template must be a literal string at the call.
    """
    return Message(text, params)


def template(text: str, /) -> str:
    """Mark ``text`` as a template for the catalogs without wording anything yet.

    For tables of templates filled later through :class:`Message` (gettext's ``N_``): Babel
    extracts the literal at this call, and the table keeps plain strings.
    """
    return text


def normalise_language(language: str | None) -> str:
    """The supported language closest to ``language`` (``de_DE.UTF-8`` → ``de``), else English."""
    if not language:
        return DEFAULT_LANGUAGE
    code = language.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language a command should speak, from the variables gettext reads, in its order.

    ``LANGUAGE`` may list several (``de:en``); the first supported one wins. ``C`` and
    ``POSIX`` mean English.
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.replace("-", "_").split(".")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def compiled_catalog(directory: Path, language: str, domain: str) -> bytes | None:
    """The compiled (``.mo``) catalog of ``domain`` for ``language`` under ``directory``.

    A compiled ``.mo`` is used when it is there and not older than its ``.po``; otherwise the
    ``.po`` is compiled in memory with Babel. None when the language has no catalog.
    """
    return _compiled(str(directory), normalise_language(language), domain)


@lru_cache(maxsize=16)
def _compiled(directory: str, language: str, domain: str) -> bytes | None:
    base = Path(directory) / language / "LC_MESSAGES"
    po, mo = base / f"{domain}.po", base / f"{domain}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        return mo.read_bytes()
    if not po.is_file():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


@lru_cache(maxsize=16)
def load_catalog(directory: Path, language: str, domain: str) -> gettext.NullTranslations:
    """The gettext catalog of ``domain`` for ``language`` (the templates themselves if none)."""
    data = compiled_catalog(directory, language, domain)
    if data is None:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(data))


def translate(text: str, language: str | None) -> str:
    """``text`` in ``language``: a :class:`Message` is translated, plain text is left as it is."""
    if not isinstance(text, Message):
        return str(text)
    lang = normalise_language(language)
    if lang == DEFAULT_LANGUAGE:
        return str.__str__(text)
    wording = load_catalog(LOCALE_DIR, lang, DOMAIN).gettext(text.template)
    if not text.params:
        return wording
    params = {key: translate(value, lang) if isinstance(value, Message) else value
              for key, value in text.params.items()}
    try:
        return wording.format(**params)
    except (KeyError, IndexError, ValueError):
        # A catalog entry whose placeholders do not match its template (the catalog test
        # refuses those) must not hide the message: say it in English.
        return str.__str__(text)


def layout(text: str, /, **params: Any) -> Message:
    """Messages set out in ``text`` (columns, a label and its value): not a sentence, so not
    in the catalogs, but its parameters are said in the language (a text board's lines).

    >>> layout("  {colour:<7}|", colour=msg("red")).said_in("de")
    '  Rot    |'
    """
    return Message(text, params)


def join(parts: Iterable[str], separator: str = ", ") -> Message:
    """Messages joined by ``separator``, each still translatable (a list of reasons)."""
    fields: dict[str, Any] = {f"p{i}": item for i, item in enumerate(parts)}
    if isinstance(separator, Message):  # a word (" and "), said in the language too
        wording = "{sep}".join("{" + key + "}" for key in fields)
        fields["sep"] = separator
        return Message(wording, fields)
    wording = separator.replace("{", "{{").replace("}", "}}").join(
        "{" + key + "}" for key in fields)
    return Message(wording, fields)


__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LOCALE_DIR", "Message", "compiled_catalog", "join",
           "language_from_environment", "layout", "load_catalog", "msg", "normalise_language", "template",
           "translate"]
