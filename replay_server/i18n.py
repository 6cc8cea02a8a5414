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

import flask_babel
from babel import Locale, support
from flask import (
    Blueprint,
    Flask,
    Response,
    g,
    has_app_context,
    has_request_context,
    redirect,
    request,
)
from flask.typing import ResponseReturnValue
from flask_babel import Babel, Domain, get_locale

from lcn.messages import DEFAULT_LANGUAGE, LANGUAGES, compiled_catalog, translate

TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
#: The cookie the language switch sets (a year; the site keeps no other state about visitors).
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
#: The names of the languages in themselves, for the switch ("Deutsch"), from Babel's data.
def _native_name(code: str) -> str:
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


NATIVE_NAMES = {code: _native_name(code) for code in LANGUAGES}

bp = Blueprint("i18n", __name__)


class SiteDomain(Domain):  # type: ignore[misc]
    """Flask-Babel's domain, reading catalogs from ``.po`` files when no ``.mo`` is built."""

    def get_translations(self) -> support.NullTranslations:
        return self.catalog(current_language())

    def catalog(self, language: str) -> support.NullTranslations:
        """The site's catalog of ``language`` (read once, then kept)."""
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
    """The visitor's language: the switch's cookie, then the browser's preference.

    The API always answers in English: its messages are for programs as much as for people,
    and its codes are what a client should act on.
    """
    if request.path.startswith("/api/"):
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE) or \
        DEFAULT_LANGUAGE


def current_language() -> str:
    """The language of the page being made (English outside a request)."""
    # As _page_translations: Flask-Babel's locale of the request, read where it keeps it
    # (``say`` asks for every turn told on a page), chosen by get_locale() the first time.
    state = g.get("_flask_babel") if has_app_context() else None
    locale = getattr(state, "babel_locale", None) or get_locale()
    return str(locale.language) if locale is not None else DEFAULT_LANGUAGE


def _page_translations(domain: SiteDomain) -> support.NullTranslations:
    """The catalog of the page being made, found from the locale Flask-Babel keeps for the
    request (``force_locale`` included) without its lookups on every string: a replay page
    says some six hundred, and those lookups were half the time of rendering it."""
    state = g.get("_flask_babel")
    locale = getattr(state, "babel_locale", None)
    if locale is None:  # not chosen yet in this request: Flask-Babel chooses it, once
        return domain.get_translations()
    return domain.catalog(str(locale.language))


def _(text: str, **params: object) -> str:
    """The site's own message ``text`` (with ``%(name)s`` parameters) in the page's language;
    English outside a request (a command reusing the site's code)."""
    if has_request_context():
        return str(flask_babel.gettext(text, **params))
    return text % params if params else text


#: The same, under the name the site's modules that use ``_`` for a discarded value import.
gettext = _


def N_(text: str) -> str:
    """Mark ``text`` for the catalog, to be said later through :func:`_` (tables of titles)."""
    return text


def say(text: str) -> str:
    """A library message (or plain text) in the current page's language."""
    return translate(text, current_language())


def _local_path(target: str) -> str:
    """``target`` when it is a path of this site, else the home page (no open redirect)."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target \
            or any(ord(c) < 32 for c in target):
        return "/"
    return target


@bp.post("/language")
def choose_language() -> ResponseReturnValue:
    """The switch on every page: keep the choice in the cookie and go back to the same page.

    A plain form (no JavaScript); an unknown language clears the choice, so that the browser's
    preference applies again.
    """
    chosen = request.form.get("lang", "")
    response = redirect(_local_path(request.form.get("next", "/")), code=303)
    if chosen in LANGUAGES:
        response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", path="/")
    else:
        response.delete_cookie(COOKIE, path="/")
    response.headers["Cache-Control"] = "no-store"
    return response


def here() -> str:
    """The current page's path and query, for the switch to return to."""
    query = request.query_string.decode("latin-1")
    return request.path + ("?" + query if query else "")


def init_app(app: Flask) -> None:
    """Install Flask-Babel with the site's domain, and ``say``/``page_language`` for templates."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    babel = Babel(app, locale_selector=select_language)
    # Flask-Babel makes its domain on first use; this one reads the catalogs as said above.
    domain = babel.domain_instance = SiteDomain()
    # The templates' _() and its kin, as Flask-Babel installs them, through the fast lookup.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: _page_translations(domain).gettext(s),
        ngettext=lambda s, p, n: _page_translations(domain).ngettext(s, p, n),
        pgettext=lambda c, s: _page_translations(domain).pgettext(c, s),
        npgettext=lambda c, s, p, n: _page_translations(domain).npgettext(c, s, p, n),
        newstyle=True)
    app.jinja_env.globals["say"] = say
    app.jinja_env.globals["page_language"] = current_language
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["language_names"] = NATIVE_NAMES
    app.jinja_env.globals["here"] = here
    app.register_blueprint(bp)
    app.after_request(_vary_on_language)


def _vary_on_language(response: Response) -> Response:
    """Every page depends on the language: shared caches must keep one copy per choice."""
    if response.mimetype == "text/html":
        response.vary.update(("Accept-Language", "Cookie"))
    return response


__all__ = ["COOKIE", "LANGUAGES", "NATIVE_NAMES", "N_", "_", "current_language", "gettext",
           "init_app", "say", "select_language"]
