"""What operators need: a health check, Prometheus metrics and one log line per request.

- ``GET /healthz`` (fixed interface): ``200 {"status": "ok", "database": "ok"}`` when the
  database answers a read within a second, else ``503`` with ``"database": "unavailable"``.
  Never rate-limited, never cached, so load balancers can poll it.
- ``GET /metrics``: the Prometheus text format (prometheus_client), only when ``METRICS``
  (``LCN_METRICS=1``) is on. Requests by route, method and status (methods other than HTTP's counted as
  ``other``, so a client cannot add series at will), latency histograms by
  route, the files the validating routes checked by outcome, and the games stored (counted
  in the database at each scrape). Under gunicorn, set ``PROMETHEUS_MULTIPROC_DIR`` to an
  empty directory so that every worker's counts are added up (prometheus_client's
  multiprocess mode).
- A request log line on the ``replay_server.requests`` logger, one JSON object per line
  (method, path, status, duration in milliseconds, request id), which log collectors read
  as they are. The request id is the client's ``X-Request-ID`` when it looks like one, a
  new one otherwise; it is sent back in ``X-Request-ID``.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, g, request
from flask.typing import ResponseReturnValue

from .storage import StoreUnavailable, get_store

request_log = logging.getLogger("replay_server.requests")

_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")
#: The routes that check files, for the validations counter.
VALIDATING_ENDPOINTS = frozenset({"api.validate_route", "api.store_route", "pages.submit",
                                  "sharing.save_annotation"})
#: The methods that get a label value of their own: HTTP's (RFC 9110, and PATCH). A client
#: may send any token as a method (nginx passes it on), and every new label value is a series
#: kept until the process ends.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"})


def _method_label(method: str) -> str:
    return method if method in METHODS else "other"


def _status_label(status: int) -> str:
    """The status as it is: the site chooses it, and only among HTTP's three-digit codes."""
    return str(status) if 100 <= status <= 599 else "other"


def _outcome(status: int) -> str:
    if status < 300:
        return "accepted"
    return {400: "invalid", 413: "too-large", 429: "rate-limited", 503: "unavailable"}.get(status, "failed")


def healthz() -> ResponseReturnValue:
    """The health check: is the database answering (within a second)?"""
    try:
        get_store().ping()
    except StoreUnavailable as exc:
        logging.getLogger(__name__).warning("health check: %s", exc)
        response = Response(json.dumps({"status": "unavailable", "database": "unavailable"}), 503,
                            mimetype="application/json")
    else:
        response = Response(json.dumps({"status": "ok", "database": "ok"}), 200, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


class _GamesStored:
    """A collector that counts the stored games in the database at each scrape."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        try:
            count = self.app.extensions["lcn_store"].count()
        except StoreUnavailable:
            return
        yield GaugeMetricFamily("lcn_games_stored", "Files stored in the database", value=count)


def _setup_metrics(app: Flask) -> None:
    from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
    from prometheus_client.exposition import CONTENT_TYPE_LATEST

    registry = CollectorRegistry(auto_describe=True)
    requests = Counter("lcn_http_requests", "HTTP requests answered", ["route", "method", "status"],
                       registry=registry)
    latency = Histogram("lcn_http_request_duration_seconds", "Time to answer a request", ["route"],
                        registry=registry)
    validations = Counter("lcn_validations", "Files checked by the validating routes, by outcome",
                          ["route", "outcome"], registry=registry)
    app.extensions["lcn_metrics"] = (requests, latency, validations)

    def metrics() -> ResponseReturnValue:
        output = registry
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            output = CollectorRegistry()
            multiprocess.MultiProcessCollector(output)
        data = generate_latest(output) + generate_latest(_games_registry)
        return Response(data, 200, {"Content-Type": CONTENT_TYPE_LATEST, "Cache-Control": "no-store"})

    _games_registry = CollectorRegistry(auto_describe=False)
    _games_registry.register(_GamesStored(app))  # type: ignore[arg-type]
    app.add_url_rule("/metrics", "metrics", metrics, methods=["GET"])


def _start() -> None:
    g.lcn_started = time.perf_counter()
    given = request.headers.get("X-Request-ID", "")
    g.lcn_request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


def _finish(response: Response) -> Response:
    from flask import current_app

    started = g.get("lcn_started")
    elapsed = time.perf_counter() - started if started is not None else 0.0
    request_id = g.get("lcn_request_id") or uuid.uuid4().hex
    response.headers["X-Request-ID"] = request_id
    route = request.url_rule.rule if request.url_rule is not None else "unmatched"
    metrics = current_app.extensions.get("lcn_metrics")
    if metrics is not None:
        requests, latency, validations = metrics
        # The route is the matched rule (the site's own list) or "unmatched", never the path.
        requests.labels(route, _method_label(request.method), _status_label(response.status_code)).inc()
        latency.labels(route).observe(elapsed)
        if request.endpoint in VALIDATING_ENDPOINTS and request.method == "POST":
            validations.labels(route, _outcome(response.status_code)).inc()
    request_log.info(json.dumps({
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "method": request.method,
        "path": request.path, "status": response.status_code, "duration_ms": round(elapsed * 1000, 2),
        "request_id": request_id, "remote": request.remote_addr}))
    return response


def _configure_request_log() -> None:
    """Lines on standard error, the message alone (it is the JSON object), unless the
    operator configured the logger already (``logging.config``, gunicorn's ``--log-config``)."""
    if request_log.level == logging.NOTSET:
        request_log.setLevel(logging.INFO)
    if request_log.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    request_log.addHandler(handler)
    request_log.propagate = False


def init_app(app: Flask) -> None:
    """Add the health check, the request log and (when configured) the metrics to ``app``."""
    app.add_url_rule("/healthz", "healthz", healthz, methods=["GET"])
    limiter = app.extensions.get("lcn_limiter")
    if limiter is not None:
        limiter.exempt(healthz)
    if app.config.get("METRICS"):
        _setup_metrics(app)
    if app.config.get("REQUEST_LOG", True):
        _configure_request_log()
    app.before_request(_start)
    app.after_request(_finish)
