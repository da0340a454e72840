"""What the engine's null-window tests showed, kept for the moves that follow.

A test that proves a child keeps the value also proves an upper bound on
that child's score, so every position after it (whatever the opponent plays)
has a lower bound: the bound's negation. Past the opening book that bound
is often the exact value, and proving a move that keeps it is cheap (see
:mod:`.engine`). A test the limits cut short leaves only the bound it was
trying: most likely true (refutations are usually found fast, confirmations
are the slow part), but only ever a guess, kept apart.
"""

from __future__ import annotations

import threading

from unbeatable.games.connect4 import Connect4Position, canonical_key, predecessors

#: Bounds kept of each kind (a few MB at most); the oldest go first.
LIMIT = 1 << 16


class RememberedBounds:
    """Upper bounds on positions' scores (canonical key -> bound), proved or
    likely, and the lower bounds they give the positions one move later.
    Safe to share between threads."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._limit = limit
        self._proved: dict[int, int] = {}
        self._likely: dict[int, int] = {}
        self._lock = threading.Lock()

    def remember(self, position: Connect4Position, upper: int, *, proved: bool = True) -> None:
        """Keep an upper bound on ``position``'s score: proved by a test, or
        (``proved=False``) the one a cut-short test was trying."""
        memo = self._proved if proved else self._likely
        key = canonical_key(position)
        with self._lock:
            known = memo.pop(key, None)
            memo[key] = upper if known is None else min(known, upper)
            while len(memo) > self._limit:
                del memo[next(iter(memo))]

    def proved_lower(self, position: Connect4Position) -> int | None:
        """A proved lower bound on ``position``'s score from the bounds on its
        predecessors, or None."""
        return _bound_after(self._proved, position)

    def likely_lower(self, position: Connect4Position) -> int | None:
        """A lower bound ``position`` most likely has (not proved), or None."""
        return _bound_after(self._likely, position)

    def clear(self) -> None:
        """Forget every bound (benchmarks time positions from scratch)."""
        with self._lock:
            self._proved.clear()
            self._likely.clear()


def _bound_after(uppers: dict[int, int], position: Connect4Position) -> int | None:
    """The best lower bound on ``position`` that upper bounds on its
    predecessors give (the side to move scores at least their negation,
    whatever move led here), or None."""
    if not uppers:
        return None
    found = [uppers.get(canonical_key(before)) for _, before in predecessors(position)]
    return max((-upper for upper in found if upper is not None), default=None)
