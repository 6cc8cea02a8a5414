"""The registry of variants: the Variant tag's value maps to one engine.

Third-party engines can register through the ``lcn.variants`` entry point group; the
built-in ones are registered here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from importlib import metadata
from typing import Any

from .base import MoveSyntaxError, Problem, Score, Variant

_REGISTRY: dict[str, Variant[Any, Any]] = {}
_LOADED = False
_LOADING = False
_LOAD_LOCK = threading.RLock()


def register_variant(variant: Variant[Any, Any]) -> None:
    """Make a variant available under its ``name``."""
    _REGISTRY[variant.name] = variant


def _load() -> None:
    # Under a lock, and marked loaded only once done: a server's threads may ask for variants
    # at the same moment, and none may see a half-filled registry.
    # A variant module that asks for variants while being imported re-enters here (same
    # thread, the lock is re-entrant) and gets what is registered so far, as before.
    global _LOADED, _LOADING
    if _LOADED:
        return
    with _LOAD_LOCK:
        if _LOADED or _LOADING:
            return
        _LOADING = True
        try:
            _load_all()
            _LOADED = True
        finally:
            _LOADING = False


def _load_all() -> None:
    from .classic import ClassicVariant

    register_variant(ClassicVariant())
    for optional in ("rivals", "rollwrite"):
        try:
            module = __import__(f"lcn.variants.{optional}", fromlist=["VARIANT"])
        except ModuleNotFoundError as exc:
            if exc.name != f"lcn.variants.{optional}":
                raise
            continue
        register_variant(module.VARIANT)
    entry_points: Iterable[metadata.EntryPoint]
    try:
        entry_points = metadata.entry_points(group="lcn.variants")
    except Exception:
        entry_points = ()
    for entry in entry_points:
        try:
            register_variant(entry.load())
        except Exception:
            continue


def find_variant(name: str) -> Variant[Any, Any] | None:
    """The variant registered under ``name`` (lower case), or None."""
    _load()
    return _REGISTRY.get(name)


def variant_names() -> list[str]:
    """The names of every registered variant, sorted.

    The built-in ones, and those that other packages register (``lcn.variants`` entry points):

        >>> variant_names()[:3]
        ['classic', 'rivals', 'rollwrite']
    """
    _load()
    return sorted(_REGISTRY)


__all__ = ["MoveSyntaxError", "Problem", "Score", "Variant", "find_variant", "register_variant",
           "variant_names"]
