"""The load test's servers' counters (bench/asgi.py): how often a function ran, its wall time
and its thread's CPU time. Apart from bench/asgi.py, which wraps the site's functions on import.
And the servers' memory trim, for the site and the floor alike (`trim`)."""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

# name: [count, wall seconds, CPU seconds of the calling threads] (some only count, or time).
COUNTERS: dict[str, list[float]] = {}


def counted(name: str, fn: Callable) -> Callable:
    """`fn` (a plain function: the thread that calls it runs it through) counted, with its wall
    time and the CPU time of its thread (`time.thread_time`: the other threads' work while it
    runs is not in it)."""
    COUNTERS[name] = [0, 0.0, 0.0]

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            entry = COUNTERS[name]
            entry[0] += 1
            entry[1] += time.perf_counter() - start
            entry[2] += time.thread_time() - cpu

    return wrapper


def trim() -> None:
    """Hand the C allocator's free pages back to the system (glibc's `malloc_trim`), so that
    the RSS read next is what the process holds, not the high-water mark of a burst: the site
    sends each joining socket a whole board, the floor nothing, and the pages those frames
    took stay with the process, free, until trimmed. Nothing where the C library has none."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):
        pass
