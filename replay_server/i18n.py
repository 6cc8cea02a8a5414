"""The site's languages: Flask-Babel, with the visitor's choice in a cookie.

The language is the ``lang`` cookie when it names a supported one (the switch on every page
sets it), else the best match of ``Accept-Language``, else English. Templates use ``_()``
(Jinja's i18n extension, installed by Flask-Babel) with the site's catalog
``replay_server/translations/<lang>/LC_MESSAGES/messages.po``; the library's messages
(diagnostics, turns in words) are :class:`lcn.messages.Message` and are said in the same
language through :func:`say`.

Catalogs are read through :func:`lcn.messages.compiled_catalog`, so that a source checkout
works from the ``.po`` files as a built distribution does from the ``.mo`` files: Flask-Babel's
own loader reads only compiled files.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel import support
from flask import Flask, request
from flask_babel import Babel, Domain, get_locale

from lcn.messages import DEFAULT_LANGUAGE, LANGUAGES, compiled_catalog, translate

TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
#: The cookie the language switch sets (a year; the site keeps no other state about visitors).
COOKIE = "lang"


class SiteDomain(Domain):  # type: ignore[misc]
    """Flask-Babel's domain, reading catalogs from ``.po`` files when no ``.mo`` is built."""

    def get_translations(self) -> support.NullTranslations:
        language = current_language()
        key = (language, "messages")
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        data = compiled_catalog(TRANSLATIONS_DIR, language, "messages")
        translations: support.NullTranslations = (
            support.Translations(io.BytesIO(data), domain="messages") if data is not None
            else support.NullTranslations())
        self.cache[key] = translations
        return translations


def select_language() -> str:
    """The visitor's language: the switch's cookie, then the browser's preference."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE) or \
        DEFAULT_LANGUAGE


def current_language() -> str:
    """The language of the page being made (English outside a request)."""
    locale = get_locale()
    return str(locale.language) if locale is not None else DEFAULT_LANGUAGE


def say(text: str) -> str:
    """A library message (or plain text) in the current page's language."""
    return translate(text, current_language())


def init_app(app: Flask) -> None:
    """Install Flask-Babel with the site's domain, and ``say``/``page_language`` for templates."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    babel = Babel(app, locale_selector=select_language)
    # Flask-Babel makes its domain on first use; this one reads the catalogs as said above.
    babel.domain_instance = SiteDomain()
    app.jinja_env.globals["say"] = say
    app.jinja_env.globals["page_language"] = current_language
    app.jinja_env.globals["languages"] = LANGUAGES


__all__ = ["COOKIE", "LANGUAGES", "current_language", "init_app", "say", "select_language"]
