"""Analyses on the task queue: a game checked, then answered from the store or queued as a job.

The web request does only what costs little: read the game, validate it, check that there is
something to judge, and look the analysis up under its key (:func:`lcn.analysis_cache.cache_key`
of the canonical text and the site's budget). The search runs in ``lcn worker`` processes
(:mod:`replay_server.queue`). The budget is the site's (``LCN_ANALYSIS_PLAYOUTS`` playouts a
decision with the seed ``LCN_ANALYSIS_SEED``), never the client's: every job costs a bounded
time and the same game always gets the same analysis. The queue is bounded
(``LCN_ANALYSIS_QUEUE``: more pending jobs are refused with 503), and a client has one job
under way at a time (a second is refused with 429 and the URL of the first). A request for a
game whose analysis is under way (any client's) is answered with that job (202).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from huey import Huey

import lcn
from lcn.analysis import NotAnalysable, check
from lcn.analysis_cache import Budget, cache_key, canonical_text
from lcn.model import GameRecord

from ..i18n import _, say
from ..queue import client_job, job_for, job_state, queue_of, release_client, stored_result, submit
from .games import stored_text

#: Seconds a client is told to wait before asking again (Retry-After).
RETRY_BUSY = 5
RETRY_FULL = 30


@dataclass
class Refusal(Exception):
    """A request for an analysis that is answered with an error (and nothing queued)."""

    status: int
    message: str
    code: str
    extra: dict[str, Any] = field(default_factory=dict)
    retry_after: int | None = None


@dataclass(frozen=True)
class Requested:
    """What a request for an analysis became: a finished result, or a job under way."""

    job: str | None
    result: dict[str, Any] | None


def the_queue() -> Huey:
    """The application's queue (built once per process from its settings)."""
    huey = current_app.extensions.get("lcn_queue")
    if huey is None:
        huey = current_app.extensions["lcn_queue"] = queue_of(current_app.config.get("QUEUE_URL"),
                                                              current_app.config["DATA_DIR"])
    return huey


def budget() -> Budget:
    return Budget.of(seed=current_app.config["ANALYSIS_SEED"], seconds=None,
                     playouts=current_app.config["ANALYSIS_PLAYOUTS"])


def _game_of(text: str, game: int) -> GameRecord:
    for index, record in enumerate(lcn.read_games(text), 1):
        if index == game:
            return record
        if index >= current_app.config["MAX_GAMES"]:
            break
    raise Refusal(404, _("the file has no game %(game)s", game=game), "not-found")


def check_analysable(record: GameRecord) -> None:
    """Raise :class:`Refusal` (422) for a game the analysis would refuse: the same checks
    :func:`lcn.analysis.analyse` makes before its search, without the search."""
    report = lcn.validate_record(record)
    errors = [d.to_json() for d in report.diagnostics if d.is_error]
    if errors:
        cap = current_app.config["MAX_DIAGNOSTICS"]
        raise Refusal(422, _("the record is not valid: nothing was queued"), "invalid-record",
                      {"diagnostics": errors[:cap]})
    try:
        check(record)
    except (NotAnalysable, ValueError) as exc:
        reason = say(exc.args[0]) if exc.args else str(exc)
        said = {"code": "not-analysable", "severity": "error", "message": reason}
        raise Refusal(422, reason, "not-analysable", {"diagnostics": [said]}) from None


def request_analysis(*, text: str | None, game_id: str | None, game: int, client: str) -> Requested:
    """Check the game, then the stored analysis or a new job (see the module's docstring)."""
    if game_id is not None:
        text = stored_text(game_id)  # NotFound for an unknown id
    assert text is not None
    record = _game_of(text, game)
    check_analysable(record)
    canonical = canonical_text(record)
    kept = budget()
    key = cache_key(canonical, kept)
    huey = the_queue()
    found = stored_result(huey, key)
    if found is not None:
        return Requested(None, {"game": game, **found})
    same = job_for(huey, key)
    if same is not None:  # the same game and budget is under way: its job answers this request too
        return Requested(same, None)
    running = client_job(huey, client)
    if running is not None:
        raise Refusal(429, _("an analysis of yours is under way: ask again when it is done"),
                      "analysis-under-way", {"url": job_url(running)}, RETRY_BUSY)
    if huey.pending_count() >= current_app.config["ANALYSIS_QUEUE"]:
        raise Refusal(503, _("too many analyses are waiting: try again later"), "queue-full",
                      retry_after=RETRY_FULL)
    job = submit(huey, text=canonical, game=game, key=key, playouts=kept.playouts or 0,
                 seed=kept.seed or 0, client=client)
    if job is None:
        running = client_job(huey, client)
        raise Refusal(429, _("an analysis of yours is under way: ask again when it is done"),
                      "analysis-under-way", {"url": job_url(running)} if running else {}, RETRY_BUSY)
    return Requested(job, None)


def job_url(job: str) -> str:
    return f"/api/v1/analysis/{job}"


def job_answer(job: str) -> dict[str, Any] | None:
    """``GET /api/v1/analysis/<job>``'s answer; None for an unknown job."""
    huey = the_queue()
    record = job_state(huey, job)
    if record is None:
        return None
    answer: dict[str, Any] = {"state": record["state"], "done": record["done"], "total": record["total"]}
    if record["state"] == "done":
        found = stored_result(huey, record["key"])
        if found is None:  # the store was flushed under the job: it is over all the same
            answer = {"state": "failed", "done": record["done"], "total": record["total"],
                      "error": _("the analysis is no longer kept: ask for it again")}
        else:
            answer["result"] = {"game": record["game"], **found}
    elif record["state"] == "failed":
        answer["error"] = say(record.get("error") or "")
        if record.get("diagnostics"):
            answer["diagnostics"] = record["diagnostics"]
    return answer


__all__ = ["Refusal", "Requested", "job_answer", "job_url", "release_client", "request_analysis"]
