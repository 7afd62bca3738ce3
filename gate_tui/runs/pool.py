"""The batch engine's worker processes: a pool whose workers exist before any thread
starts, an ordered and bounded fan-out over it, and whole writes (one idea: moving
blocks through processes without losing or reordering any)."""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any

from gate_tui.runs import interrupts


def write_all(sink: IO[bytes], data: bytes) -> None:
    """Write every byte or raise: a buffered write that fails part-way (a full disk, a
    closed pipe) returns a short count instead of raising, and the rest would be lost."""
    view = memoryview(data)
    while view:
        written = sink.write(view)
        if written is None:  # a raw stream in non-blocking mode; ours never are
            raise BlockingIOError("the output would block")
        view = view[written:]


class WorkerDied(RuntimeError):
    """A worker process ended abruptly (killed, out of memory); the batch cannot finish."""


@contextmanager
def worker_pool(
    jobs: int, initializer: Callable[..., None], initargs: tuple[Any, ...]
) -> Iterator[Any]:
    """A process pool for ``jobs > 1``, else None; its workers exist when this yields.

    ``ProcessPoolExecutor`` rather than ``multiprocessing.Pool``: when a worker dies,
    pending results fail with ``BrokenProcessPool`` instead of waiting forever.
    """
    if jobs <= 1:
        yield None
        return
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(jobs, initializer=initializer, initargs=initargs)
    # The workers are forked with everything this process imported. Frozen, those objects
    # are left out of the workers' garbage collections, which would otherwise touch (and so
    # copy, page by page) all of them in every worker.
    gc.freeze()
    try:
        pool.submit(_ready).result()  # start (fork) the workers now, before any other thread
        gc.unfreeze()
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ready() -> None:
    return None


def fan_out(
    pool: Any,
    blocks: Iterator[Any],
    emit: Callable[[Any], None],
    limit: int,
    work: Callable[[Any], Any],
) -> None:
    """Ordered and bounded: at most ``limit`` blocks in flight, results in input order.
    ``work`` runs in the workers (a module-level function, so it pickles by name)."""
    from concurrent.futures.process import BrokenProcessPool

    pending: deque[Any] = deque()
    try:
        for block in blocks:
            interrupts.check()
            pending.append(pool.submit(work, block))
            if len(pending) >= limit:
                emit(pending.popleft().result())
        while pending:
            emit(pending.popleft().result())
    except BrokenProcessPool as exc:
        raise WorkerDied(str(exc) or "a worker process ended abruptly") from None


