"""Caches of the site's processes, each bounded by the bytes it holds, not by its entries.

A count of entries bounds nothing when one entry can be a thousand times larger than the
next (a stored file is a few hundred bytes or two mebibytes, a replay outline grows with
its turns), so every cache of the site is a :class:`ByteCache`: least recently used first
out, under a budget in bytes, and an entry larger than a fraction of the budget is not kept
at all (it would push out everything else for one request).

``functools.lru_cache`` counts entries only, and ``cachetools`` would need a size function
as well: this small class is the one place that both measures and bounds.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from flask import Response, current_app, request

from .i18n import current_language

V = TypeVar("V")

#: An entry larger than this part of its cache's budget is computed but not kept.
LARGEST_SHARE = 2


#: Items of a long sequence measured; the rest are taken to be of their average size.
SAMPLE = 24


def approximate_size(value: Any, _depth: int = 0) -> int:
    """Bytes that ``value`` holds in memory: containers walked, shared objects counted each
    time they appear (an overestimate, the safe side for a bound). A long list or tuple is
    measured on ``SAMPLE`` items spread along it, so that measuring stays cheap beside
    making the value (the turns of one game are alike)."""
    size = sys.getsizeof(value)
    if _depth > 12:
        return size
    if isinstance(value, dict):
        for key, item in value.items():
            size += approximate_size(key, _depth + 1) + approximate_size(item, _depth + 1)
    elif isinstance(value, (list, tuple)) and len(value) > SAMPLE:
        step = len(value) / SAMPLE
        measured = sum(approximate_size(value[int(i * step)], _depth + 1) for i in range(SAMPLE))
        size += measured * len(value) // SAMPLE
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            size += approximate_size(item, _depth + 1)
    elif hasattr(type(value), "__slots__"):
        for name in type(value).__slots__:
            size += approximate_size(getattr(value, name, None), _depth + 1)
    return size


class ByteCache(Generic[V]):
    """A thread-safe least-recently-used map whose entries' sizes sum to at most ``budget``."""

    def __init__(self, budget: int, sizeof: Callable[[Any], int] = approximate_size) -> None:
        self.budget = budget
        self.sizeof = sizeof
        self.size = 0
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: Hashable, value: V, size: int | None = None) -> V:
        """Keep ``value`` (unless it alone is too large for this cache) and return it."""
        cost = self.sizeof(value) if size is None else size
        if cost > self.budget // LARGEST_SHARE:
            return value
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self._items[key] = (value, cost)
            self.size += cost
            while self.size > self.budget and self._items:
                _, (_, dropped) = self._items.popitem(last=False)
                self.size -= dropped
        return value

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        found = self.get(key)
        if found is not None:
            return found
        return self.put(key, make())

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.size = 0


class PageCache(ByteCache[tuple[bytes, str]]):
    """Rendered answers (pages, documents), encoded once, with their ETag (a cached answer
    is sent as a static file is), least recently used first out under a budget in bytes."""

    def __init__(self, budget: int) -> None:
        super().__init__(budget, lambda item: len(item[0]))

    def put_page(self, key: Any, text: str) -> tuple[bytes, str]:
        body = text.encode("utf-8")
        return self.put(key, (body, hashlib.sha256(body).hexdigest()[:32]))


#: Bytes of rendered answers kept per process (``PAGE_CACHE_BYTES`` in the app's config).
PAGE_CACHE_BYTES = 64 * 1024 * 1024


def page_cache() -> PageCache:
    """The application's cache of rendered answers: replay pages and stored games' JSON."""
    cache = current_app.extensions.get("lcn_page_cache")
    if cache is None:
        cache = current_app.extensions["lcn_page_cache"] = PageCache(
            int(current_app.config.get("PAGE_CACHE_BYTES", PAGE_CACHE_BYTES)))
    return cache


def cached_response(key: Hashable, render: Callable[[], str], *, immutable: bool,
                    mimetype: str = "text/html", localised: bool = True) -> Response:
    """The answer kept under ``key`` (rendered and kept when missing), with its ETag.

    ``key`` must hold everything the rendered text depends on, and nothing a client can
    vary freely (see ``pages._page_key``). ``immutable`` answers (what a stored game's id
    names never changes) may be kept by browsers and proxies for a week; the others are
    revalidated with their ETag. A ``localised`` answer (a page) is said in the visitor's
    language: it is kept once per language, and shared caches are told that it depends on
    the headers that choose the language.
    """
    if localised:
        key = (current_language(), key)
    cache = page_cache()
    item = cache.get(key)
    if item is None:
        item = cache.put_page(key, render())
    body, etag = item
    response = Response(body, mimetype=mimetype)
    response.set_etag(etag)
    if localised:
        response.vary.update(("Accept-Language", "Cookie"))
    if immutable:
        response.cache_control.public = True
        response.cache_control.max_age = 7 * 24 * 3600
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    return response.make_conditional(request)


__all__ = ["ByteCache", "PageCache", "approximate_size", "cached_response", "page_cache"]
