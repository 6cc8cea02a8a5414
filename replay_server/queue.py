"""The task queue of the analyses: huey, on an SQLite file by default, Redis or PostgreSQL in production.

An analysis takes seconds to a minute a game, far too long for a web request: the site
puts a job on this queue and answers at once, and ``lcn worker`` processes (huey's
consumer) take the jobs off it. Both sides build the queue from the same settings
(``LCN_QUEUE_URL``), so they meet in one store:

* empty: an SQLite file, ``queue.sqlite3`` in the data directory beside the embedded
  database (one machine: ``lcn serve`` and its worker);
* ``redis://host:6379/0``: Redis (``pip install redis``);
* ``postgresql://user@host/db``: PostgreSQL (``pip install psycopg``).

A job's state lives in the queue's key-value store, not in huey's task: the web side reads
it to answer ``GET /api/v1/analysis/<id>`` and the worker writes its progress there. A
worker beats a heartbeat into its running job; huey gives no task back when its consumer
is killed (SIGKILL, a machine lost), so every worker looks for running jobs whose heartbeat
has stopped for ``LCN_ANALYSIS_LEASE`` seconds and puts them on the queue again (at most
``RETRIES`` times): a worker killed in the middle of a job loses nothing but its time.
A finished analysis is kept in the same store under the key of
:func:`lcn.analysis_cache.cache_key`, so the same game with the same engine and budget is
answered from it without a new search.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from huey import Huey, PostgresHuey, RedisHuey, SqliteHuey

#: The key prefixes of the store: a job's state, a finished analysis, a client's running job.
JOB = "lcn-job:"
RESULT = "lcn-analysis:"
CLIENT = "lcn-client:"
#: The job under way for a cache key: a second request for the same game joins it.
PENDING = "lcn-pending:"
#: How many times a job whose worker died is put back on the queue before it is failed.
RETRIES = 3
#: The name the analysis task is registered under, the same in the site and the workers.
TASK = "lcn.analyse"
#: The analysis task of each queue made (a queue is made once per process and kept).
_TASKS: dict[int, Any] = {}


def queue_of(url: str | None, data_dir: str | Path) -> Huey:
    """The queue of ``url`` (see the module's docstring), with the analysis task registered."""
    url = (url or "").strip()
    huey: Huey
    if not url or url.startswith("sqlite:"):
        name = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else ""
        filename = name or str(Path(data_dir) / "queue.sqlite3")
        huey = SqliteHuey("lcn", filename=filename, timeout=30)
    elif url.startswith(("redis://", "rediss://", "unix://")):
        huey = RedisHuey("lcn", url=url)
    elif url.startswith(("postgresql://", "postgres://")):
        huey = PostgresHuey("lcn", dsn=url)
    else:
        raise ValueError(f"LCN_QUEUE_URL={url!r}: expected empty (SQLite), sqlite:///<file>, "
                         "redis://... or postgresql://...")
    _TASKS[id(huey)] = huey.task(name=TASK)(run_job)
    return huey


def _job(huey: Huey, job_id: str) -> dict[str, Any] | None:
    found = huey.get(JOB + job_id, peek=True)
    return found if isinstance(found, dict) else None


def job_state(huey: Huey, job_id: str) -> dict[str, Any] | None:
    """A job's record (state, done, total, key...); None for an unknown id."""
    return _job(huey, job_id)


def stored_result(huey: Huey, key: str) -> dict[str, Any] | None:
    """The analysis stored under a cache key (``Analysis.to_json()``), or None."""
    found = huey.get(RESULT + key, peek=True)
    return found if isinstance(found, dict) else None


def submit(huey: Huey, *, text: str, game: int, key: str, playouts: int, seed: int,
           client: str | None) -> str | None:
    """Record a new job as queued and put it on the queue; its id. None, and nothing queued,
    when the client has a job under way already (see :func:`claim_client`)."""
    job_id = uuid.uuid4().hex
    record = {"state": "queued", "done": 0, "total": 0, "key": key, "text": text, "game": game,
              "playouts": playouts, "seed": seed, "client": client, "attempts": 0,
              "beat": time.time()}
    huey.put(JOB + job_id, record)
    if client is not None and not claim_client(huey, client, job_id):
        huey.delete(JOB + job_id)
        return None
    huey.put(PENDING + key, job_id)
    try:
        _enqueue(huey, job_id)
    except BaseException:  # nothing queued: the client is not kept waiting on a job that never runs
        huey.delete(JOB + job_id)
        release_client(huey, client, job_id)
        raise
    return job_id


def _enqueue(huey: Huey, job_id: str) -> None:
    _TASKS[id(huey)](job_id)  # a task wrapper's call puts the task on its queue


def claim_client(huey: Huey, client: str, job_id: str) -> bool:
    """Make ``job_id`` the client's one job (atomically); False when another is under way."""
    for _ in range(2):
        if huey.put_if_empty(CLIENT + client, job_id):
            return True
        other = huey.get(CLIENT + client, peek=True)
        record = _job(huey, other) if isinstance(other, str) else None
        if record is not None and record["state"] in ("queued", "running"):
            return False
        huey.delete(CLIENT + client)  # the client's last job is over: the place is free
    return False


def job_for(huey: Huey, key: str) -> str | None:
    """The id of the job under way for this cache key (the same game and budget), if any."""
    other = huey.get(PENDING + key, peek=True)
    record = _job(huey, other) if isinstance(other, str) else None
    if record is not None and record["state"] in ("queued", "running"):
        return str(other)
    return None


def _finished(huey: Huey, job_id: str, record: dict[str, Any]) -> None:
    release_client(huey, record.get("client"), job_id)
    if huey.get(PENDING + record["key"], peek=True) == job_id:
        huey.delete(PENDING + record["key"])


def client_job(huey: Huey, client: str) -> str | None:
    """The id of the client's job under way, if any."""
    other = huey.get(CLIENT + client, peek=True)
    record = _job(huey, other) if isinstance(other, str) else None
    if record is not None and record["state"] in ("queued", "running"):
        return str(other)
    return None


def release_client(huey: Huey, client: str | None, job_id: str) -> None:
    if client is not None and huey.get(CLIENT + client, peek=True) == job_id:
        huey.delete(CLIENT + client)


def _update(huey: Huey, job_id: str, **changes: Any) -> dict[str, Any] | None:
    record = _job(huey, job_id)
    if record is None:
        return None
    record.update(changes)
    huey.put(JOB + job_id, record)
    return record


def lease_seconds(environ: Mapping[str, str] | None = None) -> float:
    import os

    value = (environ if environ is not None else os.environ).get("LCN_ANALYSIS_LEASE", "")
    try:
        return max(1.0, float(value)) if value.strip() else 30.0
    except ValueError:
        return 30.0


#: The queue of this worker process (the task finds its store through it).
_current: Huey | None = None


def run_job(job_id: str) -> None:
    """The task: analyse the job's game, reporting progress and beating a heartbeat."""
    from lcn.analysis_cache import Stored
    from lcn.parallel import _unpack_diagnostics, analyse_text

    huey = _current
    if huey is None:  # pragma: no cover - the task runs only in a worker made by serve_queue
        raise RuntimeError("no queue")
    record = _job(huey, job_id)
    if record is None or record["state"] in ("done", "failed"):
        return
    stored = stored_result(huey, record["key"])
    if stored is not None:  # another job of the same game and budget finished first
        _update(huey, job_id, state="done", done=len(stored["decisions"]), total=len(stored["decisions"]))
        _finished(huey, job_id, record)
        return
    _update(huey, job_id, state="running", beat=time.time(), attempts=record["attempts"] + 1)
    stop = threading.Event()
    lease = lease_seconds()

    def beat() -> None:
        while not stop.wait(lease / 3):
            _update(huey, job_id, beat=time.time())

    beating = threading.Thread(target=beat, daemon=True)
    beating.start()

    def told(game: int, done: int, total: int) -> None:
        _update(huey, job_id, done=done, total=total, beat=time.time())

    try:
        outcome = analyse_text(record["text"], record["seed"], None, record["playouts"], progress=told)
    finally:
        stop.set()
        beating.join()
    if outcome[0] == "analysis":
        result: Stored = outcome[1]
        huey.put(RESULT + record["key"], result.analysis)
        count = len(result.analysis["decisions"])
        _update(huey, job_id, state="done", done=count, total=count)
    elif outcome[0] == "refused":
        _update(huey, job_id, state="failed", error=str(outcome[1]))
    else:
        errors = [d.to_json() for d in _unpack_diagnostics(outcome[1])]
        _update(huey, job_id, state="failed", error="the record is not valid", diagnostics=errors)
    _finished(huey, job_id, record)


def requeue_abandoned(huey: Huey, lease: float, *, now: float | None = None) -> list[str]:
    """Put back on the queue the running jobs whose heartbeat stopped ``lease`` seconds ago
    (their worker died); a job abandoned ``RETRIES`` times fails. The ids put back."""
    now = time.time() if now is None else now
    back: list[str] = []
    for raw_key in list(huey.all_results()):
        key = raw_key.decode() if isinstance(raw_key, bytes) else str(raw_key)
        if not key.startswith(JOB):
            continue
        job_id = key[len(JOB):]
        record = _job(huey, job_id)
        if record is None or record["state"] != "running" or now - record["beat"] < lease:
            continue
        if record["attempts"] >= RETRIES:
            _update(huey, job_id, state="failed", error="the analysis was interrupted too many times")
            _finished(huey, job_id, record)
            continue
        _update(huey, job_id, state="queued", beat=now)
        _enqueue(huey, job_id)
        back.append(job_id)
    return back


def watch_queue(url: str | None, data_dir: str, lease: float, parent: int) -> None:
    """Put back the jobs of dead workers every half lease, until the worker ``parent`` is gone."""
    import os

    huey = queue_of(url, data_dir)
    while os.getppid() == parent:
        with contextlib.suppress(Exception):  # a store that blinks is looked at again next time
            requeue_abandoned(huey, lease)
        time.sleep(lease / 2)


def serve_queue(url: str | None, data_dir: str, workers: int, lease: float,
                started: Callable[[], None] | None = None) -> None:
    """Consume the queue with ``workers`` processes until interrupted, while a process of its
    own puts back the jobs of dead workers (this worker's own, started before, included).

    The watcher is a process started afresh (spawn), not a thread: the consumer forks its
    workers, and a fork while another thread is inside SQLite (holding one of its global
    locks) leaves the child waiting on that lock for ever.
    """
    import multiprocessing
    import os

    from huey.consumer import Consumer

    global _current
    watcher = multiprocessing.get_context("spawn").Process(
        target=watch_queue, args=(url, data_dir, lease, os.getpid()), daemon=True)
    watcher.start()
    huey = queue_of(url, data_dir)
    _current = huey

    @huey.on_startup()
    def own_connection() -> None:
        # Run in each of the consumer's processes as it starts: a connection the consumer
        # opened before it forked is the parent's, so the child opens its own.
        if getattr(huey.storage, "_conn", None) is not None:
            huey.storage._conn = None

    consumer = Consumer(huey, workers=workers, worker_type="process", periodic=False,
                        check_worker_health=True, initial_delay=0.05, max_delay=0.5)
    if started is not None:
        started()
    try:
        consumer.run()
    finally:
        watcher.terminate()
