"""Python's cyclic garbage collector, set up for a serving process (daphne).

A serving process holds a large heap for its whole life (Django, the games' code and card
sets, cached states and renderings) and makes many short-lived objects per decision. With the
default thresholds (700, 10, 10) a full pass came every few seconds under load and took
90-110 ms, scanning the whole heap, every viewer waiting behind it (20 tables x 5 viewers: p99
120-135 ms against 45-53 ms with these; garbage collection 1.6 -> 0.2 ms per decision;
docs/benchmarks.md). What the process holds once it is set up is frozen out of every pass, and
a young pass comes every 50,000 allocations, not 700. A process that only imports the site
(tests, commands) keeps Python's defaults.
"""

import gc

GC_THRESHOLDS = (50_000, 20, 20)


def tune_gc() -> None:
    """Set the collector up for serving (once, when the process starts)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
