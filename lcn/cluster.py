"""Validation on a Dask cluster: ``lcn validate --dask ADDRESS`` (the ``cluster`` extra).

Dask's scheduler hands the tasks out, retries those of a worker that died and balances
the load; this module only says what a task is. The tasks are those of ``--jobs``
(:class:`lcn.parallel.FileRuns`): a group of small files, each validated whole, or a range
of a big file cut between games (:func:`lcn.parallel.cut_points`). This process cuts the
files, hands the tasks out a few per worker ahead, and gives the reports out in the order
of the files and of their games, as one process would, from the same plain values.

Workers read the files by path, so the paths must name the same files on every worker as
here: a shared file system (NFS, a cluster file system, or one machine). Each path is sent
absolute, with the file's size; a worker that cannot open the path, or finds a file of
another size there, says so, and from then on this process reads each range itself and
sends its bytes with the task: slower (every byte crosses the network from here), but the
same output. Dask is imported only when a cluster is asked for: ``lcn`` without the extra
works as before, and ``--dask`` without it says what to install.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from .parallel import (
    _Identity,
    _identity,
    _pack_diagnostics,
    _SentOutcome,
    _SentPart,
    _Source,
    _validate,
    analyse_text,
)

#: Seconds to wait for a scheduler to answer, and for it to have a worker.
CONNECT_TIMEOUT = 10.0
#: Worker processes of ``--dask local``; None: one per core this process may run on.
LOCAL_WORKERS: int | None = None

#: The messages of this module, one template each, with their parameters.
MESSAGES = {
    "no-extra": "--dask needs Dask: install the cluster extra "
                "(pip install 'lost-cities-notation[cluster]'): {reason}",
    "unreachable": "cannot reach the Dask scheduler at '{address}': {reason}",
    "no-workers": "the Dask scheduler at '{address}' has no worker (waited {seconds:g} s): start "
                  "some with 'dask worker {address}'",
    "local": "cannot start a local Dask cluster: {reason}",
    "lost": "the Dask cluster was lost in the middle of the run ({reason}): the rest was "
            "validated in this process",
    "address": "'{address}' is not the address of a Dask scheduler ({reason}): give 'local' or "
               "one such as tcp://host:8786",
}


class ClusterError(Exception):
    """A cluster that cannot be used: Dask missing, a scheduler that cannot be reached or
    has no worker. ``lcn validate`` prints the message and exits with status 2."""


def _message(key: str, **params: Any) -> str:
    return MESSAGES[key].format(**params)


def local_workers() -> int:
    """Worker processes of ``--dask local``: one per core this process may run on."""
    if LOCAL_WORKERS is not None:
        return LOCAL_WORKERS
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this system (macOS, Windows)
        return max(1, os.cpu_count() or 1)


# The tasks, run by the workers. A path a worker cannot read as the same file (its
# identity, :func:`lcn.parallel._identity`, taken here: size, times, inode) gives None.


def _same_file(path: str, identity: Sequence[int] | None) -> _Source | None:
    if identity is None:
        return None
    try:
        source = _Source(Path(path))
    except OSError:
        return None
    if source.identity != tuple(identity):
        source.close()
        return None
    return source


def _part_task(path: str, identity: Sequence[int] | None, start: int, end: int, first_line: int,
               count_plain: bool) -> _SentPart | None:
    """A range of a file read by path (None: not the same file here), with the identity of
    the file after the range was read (another one: it changed meanwhile)."""
    source = _same_file(path, identity)
    if source is None:
        return None
    try:
        outcome = _validate(source, start, end, first_line, count_plain)
        after = source.current()
    except OSError:
        return None
    finally:
        source.close()
    return outcome.games, _pack_diagnostics(outcome.file_diagnostics), outcome.clean_end, after


def _bytes_outcome(data: bytes, first_line: int, count_plain: bool) -> _SentOutcome:
    outcome = _validate(_Source(data), 0, len(data), first_line, count_plain)
    return outcome.games, _pack_diagnostics(outcome.file_diagnostics), outcome.clean_end


def _bytes_task(data: bytes, first_line: int, count_plain: bool) -> _SentOutcome:
    """A range whose bytes were sent with the task."""
    return _bytes_outcome(data, first_line, count_plain)


def _files_task(files: list[tuple[str, Sequence[int] | None]], count_plain: bool
                ) -> list[_SentOutcome | None]:
    """Small files read by path, each validated whole (None: not the same file here, or
    written to while it was read)."""
    sent: list[_SentOutcome | None] = []
    for path, identity in files:
        source = _same_file(path, identity)
        if source is None:
            sent.append(None)
            continue
        try:  # whole, as lcn.parallel._validate_whole does
            outcome = _validate(source, 0, source.size, 1, count_plain)
            changed = source.current() != source.identity
        except OSError:
            sent.append(None)
            continue
        finally:
            source.close()
        # Read again here, where the change is found and said.
        sent.append(None if changed else
                    (outcome.games, _pack_diagnostics(outcome.file_diagnostics), outcome.clean_end))
    return sent


def _files_bytes_task(files: list[bytes], count_plain: bool) -> list[_SentOutcome]:
    """Small files whose bytes were sent with the task."""
    return [_bytes_outcome(data, 1, count_plain) for data in files]


class WorkersGone(BrokenProcessPool):
    """The cluster was lost in the middle of a run (the scheduler gone, a task's workers
    killed again and again): the rest is validated in this process, as when a worker of
    ``--jobs`` dies."""


class _Pending:
    """A task's result to come, as :class:`lcn.parallel.FileRuns` waits for it; ``then``
    makes the final result from the task's (or a further task, when a path could not be
    read there and its bytes are sent)."""

    def __init__(self, pool: DaskWorkers, future: Any,
                 then: Callable[[Any], Any] | None = None) -> None:
        self._pool = pool
        self._future = future
        self._then = then
        self._value: Any = None
        self._error: BaseException | None = None
        self._finished = False

    @classmethod
    def finished(cls, pool: DaskWorkers, value: Any) -> _Pending:
        """A result known already (every file of a group was found unreadable here)."""
        pending = cls(pool, None)
        pending._value, pending._finished = value, True
        return pending

    def _advance(self, wait: bool) -> bool:
        """Go as far as the results that are back allow; whether the final one is known."""
        while not self._finished:
            if isinstance(self._future, _Pending):
                if not self._future._advance(wait):
                    return False
                got, error = self._future._value, self._future._error
            else:
                if not wait and not self._future.done():
                    return False
                got, error = None, None
                try:
                    got = self._future.result()
                except BaseException as exc:
                    error = self._pool.translated(exc)
                self._pool.forget(self._future)
            then, self._then = self._then, None
            if error is None and then is not None:
                try:
                    following = then(got)
                except BaseException as exc:
                    error = exc
                else:
                    if isinstance(following, _Pending):
                        self._future = following
                        continue
                    got = following
            self._value, self._error, self._finished = got, error, True
        return True

    def done(self) -> bool:
        return self._advance(False)

    def result(self) -> Any:
        self._advance(True)
        if self._error is not None:
            raise self._error
        return self._value


class DaskWorkers:
    """A Dask cluster's workers, as :class:`lcn.parallel.FileRuns` hands parts to them
    (the :class:`lcn.parallel.Workers` interface)."""

    here_too = False

    def __init__(self, client: Any, count: int) -> None:
        self._client = client
        self.count = max(1, count)
        self.stopped = False
        #: Whether the workers read the files by path; false once one could not, when
        #: this process sends the bytes instead.
        self.by_path = True
        self._live: set[Any] = set()
        self._identities: dict[Path, _Identity | None] = {}
        self._lock = threading.Lock()
        #: What was said when the cluster was found lost (the rest is then validated in
        #: this process, with the same output): for a note to the user.
        self.lost: str | None = None
        from distributed import CancelledError, KilledWorker, TimeoutError
        from distributed.comm.core import CommClosedError

        self._lost: tuple[type[BaseException], ...] = (CancelledError, KilledWorker, TimeoutError,
                                                         CommClosedError)

    def translated(self, exc: BaseException) -> BaseException:
        """A failure of the cluster is :class:`WorkersGone`; a task's own error stays."""
        if isinstance(exc, self._lost):
            return self._gone(exc)
        return exc

    def _gone(self, exc: BaseException) -> WorkersGone:
        said = (str(exc).strip().splitlines() or [""])[0]
        self.lost = self.lost or _message("lost", reason=f"{type(exc).__name__}: {said}".rstrip(": "))
        gone = WorkersGone(self.lost)
        gone.__cause__ = exc
        return gone

    def _submit(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.stopped:
            raise WorkersGone("the Dask workers were stopped")
        try:
            future = self._client.submit(func, *args, pure=False, **kwargs)
        except Exception as exc:  # the client closed under us
            raise self._gone(exc) from exc
        with self._lock:
            self._live.add(future)
        return future

    def forget(self, future: Any) -> None:
        with self._lock:
            self._live.discard(future)

    def submit(self, start: int, end: int, first_line: int, count_plain: bool,
               path: Path | None = None) -> _Pending:
        """A range of ``path``, read by the worker (or sent, see the module's docstring)."""
        assert path is not None, "a cluster reads files, not the memory of this process"
        if not self.by_path:
            return self._part_bytes(path, start, end, first_line, count_plain)

        def then(sent: _SentPart | None) -> Any:
            if sent is not None:
                return sent
            return self._part_bytes(path, start, end, first_line, count_plain, missed=True)

        future = self._submit(_part_task, shared_path(path), self._identity_of(path), start, end,
                              first_line, count_plain)
        return _Pending(self, future, then)

    def _identity_of(self, path: Path) -> _Identity | None:
        """The identity of a file as it was when its first range was handed out: a worker
        that finds another there reads nothing, and the bytes are sent from here; the
        first process compares what every range was read from with what it cut."""
        if path not in self._identities:
            self._identities[path] = _file_identity(path)
        return self._identities[path]

    def _part_bytes(self, path: Path, start: int, end: int, first_line: int, count_plain: bool,
                    missed: bool = False) -> _Pending:
        source = _Source(path)  # the OSError of a file gone since is the run's
        try:
            data = source.read(start, end)
            read_from = source.current()
        finally:
            source.close()
        if missed:
            self.by_path = False
        return _Pending(self, self._submit(_bytes_task, data, first_line, count_plain),
                        lambda sent: (*sent, read_from))

    def submit_files(self, paths: list[Path], count_plain: bool) -> _Pending:
        """A group of small files, each validated whole by one worker."""
        if not self.by_path:
            pending = self._files_bytes(paths, [None] * len(paths), count_plain)
            return pending if isinstance(pending, _Pending) else _Pending.finished(self, pending)
        future = self._submit(_files_task, [(shared_path(path), _file_identity(path)) for path in paths],
                              count_plain)
        return _Pending(self, future, lambda sent: self._files_bytes(paths, sent, count_plain, missed=True))

    def _files_bytes(self, paths: list[Path], sent: list[_SentOutcome | None], count_plain: bool,
                     missed: bool = False) -> _Pending | list[_SentOutcome | OSError | None]:
        """The files of a group that a worker could not read: read here and sent (a file
        that cannot be read here either gives its error, reported at its place)."""
        results: list[_SentOutcome | OSError | None] = list(sent)
        wanted: list[int] = []
        data: list[bytes] = []
        for index, (path, outcome) in enumerate(zip(paths, sent, strict=True)):
            if outcome is not None:
                continue
            try:
                data.append(path.read_bytes())
            except OSError as exc:
                results[index] = exc
                continue
            wanted.append(index)
        if not wanted:
            return results
        if missed:
            self.by_path = False

        def then(outcomes: list[_SentOutcome]) -> list[_SentOutcome | OSError | None]:
            for index, outcome in zip(wanted, outcomes, strict=True):
                results[index] = outcome
            return results

        return _Pending(self, self._submit(_files_bytes_task, data, count_plain), then)

    def submit_analysis(self, game: int, text: str, seed: int | None, seconds: float | None,
                        playouts: int | None, open_cards: bool = False) -> _Pending:
        """One game's analysis (``lcn analyse --dask``), sent as its canonical text: a
        worker needs no file. Its result is :data:`lcn.parallel.AnalysisOutcome`; a cluster
        lost meanwhile raises :class:`WorkersGone`, for the game to be analysed here."""
        return _Pending(self, self._submit(analyse_text, text, seed, seconds, playouts, game=game,
                                           open_cards=open_cards))

    def stop(self) -> None:
        """Cancel the tasks not done (the cluster itself is closed by :class:`Cluster`)."""
        self.stopped = True
        with self._lock:
            live, self._live = list(self._live), set()
        if live:
            with contextlib.suppress(Exception):  # a client closed has nothing to cancel
                self._client.cancel(live)


def shared_path(path: Path) -> str:
    """The name a worker is given for a file: its absolute path here (a worker's working
    directory is its own)."""
    return os.path.abspath(path)


def _file_identity(path: Path) -> _Identity | None:
    """The identity a worker must find (None when this process cannot see the file: the
    worker then reads nothing, and the file's error is found here)."""
    try:
        return _identity(path.stat())
    except OSError:
        return None


class Cluster:
    """A connection to a Dask cluster, or a local cluster started for this command
    (:func:`connect`); its :meth:`workers` are the ``pool`` of a
    :class:`lcn.parallel.FileRuns`. Close it (or use it in a ``with``) at the end."""

    def __init__(self, client: Any, local: Any = None) -> None:
        self.client = client
        self._local = local
        self._workers: DaskWorkers | None = None

    def workers(self) -> DaskWorkers:
        """The cluster's workers, for :class:`lcn.parallel.FileRuns` (its ``pool``)."""
        if self._workers is None:
            count = sum(self.client.nthreads().values())
            self._workers = DaskWorkers(self.client, count)
        return self._workers

    def close(self) -> None:
        """Cancel what is left, disconnect, and stop a local cluster."""
        if self._workers is not None:
            self._workers.stop()
        try:
            self.client.close()
        finally:
            if self._local is not None:
                self._local.close()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _check_address(address: str) -> None:
    """Refuse an address Dask cannot parse before a client is made of it (a client made of
    a malformed address fails late, and once more when it is collected)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if not location:
            raise ValueError("no host")
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location, 8786)
    except (ValueError, TypeError) as exc:
        raise ClusterError(_message("address", address=address, reason=exc)) from exc


class _HeldInterrupts:
    """Ctrl-C held while a local cluster starts, and raised once it is there to be closed.

    Ctrl-C reaches every process of the terminal's group. SIGINT is blocked in this thread
    while the cluster starts: the threads and processes started meanwhile (Dask's event
    loop, the nannies' workers) inherit the block, so this process alone answers it, and
    stops them cleanly. An interrupt taken meanwhile by a thread started before (the kernel
    gives it to any thread that does not block it) is only :attr:`noted`, for the caller to
    raise once the cluster is closed.
    """

    def __init__(self) -> None:
        import signal

        self._signal = signal
        self.noted = False
        self._active = hasattr(signal, "pthread_sigmask") \
            and threading.current_thread() is threading.main_thread()
        self._handler: Any = None
        self._mask: set[Any] = set()

    def _note(self, _signum: int, _frame: Any) -> None:
        self.noted = True

    def __enter__(self) -> _HeldInterrupts:
        if self._active:
            # multiprocessing's resource tracker unblocks SIGINT in the thread that first
            # starts it (Dask's event loop, whose workers would then take Ctrl-C): started
            # here first, before the block, it leaves the block alone.
            with contextlib.suppress(ImportError, OSError):
                from multiprocessing import resource_tracker

                resource_tracker.ensure_running()
            signal = self._signal
            self._handler = signal.signal(signal.SIGINT, self._note)
            self._mask = set(signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}))
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._active:
            return
        signal = self._signal
        signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)  # one that came is handled now
        signal.signal(signal.SIGINT, self._handler)


def connect(address: str, *, timeout: float | None = None, quiet: bool = False) -> Cluster:
    """A cluster to validate on: ``"local"`` starts a ``distributed.LocalCluster`` of one
    worker process per core (:data:`LOCAL_WORKERS` to choose), one thread each (validation
    holds the interpreter lock); any other address is a running scheduler's
    (``tcp://host:8786``). Raises :class:`ClusterError` with a message for people.

    ``quiet`` silences Dask's own log (a command line says what matters in its own words:
    a lost cluster is :attr:`DaskWorkers.lost`, not a logged traceback)."""
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        import distributed
    except ImportError as exc:
        raise ClusterError(_message("no-extra", reason=exc)) from exc
    if quiet:  # Dask's loggers, the ones its configuration gave a level of their own too
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name == "distributed" or name.startswith("distributed."):
                logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    local = None
    if address == "local":
        # Ctrl-C during the start waits until the cluster is there to be closed, and
        # reaches none of its workers (see _HeldInterrupts).
        held = _HeldInterrupts()
        with held:
            try:
                # The scheduler's HTTP server (it has one even without a dashboard) on a
                # free port of loopback: with another cluster on the machine, port 8787 would
                # be taken, and Dask would print a warning about it.
                local = distributed.LocalCluster(n_workers=local_workers(), threads_per_worker=1,
                                                 processes=True, dashboard_address=None,
                                                 scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                                 silence_logs=logging.ERROR)
                client = distributed.Client(local, set_as_default=False)
            except Exception as exc:
                if local is not None:
                    local.close()
                raise ClusterError(_message("local", reason=exc)) from exc
        if held.noted:  # interrupted while it started: closed, then the interrupt goes on
            client.close()
            local.close()
            raise KeyboardInterrupt
    else:
        _check_address(address)
        try:
            client = distributed.Client(address, timeout=wait, set_as_default=False)
        except Exception as exc:  # refused, timed out, a malformed address: all said alike
            raise ClusterError(_message("unreachable", address=address, reason=exc)) from exc
    try:
        client.wait_for_workers(1, timeout=wait)
    except Exception as exc:
        client.close()
        if local is not None:
            local.close()
        raise ClusterError(_message("no-workers", address=address, seconds=wait)) from exc
    return Cluster(client, local)
