"""Error answers: a page for people, JSON under ``/api/``; never a traceback.

Every HTTP error (400 bad input, 404 unknown game, 405, 413 too large...) gets the same
shape: the API answers ``{"error": {"status", "code", "message"}}`` (plus ``diagnostics``
when the input had problems), pages show the message in the site's layout. Handlers that
the storage and security modules register for their own errors (503, 413, 429) come
first, since they are registered for the exact exception.

This module is the one place that builds an error answer: :func:`json_error` the JSON (through
``schemas.ErrorSchema``), :func:`error_response` the JSON or the page as the request wants.
Every module of the site answers its errors through them, so that no route invents a shape.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from flask import Flask, Response, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError

from .i18n import N_, _
from .schemas import ErrorSchema

log = logging.getLogger(__name__)

TITLES = {400: N_("Bad input"), 404: N_("Not found"), 405: N_("Method not allowed"),
          413: N_("Too large"), 415: N_("Unsupported media type"), 422: N_("Too long to replay"),
          429: N_("Too many requests"), 500: N_("Something went wrong")}
#: What the site says in place of Werkzeug's own English descriptions, which a page in
#: another language would show as they are (an error raised without a message of its own).
DESCRIPTIONS = {
    400: N_("The request could not be understood: check the link or the form, and try again."),
    405: N_("This address does not answer this kind of request."),
    413: N_("What was sent is larger than the site accepts: send a smaller file."),
    414: N_("The address is too long for the site to read."),
    415: N_("The site does not read what was sent in this form: send LCN text or JSON."),
    422: N_("The request was understood, but it cannot be carried out as it is."),
    429: N_("Too many requests from your address: please wait a little and try again."),
    500: N_("The server failed on this request; it has been logged. Please try again, or "
            "report the link."),
}
CODES = {400: "bad-input", 404: "not-found", 405: "method-not-allowed", 413: "too-large",
         415: "unsupported-media-type", 422: "too-long", 429: "rate-limited", 500: "internal-error"}


def wants_json() -> bool:
    """Whether this request is the API's (JSON errors) rather than a person's (pages)."""
    return request.path.startswith("/api/")


def json_error(status: int, message: str, *, code: str | None = None,
               extra: dict[str, Any] | None = None, with_status: bool = True) -> Response:
    """The JSON error answer: ``{"error": {"status", "code", "message"}}`` and ``extra``.

    Through the declared schema, as every answer of the API: what it does not declare is not
    sent. ``with_status`` False leaves the status out of the body, as the recorder's position
    route has always answered its script (the HTTP status says it).
    """
    code = code or CODES.get(status, "error")
    error: dict[str, Any] = {"status": status} if with_status else {}
    error.update(code=code, message=message)
    body: dict[str, Any] = {"error": error}
    body.update(extra or {})
    response = jsonify(ErrorSchema().dump(body))
    response.status_code = status
    return response


def error_response(status: int, message: str, *, code: str | None = None,
                   extra: dict[str, Any] | None = None) -> ResponseReturnValue:
    """The error answer for this request: JSON for the API, a page otherwise."""
    if wants_json():
        return json_error(status, message, code=code, extra=extra)
    return render_template("error.html", status=status, title=_(TITLES.get(status, N_("Error"))),
                           message=message, extra=extra or {}), status


class BadInput(ValueError):
    """A request body that is not a game file; answered with 400 and the diagnostics."""

    def __init__(self, message: str, diagnostics: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics = diagnostics or []


def json_object(expected: str) -> dict[str, Any]:
    """The request's body as a JSON object, or :class:`BadInput` saying what is wrong with it
    (``expected`` names the object the endpoint wants): the one reading of a JSON body for
    the API's endpoints that take one."""
    data = request.get_data(cache=False)
    try:
        body = json.loads(data.decode("utf-8", "strict"))
    except UnicodeDecodeError:
        raise BadInput("the JSON body is not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise BadInput(f"the body is not valid JSON: {exc.msg} at line {exc.lineno}, "
                       f"column {exc.colno}") from None
    except (RecursionError, ValueError):
        raise BadInput("the JSON body is nested too deeply or has a number too long") from None
    if not isinstance(body, dict):
        raise BadInput(f"expected a JSON object {expected}")
    return body


def bad_input(exc: BadInput) -> ResponseReturnValue:
    """The 400 answer to a body that is not a game file, with its diagnostics."""
    return error_response(400, exc.message, extra={"diagnostics": exc.diagnostics})


def _http_error(exc: HTTPException) -> ResponseReturnValue:
    status = exc.code or 500
    message = exc.description or _(TITLES.get(status, N_("Error")))
    if message == type(exc).description and status in DESCRIPTIONS and not wants_json():
        # Werkzeug's own wording (nothing more precise was given): the site's, in the page's
        # language (the API keeps its answers as they are, in English).
        message = _(DESCRIPTIONS[status])
    if status == 404 and message.startswith("The requested URL was not found"):
        message = _("There is no page at %(path)s: check the link, or start from the home page.",
                    path=request.path)
    if status == 405:
        message = _("%(method)s is not allowed on %(path)s", method=request.method, path=request.path)
    response = make_response(error_response(status, message))
    valid = getattr(exc, "valid_methods", None)
    if status == 405 and valid:
        response.headers["Allow"] = ", ".join(valid)
    return response


def _unexpected(exc: Exception) -> ResponseReturnValue:
    if isinstance(exc, HTTPException) and not isinstance(exc, InternalServerError):
        return _http_error(exc)
    # Flask has logged the traceback of an exception raised by a view (it is the
    # original_exception here); only a 500 raised on purpose is logged here, so every error
    # is logged once.
    if getattr(exc, "original_exception", None) is None:
        log.error("error 500 on %s %s: %s", request.method, request.path, exc.description)
    return error_response(500, _("The server failed on this request; it has been logged. "
                            "Please try again, or report the link."))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(InternalServerError, _unexpected)
