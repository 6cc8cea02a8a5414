"""Analyses on the task queue: ``POST /api/v1/analysis``, the job's URL and real ``lcn worker`` processes.

The workers are started as the operator starts them (``lcn worker`` in a process of its own,
on the data directory's SQLite queue) and killed as a machine kills them (SIGKILL to the
whole process group); every answer of the app is checked against its OpenAPI document.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_support import REPO, SAMPLES, make_app

pytest.importorskip("huey")

LCN = str(Path(sys.executable).with_name("lcn"))
PLAYOUTS = 20
SEED = 3
#: Seconds without a heartbeat after which a running job counts as abandoned (short here).
LEASE = 2
FULL = (SAMPLES / "classic" / "full-deal.lcn").read_text(encoding="utf-8")


def _short() -> str:
    """The sample cut to its first two turns (four decisions), unfinished."""
    head = FULL.partition("\n\n{")[0]
    head = "\n".join(line for line in head.splitlines() if not line.startswith("[Result"))
    return head + "\n\n1. R2/d W8/d 2. R4/d W9/d *\n"


SHORT = _short()


def _app(data_dir: Path, **config: Any) -> Any:
    from openapi_check import install

    app = make_app(data_dir, {"ANALYSIS_PLAYOUTS": PLAYOUTS, "ANALYSIS_SEED": SEED,
                                 "REQUEST_LOG": False, **config})
    app.extensions["openapi_checked"] = install(app)
    return app


class Workers:
    """``lcn worker`` processes on one data directory, each in a process group of its own."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.running: list[subprocess.Popen[bytes]] = []

    def start(self) -> subprocess.Popen[bytes]:
        env = {**os.environ, "LCN_ANALYSIS_LEASE": str(LEASE), "LCN_DATA_DIR": str(self.data_dir)}
        log = (self.data_dir / f"worker-{len(self.running)}.log").open("wb")
        process = subprocess.Popen([LCN, "worker", "-w", "1", "--data-dir", str(self.data_dir)],
                                   env=env, cwd=REPO, start_new_session=True,
                                   stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.running.append(process)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        """SIGKILL to the worker and its consumer's processes: nothing is said, nothing cleaned."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def stop(self) -> None:
        for process in self.running:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)


@pytest.fixture()
def workers(tmp_path: Path) -> Iterator[Workers]:
    found = Workers(tmp_path)
    try:
        yield found
    finally:
        found.stop()


def _queue(app: Any) -> Any:
    from replay_server.services.analyses import the_queue

    with app.app_context():
        return the_queue()


def _jobs(app: Any) -> int:
    """How many jobs the store holds, and how many tasks wait on the queue."""
    from replay_server.queue import JOB

    huey = _queue(app)
    keys = [key.decode() if isinstance(key, bytes) else str(key) for key in huey.all_results()]
    return sum(key.startswith(JOB) for key in keys) * 1000 + huey.pending_count()


def _follow(client: Any, url: str, timeout: float = 60.0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The job's last answer once it is over, and every answer seen on the way."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = client.get(url)
        assert answer.status_code == 200
        seen.append(answer.json)
        if answer.json["state"] in ("done", "failed"):
            return answer.json, seen
        time.sleep(0.05)
    raise AssertionError(f"the job did not finish in {timeout} s: {seen[-1]}")


def _analysed(tmp_path: Path, text: str, playouts: int = PLAYOUTS) -> dict[str, Any]:
    """One game's entry of ``lcn analyse --format json`` on the same text and budget."""
    path = tmp_path / "game.lcn"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([LCN, "analyse", "--format", "json", "--playouts", str(playouts), "--seed",
                           str(SEED), "--no-cache", "--no-progress", str(path)],
                          capture_output=True, check=True, cwd=REPO)
    entry: dict[str, Any] = json.loads(done.stdout)["games"][0]
    return entry


def test_a_stored_game_is_queued_followed_and_answered_as_lcn_analyse_answers(
        tmp_path: Path, workers: Workers) -> None:
    app = _app(tmp_path)
    client = app.test_client()
    stored = client.post("/api/v1/games", json={"lcn": FULL})
    assert stored.status_code == 201
    workers.start()
    posted = client.post("/api/v1/analysis", json={"id": stored.json["id"]})
    assert posted.status_code == 202
    job = posted.json["job"]
    assert posted.json == {"job": job, "url": f"/api/v1/analysis/{job}"}
    assert posted.headers["Location"] == posted.json["url"]
    final, seen = _follow(client, posted.json["url"])
    assert final["state"] == "done", final
    assert {answer["state"] for answer in seen} <= {"queued", "running", "done"}
    running = [answer for answer in seen if answer["state"] == "running"]
    assert any(0 < answer["done"] < answer["total"] for answer in running), seen
    total = final["total"]
    assert total == final["done"] == len(final["result"]["decisions"]) > 20
    assert final["result"] == _analysed(tmp_path, FULL)


def test_a_game_analysed_before_is_answered_from_the_store_without_a_new_job(
        tmp_path: Path, workers: Workers) -> None:
    app = _app(tmp_path)
    client = app.test_client()
    workers.start()
    posted = client.post("/api/v1/analysis", json={"lcn": SHORT})
    assert posted.status_code == 202
    final, _seen = _follow(client, posted.json["url"])
    assert final["state"] == "done"
    before = _jobs(app)
    # Another spelling of the same game (lower-case cards, other spaces), from another client.
    spelled = SHORT.replace("R2/d", "r2/d").replace("2. R4/d", "2.  R4/d")
    again = client.post("/api/v1/analysis", json={"lcn": spelled}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert again.status_code == 200
    assert again.json == final
    assert _jobs(app) == before
    assert final["result"] == _analysed(tmp_path, SHORT)


def test_an_invalid_game_is_refused_before_anything_is_queued(tmp_path: Path) -> None:
    app = _app(tmp_path)
    client = app.test_client()
    before = _jobs(app)
    answer = client.post("/api/v1/analysis", json={"lcn": SHORT.replace("R4/d", "R3/d")})
    assert answer.status_code == 422
    assert answer.json["error"]["code"] == "invalid-record"
    assert [d["code"] for d in answer.json["diagnostics"]] == ["not-in-hand"]
    assert answer.json["diagnostics"][0]["turn"] == 3  # the third turn: Pia's second
    hidden = '[Player1 "Pia"]\n[Player2 "Ada"]\n\n1. R2/d W8/d 2. R4/d W9/d *\n'
    refused = client.post("/api/v1/analysis", json={"lcn": hidden})
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "not-analysable"
    assert "no hand of a player is given" in refused.json["error"]["message"]
    assert client.post("/api/v1/analysis", json={"lcn": SHORT, "id": "abc"}).status_code == 400
    assert client.post("/api/v1/analysis", json={"lcn": SHORT, "game": 2}).status_code == 404
    assert client.post("/api/v1/analysis", json={"id": "nosuchgame"}).status_code == 404
    assert _jobs(app) == before


def test_a_client_has_one_analysis_at_a_time_and_the_queue_is_bounded(tmp_path: Path) -> None:
    app = _app(tmp_path, ANALYSIS_QUEUE=2)
    client = app.test_client()
    first = client.post("/api/v1/analysis", json={"lcn": SHORT})  # no worker: it waits
    assert first.status_code == 202
    assert client.get(first.json["url"]).json == {"state": "queued", "done": 0, "total": 0}
    second = client.post("/api/v1/analysis", json={"lcn": FULL})
    assert second.status_code == 429
    assert second.json["error"]["code"] == "analysis-under-way"
    assert second.json["url"] == first.json["url"]
    assert int(second.headers["Retry-After"]) > 0
    joined = client.post("/api/v1/analysis", json={"lcn": SHORT}, environ_base={"REMOTE_ADDR": "10.0.0.4"})
    assert joined.status_code == 202
    assert joined.json == first.json  # the same game under way: its job, not a new one
    other = client.post("/api/v1/analysis", json={"lcn": FULL}, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 202
    before = _jobs(app)
    full = client.post("/api/v1/analysis", json={"lcn": SHORT.replace("W9/d", "W10/d")},
                       environ_base={"REMOTE_ADDR": "10.0.0.3"})
    assert full.status_code == 503
    assert full.json["error"]["code"] == "queue-full"
    assert int(full.headers["Retry-After"]) > 0
    assert _jobs(app) == before


def test_an_unknown_job_is_404(tmp_path: Path) -> None:
    client = _app(tmp_path).test_client()
    answer = client.get("/api/v1/analysis/0123456789abcdef")
    assert answer.status_code == 404
    assert answer.json["error"]["code"] == "not-found"


def test_a_job_whose_worker_is_killed_is_finished_by_the_next_worker(tmp_path: Path,
                                                                    workers: Workers) -> None:
    playouts = 80
    app = _app(tmp_path, ANALYSIS_PLAYOUTS=playouts)
    client = app.test_client()
    first = workers.start()
    posted = client.post("/api/v1/analysis", json={"lcn": FULL})
    assert posted.status_code == 202
    url = posted.json["url"]
    deadline = time.monotonic() + 60
    while True:
        state = client.get(url).json
        if state["state"] == "running" and state["done"] >= 3:
            break
        assert state["state"] in ("queued", "running") and time.monotonic() < deadline, state
        time.sleep(0.05)
    workers.kill(first)
    time.sleep(0.5)
    stalled = client.get(url).json
    assert stalled["state"] == "running" and stalled["done"] < stalled["total"]
    workers.start()
    final, _seen = _follow(client, url)
    assert final["state"] == "done", final
    assert final["result"] == _analysed(tmp_path, FULL, playouts)


def test_both_routes_are_in_the_openapi_document_and_a_body_over_the_cap_is_refused(tmp_path: Path) -> None:
    app = _app(tmp_path, MAX_CONTENT_LENGTH=4096)
    client = app.test_client()
    paths = client.get("/api/v1/openapi.json").json["paths"]
    assert {"202", "200", "422", "429", "503"} <= set(paths["/api/v1/analysis"]["post"]["responses"])
    assert {"200", "404"} <= set(paths["/api/v1/analysis/{job}"]["get"]["responses"])
    before = _jobs(app)
    huge = client.post("/api/v1/analysis", json={"lcn": SHORT + "{" + "x" * 8000 + "}"})
    assert huge.status_code == 413
    assert huge.json["error"]["code"] == "too-large"
    assert _jobs(app) == before
