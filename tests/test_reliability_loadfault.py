"""The load-and-fault script, short, on both databases: nothing lost, altered or duplicated.

``scripts/loadfault.py`` starts gunicorn on loopback, uploads games from concurrent clients
(distinct and identical ones), kills the whole server with SIGKILL in the middle of a burst
and starts it again, then takes the database away under the running site (PostgreSQL is
stopped and started; SQLite's write lock is held by another process) — see its docstring.
Here it runs with small bounds; docs/reliability.md gives the figures of a full run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "loadfault.py"


def run_script(database: str, tmp_path: Path) -> dict:
    report = tmp_path / "report.json"
    result = subprocess.run([sys.executable, str(SCRIPT), "--database", database, "--games", "12",
                             "--clients", "4", "--kills", "1", "--report", str(report)],
                            capture_output=True, text=True, timeout=600)
    assert report.exists(), result.stdout[-2000:] + result.stderr[-2000:]
    (data,) = json.loads(report.read_text())
    assert result.returncode == 0, json.dumps(data, indent=2)
    return data


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_load_kill_and_outage_lose_nothing(database: str, tmp_path: Path) -> None:
    data = run_script(database, tmp_path)
    assert data["ok"] and data["problems"] == []
    assert data["games_lost"] == 0
    assert data["games_acknowledged"] == data["rows_in_database"] > 12
    assert data["faults_injected"]["server SIGKILL"] == 1
    (round_,) = data["kill"]["rounds"]
    assert round_["resent"] > 0, "the kill came after the burst, not in the middle of it"
    assert "500" not in data["answers"]
    # The hot games were sent by every client at once and created once each.
    assert data["load"]["acknowledged"] == data["load"]["uploads"]
    outage = data["outage"]
    if database == "postgresql":
        assert data["faults_injected"]["database stopped"] == 1
        assert outage["answers_during_outage"] == {"503": outage["uploads_during_outage"]}
        assert outage["unknown_game_during_outage"] == [503, 503]
    else:
        assert data["faults_injected"]["database write lock held"] == 1
        assert outage["answers_during_lock"] == {"201": outage["uploads_during_lock"]}
