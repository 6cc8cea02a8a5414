"""Security headers on every response and a rate limit on every write path.

Headers: a Content-Security-Policy that allows only the site's own scripts and styles (no
inline code at all, so an injected ``<script>`` cannot run), no MIME sniffing, a referrer
policy that keeps unlisted game links from leaking to other sites, and no framing by other
sites, except for the pages made to be framed (the embeds, marked with ``allow_framing``).

The rate limit is flask-limiter's, one per application, with its counters in
``RATELIMIT_STORAGE_URI`` (``memory://`` by default; a shared store such as
``redis://...`` when several servers sit behind one load balancer). Every write route is
decorated with ``write_limit``: they share one budget per client.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from flask import Flask, Response, current_app, g, request
from flask.typing import ResponseReturnValue
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import DEFAULT_MOVES_TURNS_RATELIMIT, ConfigError
from .errors import error_response
from .i18n import gettext

P = ParamSpec("P")
R = TypeVar("R")

DEFAULT_RATELIMIT = "30 per minute"
DEFAULT_READ_RATELIMIT = "60 per minute"
#: The budget of POST /api/v1/moves: a game recorded at the table asks for the choices after
#: every tap (a Roll & Write turn of five players is a dozen taps), nothing is stored, and
#: one answer costs about as much as validating the record once.
DEFAULT_MOVES_RATELIMIT = "600 per minute"
#: The budget of the pictures of games (``/g/<id>.png``, ``.gif``, ``/v.png``, ``/v.gif``): a
#: picture costs a replay and a drawing (a GIF up to 120 of them), and crawlers ask for one
#: per shared link, not one per turn.
DEFAULT_PREVIEW_RATELIMIT = "60 per minute"

_CSP_COMMON = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "object-src 'none'; base-uri 'none'; form-action 'self'")
#: The policy of every page that must not be framed by another site.
CSP = f"{_CSP_COMMON}; frame-ancestors 'none'"
#: The policy of embed pages: the same, but any site may frame them.
CSP_FRAMEABLE = f"{_CSP_COMMON}; frame-ancestors *"

def allow_framing(view: Callable[P, R]) -> Callable[P, R]:
    """Mark a view as made to be framed by other sites (embeds); every other page refuses it."""

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        g.lcn_frameable = True
        return view(*args, **kwargs)

    return wrapper


def _write_limit_value() -> str:
    return str(current_app.config.get("RATELIMIT") or DEFAULT_RATELIMIT)


def write_limit(view: Callable[P, R]) -> Callable[P, R]:
    """Rate limit a write route: every write route of the site shares one budget per client.

    The limit is read from the application's ``RATELIMIT`` at each request, so one module
    level decorator serves any number of applications (each with its own counters).
    """

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        limiter = current_app.extensions.get("lcn_limiter")
        if limiter is None or not limiter.enabled:
            return view(*args, **kwargs)
        with limiter.shared_limit(_write_limit_value, scope="lcn-write"):
            return view(*args, **kwargs)

    return wrapper


def _moves_limit_value() -> str:
    return str(current_app.config.get("MOVES_RATELIMIT") or DEFAULT_MOVES_RATELIMIT)


def moves_limit(view: Callable[P, R]) -> Callable[P, R]:
    """Rate limit the legal-moves route on its own budget, ``MOVES_RATELIMIT``.

    It writes nothing, so the writes' budget (30 a minute) would stop a recorder at the table
    within a couple of turns; it is CPU all the same, so it has a budget of its own, and one in
    turns read (``MOVES_TURNS_RATELIMIT``, charged by :func:`spend_moves_turns`), since a
    request's cost grows with its record.
    """

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        limiter = current_app.extensions.get("lcn_limiter")
        if limiter is None or not limiter.enabled:
            return view(*args, **kwargs)
        with limiter.shared_limit(_moves_limit_value, scope="lcn-moves"), \
                limiter.shared_limit(_moves_turns_value, scope=_MOVES_TURNS):
            # A client whose budget of turns is spent is refused here, before its record is
            # read (that turn of the budget is the request's own).
            return view(*args, **kwargs)

    return wrapper


_MOVES_TURNS = "lcn-moves-turns"


def _moves_turns_value() -> str:
    return str(current_app.config.get("MOVES_TURNS_RATELIMIT") or DEFAULT_MOVES_TURNS_RATELIMIT)


def spend_moves_turns(turns: int) -> None:
    """Charge the turns a legal-moves request reads against the client's ``MOVES_TURNS_RATELIMIT``;
    past it, TooManyRequests (429).

    A record's cost grows with its turns (half a second of CPU at 100,000), so 600 requests a
    minute were up to five minutes of CPU. Called once the record is read and before it is
    replayed; a charge that does not fit spends what is left, so that the next request is
    refused before its record is read rather than read again to be refused.
    """
    limiter = current_app.extensions.get("lcn_limiter")
    if limiter is None or not limiter.enabled or turns < 1:
        return
    try:
        with limiter.shared_limit(_moves_turns_value, scope=_MOVES_TURNS, cost=turns):
            pass
    except RateLimitExceeded:
        spent = limiter.current_limit
        try:
            if spent is not None and spent.remaining > 0:
                limiter.limiter.hit(spent.limit, *spent.request_args, cost=spent.remaining)
        except Exception:  # the counters' store is away: the refusal stands all the same
            current_app.logger.exception("could not spend the rest of a budget of turns")
        raise


_PREVIEWS = "lcn-preview"


def _preview_limit_value() -> str:
    return str(current_app.config.get("PREVIEW_RATELIMIT") or DEFAULT_PREVIEW_RATELIMIT)


def preview_limit(view: Callable[P, R]) -> Callable[P, R]:
    """Rate limit a picture route: the pictures of games share one budget per client,
    ``PREVIEW_RATELIMIT``.

    Each new address (another turn, another link) is drawn afresh, and a short link can
    name a long game, so without a budget one client could keep every worker drawing.
    """

    @wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        limiter = current_app.extensions.get("lcn_limiter")
        if limiter is None or not limiter.enabled:
            return view(*args, **kwargs)
        with limiter.shared_limit(_preview_limit_value, scope=_PREVIEWS):
            return view(*args, **kwargs)

    return wrapper


def _read_limit_value() -> str:
    return str(current_app.config.get("READ_RATELIMIT") or DEFAULT_READ_RATELIMIT)


def count_heavy_read() -> None:
    """Count a read that costs CPU (a long file replayed, not yet in the cache) against the
    client's read budget, ``READ_RATELIMIT``; past it, TooManyRequests (429).

    Reads of usual games, and pages already rendered, are free: only the work that grows
    with a file's length is budgeted, so that no client can keep the workers busy with it.
    """
    limiter = current_app.extensions.get("lcn_limiter")
    if limiter is None or not limiter.enabled:
        return
    with limiter.shared_limit(_read_limit_value, scope="lcn-read"):
        pass


def _scope(limit: object) -> str:
    scope = getattr(limit, "scope", "")
    return scope if isinstance(scope, str) else ""


def _too_many_requests(exc: TooManyRequests) -> ResponseReturnValue:
    limit = getattr(exc, "limit", None)
    if limit is not None and _scope(limit) == _PREVIEWS:
        return error_response(429, gettext(
            "Too many pictures of games asked for from your address (at most %(limit)s): please "
            "wait a little and try again.", limit=limit.limit), code="rate-limited")
    reads = _scope(limit) == "lcn-read"
    if limit is not None and _scope(limit) == _MOVES_TURNS:
        message = gettext("The legal moves have read too many turns of records from your address "
                          "(at most %(limit)s): please wait a little and try again.", limit=limit.limit)
    elif limit is not None:
        message = gettext("Too many reads of long games from your address (at most %(limit)s): "
                          "please wait a little and try again.", limit=limit.limit) if reads else \
            gettext("Too many writes from your address (at most %(limit)s): please wait a little "
                    "and try again.", limit=limit.limit)
    else:
        message = gettext("Too many reads of long games from your address: please wait a little "
                          "and try again.") if reads else \
            gettext("Too many writes from your address: please wait a little and try again.")
    return error_response(429, message, code="rate-limited")


def _too_large(exc: RequestEntityTooLarge) -> ResponseReturnValue:
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    message = gettext("The request is larger than the limit of %(limit)s bytes: send a smaller file "
                      "or fewer games.", limit=limit) if limit else \
        gettext("The request is larger than the limit: send a smaller file or fewer games.")
    return error_response(413, message, code="too-large")


class ChunkedBodyLimit:
    """WSGI middleware: a body sent without a length (``Transfer-Encoding: chunked``) that
    is longer than ``MAX_CONTENT_LENGTH`` is refused with 413, never cut short.

    Werkzeug limits such a body by reading at most ``MAX_CONTENT_LENGTH`` bytes of it, and
    the rest is silently lost: a file over the limit was stored without its last game and
    acknowledged with 201. Here such a body is read in full up to one byte past the limit
    before the application sees it; within the limit it is handed on whole, past it the
    request is marked and ``_refuse_cut_body`` answers 413 (nothing is stored).
    """

    def __init__(self, wsgi_app: Any, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        length = environ.get("CONTENT_LENGTH")
        chunked = "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if chunked and not length and limit is not None and environ.get("wsgi.input_terminated"):
            stream = environ["wsgi.input"]
            parts: list[bytes] = []
            size = 0
            while size <= limit:
                part = stream.read(min(64 * 1024, limit + 1 - size))
                if not part:
                    break
                parts.append(part)
                size += len(part)
            if size > limit:
                environ[_CUT_BODY] = True
                parts = []
            body = b"".join(parts)
            environ["wsgi.input"] = io.BytesIO(body)  # still a terminated stream, now whole
        return self.wsgi_app(environ, start_response)


_CUT_BODY = "lcn.body_over_limit"


def _refuse_cut_body() -> None:
    if request.environ.get(_CUT_BODY):
        raise RequestEntityTooLarge()


def _headers(response: Response) -> Response:
    frameable = bool(g.get("lcn_frameable"))
    response.headers["Content-Security-Policy"] = CSP_FRAMEABLE if frameable else CSP
    if frameable:
        response.headers.pop("X-Frame-Options", None)
    else:
        response.headers["X-Frame-Options"] = "DENY"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def _trusted_proxies(value: object) -> int:
    if value is None or value == "":
        return 0
    try:
        number = int(str(value).strip())
    except ValueError:
        number = -1
    if number < 0:
        raise ConfigError(f"LCN_TRUSTED_PROXIES={value!r}: expected the number of reverse proxies "
                         "in front of the server (0 when clients reach it directly)")
    return number


def init_app(app: Flask) -> None:
    """Add the headers and the rate limiter to ``app``.

    ``TRUSTED_PROXIES`` (``LCN_TRUSTED_PROXIES``): how many reverse
    proxies stand in front of the server; their X-Forwarded-For is then trusted, so the rate
    limit counts real clients rather than the load balancer.
    """
    proxies = _trusted_proxies(app.config.get("TRUSTED_PROXIES"))
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,  # type: ignore[method-assign]
                                x_host=proxies)
    app.wsgi_app = ChunkedBodyLimit(app.wsgi_app, app)  # type: ignore[method-assign]
    app.before_request(_refuse_cut_body)
    app.config.setdefault("RATELIMIT", DEFAULT_RATELIMIT)
    storage_uri = str(app.config.get("RATELIMIT_STORAGE_URI") or "memory://")
    # A shared counter store that goes away must not turn writes into 500s: the limiter counts
    # in this process meanwhile (and goes back to the shared store when it answers again), and
    # a storage error is logged rather than raised.
    limiter = Limiter(key_func=get_remote_address, storage_uri=storage_uri, default_limits=[],
                      headers_enabled=True, in_memory_fallback_enabled=True, swallow_errors=True)
    limiter.init_app(app)
    app.extensions["lcn_limiter"] = limiter
    app.register_error_handler(TooManyRequests, _too_many_requests)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.after_request(_headers)
