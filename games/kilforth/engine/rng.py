"""Deterministic randomness stored inside the game state.

We use splitmix64 driven by a plain integer counter: the whole generator state is one int, so
it serialises to JSON trivially and a saved game resumes with exactly the same future rolls.
Every shuffle and every die in the engine goes through these functions.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def next_u64(counter: int) -> tuple[int, int]:
    """Return (new_counter, 64-bit output) for a splitmix64 counter."""
    counter = (counter + _GOLDEN) & _MASK
    z = counter
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return counter, z ^ (z >> 31)


def seed_counter(seed: int) -> int:
    """Mix a user seed into a starting counter (so seeds 1 and 2 give unrelated streams)."""
    _, out = next_u64(seed & _MASK)
    return out


def below(state: object, n: int) -> int:
    """Uniform int in [0, n) drawn from state.rng (Lemire's multiply-shift, bias < 2**-50)."""
    state.rng, out = next_u64(state.rng)  # type: ignore[attr-defined]
    return (out * n) >> 64


def shuffle(state: object, items: list) -> None:
    """Fisher-Yates shuffle in place using the state's generator."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]


def die(state: object) -> int:
    """One six-sided die; forced faces queued by the testing helpers are used first."""
    forced = state.forced_dice  # type: ignore[attr-defined]
    if forced:
        return forced.pop(0)
    return below(state, 6) + 1
