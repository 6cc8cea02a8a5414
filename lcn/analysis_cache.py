"""Finished analyses kept on disk, so that a game analysed once is not searched again.

An analysis (:func:`lcn.analysis.analyse`) costs a search per decision: about a minute a
game with the default budget. A corpus is analysed again for many reasons that do not
change a single verdict: the JSON wanted after the text, a run interrupted half way, a few
games added to a file, the same games in another file. The store answers each of these
from disk, and only what it has never seen is searched.

What an analysis depends on is exactly its key:

* the game: the SHA-256 of its canonical text (:func:`lcn.write_game`), so two spellings of
  one game (lower-case cards, other line breaks, another file, another place in a file)
  share an entry, and a game that differs by a single card or comment does not;
* the engine: :data:`lcn.search.ENGINE_VERSION`, which changes whenever a verdict can, so a
  verdict of an older engine is never served as the new one's;
* the budget: seconds or playouts per decision, and the seed. Not the number of processes
  (``jobs``): each decision's search is seeded from the seed and its turn alone.

A budget of seconds is not repeatable (how far a search gets in a second depends on the
machine and its load), nor is one without a seed: the entry is then the answer of the first
run with that budget, served again as it is. Pass ``--no-cache`` to ``lcn analyse`` for a
fresh search; a budget of ``playouts`` with a ``seed`` gives the same answer either way.

One JSON file per key, under a directory named by the key's first two hexadecimal digits
(a corpus of many thousand games does not make one huge directory). An entry is written
to a temporary file in its directory and renamed over its name (:func:`os.replace`, atomic
on one file system): several processes may analyse and store at once, and a reader sees a
whole entry or none, never half of one. An entry that cannot be read, is not JSON, or does
not hold what its key says (cut short, edited, of another format) is a miss: the game is
searched again and the entry written anew. An entry is the analysis's JSON, a few
kilobytes a game; nothing expires, and removing the directory (``rm -r
~/.cache/lcn/analyses``) clears the store.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import search
from .analysis import Analysis
from .messages import Message, msg
from .model import GameRecord
from .writer import write_game

#: The layout of an entry: changed when an entry's fields change, so that entries of
#: another layout are misses rather than misread.
FORMAT = 1


def default_directory() -> Path:
    """Where ``lcn analyse`` keeps analyses: ``$XDG_CACHE_HOME/lcn/analyses``, else
    ``~/.cache/lcn/analyses`` (the XDG base directories' place for data that can be made
    again)."""
    base = os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "lcn" / "analyses"


@dataclass(frozen=True, slots=True)
class Budget:
    """The budget of an analysis as it is keyed: with ``playouts`` the clock plays no part
    (``seconds`` is None), as in :func:`lcn.analysis.analyse`."""

    seconds: float | None
    playouts: int | None
    seed: int | None
    #: The open-cards view (every card known) rather than each player's: another analysis.
    open_cards: bool = False

    @classmethod
    def of(cls, *, seed: int | None, seconds: float | None, playouts: int | None,
           open_cards: bool = False) -> Budget:
        """The budget ``analyse`` runs with for these arguments (``1`` and ``1.0`` seconds are
        the same budget)."""
        if playouts is not None:
            return cls(None, int(playouts), seed, open_cards)
        return cls(None if seconds is None else float(seconds), None, seed, open_cards)

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"seconds": self.seconds, "playouts": self.playouts, "seed": self.seed}
        if self.open_cards:
            found["open_cards"] = True
        return found


def canonical_text(record: GameRecord) -> str:
    """The text a game is keyed by: the writer's, the same for every spelling of the game."""
    return write_game(record)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(text: str, budget: Budget, *, engine: str | None = None) -> str:
    """The key of the analysis of the game whose canonical text is ``text`` (by the engine
    of this library unless ``engine`` names another)."""
    engine = search.ENGINE_VERSION if engine is None else engine
    fields = {"format": FORMAT, "engine": engine, "game": _digest(text), "budget": budget.to_json()}
    return _digest(json.dumps(fields, sort_keys=True))


def _said(value: Any) -> Any:
    """A message as JSON (template and parameters, nested messages too), so that an
    answer from the store is said in the reader's language like a fresh one; None for a
    parameter JSON cannot hold as it is."""
    if isinstance(value, Message):
        params = {name: _said(param) for name, param in value.params.items()}
        if any(param is None and value.params[name] is not None for name, param in params.items()):
            return None
        return {"template": value.template, "params": params}
    if value is None or isinstance(value, bool | int | str) or (isinstance(value, float)
                                                                  and math.isfinite(value)):
        return value
    return None


def _unsaid(value: Any) -> Any:
    if isinstance(value, dict):
        template, params = value.get("template"), value.get("params")
        if not isinstance(template, str) or not isinstance(params, dict):
            raise ValueError("not a message")
        return msg(template, **{str(name): _unsaid(param) for name, param in params.items()})
    return value


@dataclass(frozen=True, slots=True)
class Stored:
    """An analysis as the store keeps it: its JSON (:meth:`lcn.analysis.Analysis.to_json`)
    and each decision's reason as a message (None where a decision has none, or where the
    reason was kept as text only), for a text output in any language."""

    analysis: dict[str, Any]
    reasons: tuple[str | None, ...]

    @classmethod
    def of(cls, analysis: Analysis) -> Stored:
        return cls(analysis.to_json(), tuple(d.reason for d in analysis.decisions))


def _valid_analysis(data: Any) -> bool:
    return (isinstance(data, dict) and isinstance(data.get("players"), list)
            and isinstance(data.get("decisions"), list)
            and all(isinstance(d, dict) for d in data["decisions"])
            and isinstance(data.get("accuracy"), dict) and isinstance(data.get("budget"), dict))


class AnalysisCache:
    """A directory of analyses, one file per key (see the module's docstring).

    ``get`` and ``put`` take the game's canonical text (:func:`canonical_text`). Reading
    never raises: an entry that is missing or unreadable is None. Writing raises
    :class:`OSError` (a directory that cannot be written, a full disk), for the caller to
    say once and go on without the store; nothing is left behind but whole entries.
    """

    def __init__(self, directory: Path | str | None = None, *, engine: str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self._engine = engine

    @property
    def engine(self) -> str:
        """The engine version entries are kept for: this library's
        (:data:`lcn.search.ENGINE_VERSION`, as it is when asked) unless one was given."""
        return search.ENGINE_VERSION if self._engine is None else self._engine

    def path(self, text: str, budget: Budget) -> Path:
        """The file of the entry of a game and a budget (which may not exist)."""
        key = cache_key(text, budget, engine=self.engine)
        return self.directory / key[:2] / f"{key}.json"

    def _expected(self, text: str, budget: Budget) -> dict[str, Any]:
        return {"format": FORMAT, "engine": self.engine, "game": _digest(text), "budget": budget.to_json()}

    def get(self, text: str, budget: Budget) -> Stored | None:
        """The stored analysis of the game with this budget; None when there is none to trust."""
        try:
            with self.path(text, budget).open(encoding="utf-8") as handle:
                entry = json.load(handle)
        except (OSError, ValueError):  # missing, unreadable, not UTF-8, not JSON
            return None
        if not isinstance(entry, dict) or not _valid_analysis(entry.get("analysis")):
            return None
        if any(entry.get(name) != value for name, value in self._expected(text, budget).items()):
            return None
        analysis: dict[str, Any] = entry["analysis"]
        reasons = entry.get("reasons")
        if not isinstance(reasons, list) or len(reasons) != len(analysis["decisions"]):
            reasons = [None] * len(analysis["decisions"])
        try:
            said = tuple(_unsaid(reason) for reason in reasons)
        except (ValueError, TypeError):
            said = (None,) * len(analysis["decisions"])
        return Stored(analysis, said)

    def put(self, text: str, budget: Budget, stored: Stored) -> Path:
        """Store an analysis (atomically: see the module's docstring); its file."""
        path = self.path(text, budget)
        entry = {**self._expected(text, budget), "analysis": stored.analysis,
                 "reasons": [_said(reason) for reason in stored.reasons]}
        data = json.dumps(entry, ensure_ascii=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{path.stem[:16]}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(data)
            os.replace(name, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise
        return path
