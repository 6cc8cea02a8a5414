"""What operators rely on: /healthz (fixed), /metrics, the request log, one traceback per error,
and the configuration's checks."""

from __future__ import annotations

import json
import logging
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from site_support import make_app

from replay_server.config import ConfigError, load_config

GAME = '[Player1 "Ada"]\n[Player2 "Bo"]\n\nR5/d xB2/d *\n'


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_healthz_says_ok_when_the_database_answers(tmp_path: Path, database_url: str) -> None:
    client = make_app(tmp_path, {"DATABASE_URL": database_url, "REQUEST_LOG": False}).test_client()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


def test_healthz_says_503_when_the_database_is_down(tmp_path: Path) -> None:
    url = f"postgresql://lcn@127.0.0.1:{_closed_port()}/lcn"
    client = make_app(tmp_path, {"DATABASE_URL": url, "REQUEST_LOG": False}).test_client()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["database"] == "unavailable"


def test_healthz_gives_up_on_a_database_that_does_not_answer(tmp_path: Path, caplog: Any) -> None:
    """A server that accepts connections and never answers: the check answers 503 after its
    one-second wait instead of waiting for the connection's own timeout (4 s here)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept)
    thread.start()
    try:
        url = f"postgresql://lcn@127.0.0.1:{listener.getsockname()[1]}/lcn?connect_timeout=4"
        client = make_app(tmp_path, {"DATABASE_URL": url, "REQUEST_LOG": False}).test_client()
        with caplog.at_level(logging.WARNING):
            first = client.get("/healthz")
            second = client.get("/healthz")  # the first check still hangs: answered at once
        assert first.status_code == second.status_code == 503
        messages = " ".join(r.getMessage() for r in caplog.records)
        assert "did not answer within 1 s" in messages
        assert "has not answered the previous health check yet" in messages
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        listener.close()


def test_healthz_is_never_rate_limited(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"RATELIMIT_ENABLED": True, "RATELIMIT": "1 per minute",
                                 "REQUEST_LOG": False}).test_client()
    assert client.post("/api/v1/validate", data=GAME, content_type="text/plain").status_code == 200
    assert client.post("/api/v1/validate", data=GAME, content_type="text/plain").status_code == 429
    assert [client.get("/healthz").status_code for _ in range(5)] == [200] * 5


def test_metrics_are_off_unless_configured(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"REQUEST_LOG": False}).test_client()
    assert client.get("/metrics").status_code == 404


def test_metrics_in_the_prometheus_text_format(tmp_path: Path) -> None:
    from prometheus_client.parser import text_string_to_metric_families

    client = make_app(tmp_path, {"METRICS": True, "REQUEST_LOG": False}).test_client()
    assert client.post("/api/v1/games", data=GAME, content_type="text/plain").status_code == 201
    assert client.post("/api/v1/games", data="R5/d xZ9 *\n", content_type="text/plain").status_code == 400
    client.get("/healthz")
    response = client.get("/metrics")
    assert response.status_code == 200 and response.content_type.startswith("text/plain")
    samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
               for family in text_string_to_metric_families(response.get_data(as_text=True))
               for s in family.samples}
    route = ("route", "/api/v1/games")
    assert samples[("lcn_http_requests_total", (("method", "POST"), route, ("status", "201")))] == 1
    assert samples[("lcn_http_requests_total", (("method", "POST"), route, ("status", "400")))] == 1
    assert samples[("lcn_http_request_duration_seconds_count", (route,))] == 2
    assert samples[("lcn_validations_total", (("outcome", "accepted"), route))] == 1
    assert samples[("lcn_validations_total", (("outcome", "invalid"), route))] == 1
    assert samples[("lcn_games_stored", ())] == 1


def test_one_json_log_line_per_request_with_its_id(tmp_path: Path) -> None:
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("replay_server.requests")
    handler = Keep()
    logger.addHandler(handler)
    try:
        client = make_app(tmp_path).test_client()
        response = client.get("/healthz", headers={"X-Request-ID": "abc-123-def"})
        other = client.post("/api/v1/games", data=GAME, content_type="text/plain")
    finally:
        logger.removeHandler(handler)
    assert response.headers["X-Request-ID"] == "abc-123-def"
    first, second = (json.loads(line) for line in lines)
    assert first["method"] == "GET" and first["path"] == "/healthz" and first["status"] == 200
    assert first["request_id"] == "abc-123-def" and isinstance(first["duration_ms"], float)
    assert second["status"] == 201 and second["request_id"] == other.headers["X-Request-ID"]
    assert len(second["request_id"]) == 32


def test_an_unexpected_error_is_logged_with_one_traceback(tmp_path: Path, caplog: Any) -> None:
    app = make_app(tmp_path, {"REQUEST_LOG": False})
    app.config["TESTING"] = False  # as in production: the error is handled, not raised

    def broken() -> str:
        raise RuntimeError("a bug")

    app.add_url_rule("/api/v1/broken", "broken", broken)
    with caplog.at_level(logging.ERROR):
        response = app.test_client().get("/api/v1/broken")
    assert response.status_code == 500 and response.get_json()["error"]["code"] == "internal-error"
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1 and "a bug" in str(tracebacks[0].exc_info[1])


def test_settings_from_the_environment_are_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LCN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("LCN_DB_POOL_SIZE", "3")
    monkeypatch.setenv("LCN_DB_MAX_OVERFLOW", "0")
    monkeypatch.setenv("LCN_METRICS", "1")
    monkeypatch.setenv("LCN_DB_UPGRADE", "false")
    config = load_config()
    assert (config["DB_POOL_SIZE"], config["DB_MAX_OVERFLOW"]) == (3, 0)
    assert config["METRICS"] is True and config["DB_UPGRADE"] is False
    assert "SECRET_KEY" not in config or config["SECRET_KEY"] is None
    assert not (tmp_path / "data" / "secret_key").exists()
    for name, value, message in (("LCN_DB_POOL_SIZE", "0", "expected a positive number of connections"),
                                 ("LCN_DB_MAX_OVERFLOW", "-1", "expected at least 0"),
                                 ("LCN_DB_POOL_SIZE", "some", "expected a whole number of connections"),
                                 ("LCN_METRICS", "perhaps", "expected 1/0, true/false")):
        monkeypatch.setenv(name, value)
        with pytest.raises(ConfigError, match=f"{name}=.*{message}"):
            load_config()
        monkeypatch.delenv(name)
    monkeypatch.setenv("LCN_DB_POOL_SIZE", "2")
    monkeypatch.setenv("LCN_DB_MAX_OVERFLOW", "1")
    monkeypatch.setenv("LCN_DB_UPGRADE", "1")
    app = make_app(tmp_path / "app", {"REQUEST_LOG": False})
    pool = app.extensions["lcn_store"].engine.pool
    assert (pool.size(), pool._max_overflow) == (2, 1)
