"""A decision's timeline across the servers: where the wall time between a player's message and
the last viewer's frame goes (`manage.py loadtest --timeline`).

The instrumented servers (bench/asgi.py) record steps as events `(ms since the epoch, process id,
thread, label)`: a label ending in "+" starts a step and the same label ending in "-" ends it in
the same thread; "message" (a socket's message reached the server) and "frame" (a socket was
sent a frame) are points. The processes share one machine's clock, so their events merge.

`decision_steps` cuts the merged events at each message that led to a decision (a "decision+"
in its process before the next message), up to its last viewer's frame, and gives, for every
step of the deciding process the decisions took, its median start (ms after the message) and
median length, and when the first and the last viewer were sent their frames. With one table
the cut is exact; with more, other tables' steps fall inside a decision's window and blur it,
so read it from one.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import median
from typing import NamedTuple

Event = tuple[float, int, int, str]

MESSAGE = "message"
FRAME = "frame"
DECISION = "decision"


class Step(NamedTuple):
    label: str
    start_ms: float  # median, after the message reached the server
    length_ms: float | None  # median; None for a point (a frame sent)
    seen: int  # in how many of the decisions


def decision_steps(events: list[Event]) -> tuple[int, list[Step]]:
    """(how many decisions, their steps in order of median start)."""
    events = sorted(events)
    messages = [i for i, e in enumerate(events) if e[3] == MESSAGE]
    starts: dict[str, list[float]] = defaultdict(list)
    lengths: dict[str, list[float]] = defaultdict(list)
    decisions = 0
    for n, i in enumerate(messages):
        t0, pid = events[i][0], events[i][1]
        end = messages[n + 1] if n + 1 < len(messages) else len(events)
        window = events[i + 1 : end]
        if not any(e[1] == pid and e[3] == DECISION + "+" for e in window):
            continue  # a resync, a chat line, a refused message: no decision
        decisions += 1
        opened: dict[tuple[int, int, str], float] = {}
        counts: dict[str, int] = defaultdict(int)
        frames = [e[0] - t0 for e in window if e[3] == FRAME]
        last = t0 + max(frames) if frames else window[-1][0]
        for at, e_pid, e_thread, label in window:
            if at > last:
                break  # what the process did after the last viewer had the decision
            if label.endswith("+"):
                opened[(e_pid, e_thread, label[:-1])] = at
            elif label.endswith("-"):
                began = opened.pop((e_pid, e_thread, label[:-1]), None)
                if began is None or e_pid != pid:
                    continue  # another process's step (its renders): read from the frames
                step = label[:-1]
                counts[step] += 1  # a step taken again (a second render): named by its turn
                name = step if counts[step] == 1 else f"{step} ({counts[step]})"
                starts[name].append(began - t0)
                lengths[name].append(at - began)
        if frames:
            starts["first viewer's frame sent"].append(min(frames))
            starts["last viewer's frame sent"].append(max(frames))
    steps = [
        Step(name, median(values), median(lengths[name]) if name in lengths else None, len(values))
        for name, values in starts.items()
        if len(values) * 2 >= decisions  # steps most decisions took
    ]
    return decisions, sorted(steps, key=lambda s: s.start_ms)


def lines(decisions: int, steps: list[Step]) -> list[str]:
    """The timeline as the load test prints it."""
    out = [
        f"a decision's timeline (medians over {decisions} decisions, ms after the player's "
        "message reached the server; exact with one table):"
    ]
    for step in steps:
        length = f"+{step.length_ms:5.2f}" if step.length_ms is not None else " " * 6
        out.append(f"  {step.start_ms:6.2f} {length}  {step.label}")
    return out
