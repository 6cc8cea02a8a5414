"""The sample games offered on the home page.

They are found, in order, in ``SAMPLES_DIR`` (``LCN_SAMPLES_DIR``), in the installed
package ``lcn_samples`` (the repository's ``samples/`` folder shipped as package data, so a
plain ``pip install`` has them), or in the ``samples/`` folder next to this package when
running from a source tree.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lcn import find_variant, read_headers

_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Sample:
    """One sample file: ``name`` is its path without ``.lcn`` (``classic/rulebook-scoring``)."""

    name: str
    variant: str
    title: str
    players: tuple[str, ...]
    games: int
    path: Path

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")


def samples_dir(configured: str | None) -> Path | None:
    """Where the samples are, or None when there are none."""
    if configured:
        return Path(configured)
    try:
        spec = importlib.util.find_spec("lcn_samples")
    except (ImportError, ValueError):
        spec = None
    # A folder without __init__.py: a namespace package, found by its search locations.
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(location)
        if path.is_dir() and any(path.rglob("*.lcn")):
            return path
    source_tree = _HERE.parent / "samples"
    return source_tree if source_tree.is_dir() else None


def _describe(name: str, path: Path) -> Sample | None:
    try:
        headers = list(read_headers(path))
    except (OSError, ValueError):
        return None
    if not headers:
        return None
    tags = headers[0][0]
    players = []
    for seat in range(1, 6):
        player = tags.get(f"Player{seat}")
        if player is None:
            break
        players.append(player)
    variant = (tags.get("Variant") or "classic").strip().lower()
    title = tags.get("Event") or name.rsplit("/", 1)[-1].replace("-", " ")
    return Sample(name, variant, title, tuple(players), len(headers), path)


def find_samples(configured: str | None) -> list[Sample]:
    """Every readable sample, grouped by folder (variant) and sorted by name."""
    root = samples_dir(configured)
    if root is None:
        return []
    found = []
    for path in sorted(root.rglob("*.lcn")):
        name = path.relative_to(root).with_suffix("").as_posix()
        sample = _describe(name, path)
        if sample is not None:
            found.append(sample)
    return found


def samples_by_variant(samples: list[Sample]) -> list[tuple[str, list[Sample]]]:
    """Samples grouped under their variant's title (its name when no engine knows it)."""
    groups: dict[str, list[Sample]] = {}
    for sample in samples:
        variant = find_variant(sample.variant)
        title = variant.title if variant is not None else sample.variant
        groups.setdefault(title, []).append(sample)
    return list(groups.items())


def app_samples(app: Any) -> list[Sample]:
    """The samples of an app, found once (they do not change while it runs)."""
    cached = app.extensions.get("lcn_samples")
    if cached is None:
        cached = app.extensions["lcn_samples"] = find_samples(app.config.get("SAMPLES_DIR"))
    return cached
