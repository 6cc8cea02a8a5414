"""The registry of variants: the Variant tag's value maps to one engine.

Third-party engines can register through the ``lcn.variants`` entry point group; the
built-in ones are registered here.

Everything is loaded on first use, and only what is asked for: a built-in variant's module
when its name is asked for, the entry points only when a name is asked for that no built-in
variant has (or every name is). ``lcn validate`` over a file of classic games thus pays
neither for importing the other engines nor for reading the entry points (which scans every
installed distribution's metadata): together about half its start-up.

Which engine a name means does not depend on what was asked for before: a variant given to
:func:`register_variant` keeps its name; otherwise a built-in variant's name means the
built-in engine, and an entry point never replaces it.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .base import MoveSyntaxError, Problem, Score, Variant

if TYPE_CHECKING:
    from importlib import metadata

#: The built-in variants' names and the modules that define them (as ``VARIANT``). Rivals and
#: Roll & Write may be left out of a build: a module that is not there is skipped.
_BUILT_IN = {"classic": "lcn.variants.classic", "rivals": "lcn.variants.rivals",
             "rollwrite": "lcn.variants.rollwrite"}

_REGISTRY: dict[str, Variant[Any, Any]] = {}
#: Names registered by :func:`register_variant`: never replaced by what is loaded later.
_GIVEN: set[str] = set()
#: Built-in names whose module was imported (or found missing), or is being imported.
_TRIED: set[str] = set()
#: Built-in names whose import is over: the only set read without the lock.
_DONE: set[str] = set()
_PLUGINS_TRIED = False
_LOAD_LOCK = threading.RLock()


def register_variant(variant: Variant[Any, Any]) -> None:
    """Make a variant available under its ``name``."""
    with _LOAD_LOCK:
        _REGISTRY[variant.name] = variant
        _GIVEN.add(variant.name)


def _fill(variant: Variant[Any, Any]) -> None:
    # What is loaded fills a name no variant was given for.
    if variant.name not in _GIVEN:
        _REGISTRY.setdefault(variant.name, variant)


def _load_built_in(name: str) -> None:
    # Under a lock, and a name marked tried before its import: a server's threads may ask
    # for variants at the same moment, and none may see a half-filled registry (another
    # thread waits on the lock until the import is over: only a name in _DONE skips it); a
    # variant module that asks for variants while being imported re-enters here (same
    # thread, the lock is re-entrant) and gets what is registered so far.
    if name in _DONE:
        return
    with _LOAD_LOCK:
        if name in _TRIED:
            return
        _TRIED.add(name)
        module_name = _BUILT_IN[name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
        else:
            _fill(module.VARIANT)
        finally:
            _DONE.add(name)


def _load_plugins() -> None:
    # Every built-in variant first, so that an entry point never takes a built-in name.
    global _PLUGINS_TRIED
    with _LOAD_LOCK:
        if _PLUGINS_TRIED:
            return
        _PLUGINS_TRIED = True
        for name in _BUILT_IN:
            _load_built_in(name)
        from importlib import metadata

        entry_points: Iterable[metadata.EntryPoint]
        try:
            entry_points = metadata.entry_points(group="lcn.variants")
        except Exception:
            entry_points = ()
        for entry in entry_points:
            try:
                _fill(entry.load())
            except Exception:
                continue


def find_variant(name: str) -> Variant[Any, Any] | None:
    """The variant registered under ``name`` (lower case), or None."""
    variant = _REGISTRY.get(name)
    if variant is not None:
        return variant
    if name in _BUILT_IN:
        _load_built_in(name)
    else:
        _load_plugins()
    return _REGISTRY.get(name)


def variant_names() -> list[str]:
    """The names of every registered variant, sorted.

    The built-in ones, and those that other packages register (``lcn.variants`` entry points):

        >>> variant_names()[:3]
        ['classic', 'rivals', 'rollwrite']
    """
    if not _PLUGINS_TRIED:
        _load_plugins()
    return sorted(_REGISTRY)


__all__ = ["MoveSyntaxError", "Problem", "Score", "Variant", "find_variant", "register_variant",
           "variant_names"]
