"""Perft: count games and positions, to prove move generation correct.

Chess engines check their move generator by counting the leaves of the game
tree to a depth and comparing with published numbers (:func:`leaves`: Connect
Four has 7, 49, 343, 2,401, 16,807, 117,649 and 823,536 for depths 1-7).
Small games can even be counted to the end (:func:`perft`): tic-tac-toe has
255,168 games, 5,478 distinct reachable positions and 958 terminal ones.
A deep count can take ages: :func:`forecast` says how long from the pace of
the shallower counts, so that a face can refuse or announce it first.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from unbeatable.games.base import Game

P = TypeVar("P")
M = TypeVar("M")


@dataclass(slots=True)
class Perft:
    """Counts over the whole game tree from one position."""

    games: int = 0
    #: Complete games by how they ended: a winner's name, or ``"draw"``.
    outcomes: Counter[str] = field(default_factory=Counter)
    positions: int = 0
    terminal: int = 0
    #: Complete games by length in plies.
    lengths: Counter[int] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "outcomes": dict(sorted(self.outcomes.items())),
            "positions": self.positions,
            "terminal": self.terminal,
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
        }


def leaves(game: Game[P, M], position: P, depth: int) -> int:
    """Perft as chess engines count it: the positions exactly ``depth`` plies
    below ``position`` along every line of play (games that end sooner are
    not counted). Memoised per (position, depth), so it is linear in the
    distinct positions met, not in the lines."""
    return _leaves(game, position, depth)[0]


def _leaves(game: Game[P, M], position: P, depth: int) -> tuple[int, int]:
    """:func:`leaves` and the work it took: the (position, depth) pairs it
    expanded, which its time is in proportion to."""
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, got {depth}")
    memo: dict[tuple[Any, int], int] = {}

    def count(pos: P, left: int) -> int:
        if left == 0:
            return 1
        known = memo.get((pos, left))
        if known is not None:
            return known
        total = sum(count(game.play(pos, move), left - 1) for move in game.moves(pos))
        memo[(pos, left)] = total
        return total

    return count(position, depth), len(memo)


def too_large(game: Game[P, M], max_positions: int) -> str | None:
    """Why counting every game from the start is hopeless, or None. A board
    of n cells has at most 3**n positions: past ``max_positions`` many times
    over, say so at once rather than after minutes and gigabytes."""
    try:
        description = game.describe()
    except NotImplementedError:
        return None
    cells = description.rows * description.columns
    if 3**cells <= 10 * max_positions:
        return None
    return (
        f"{description.title} has up to 3^{cells} positions: far too many to count every "
        "game; count the lines to a depth instead (perft --depth N)"
    )


def perft(game: Game[P, M], position: P, max_positions: int = 2_000_000) -> Perft:
    """Count games and positions reachable from ``position``.

    The games below a position depend only on the position, so each distinct
    position is expanded once and its counts are reused (memoised by the
    position itself: equal boards, not mirror images as in search tables):
    linear in positions, not in games. Raises ValueError past
    ``max_positions`` distinct positions, so a huge game cannot exhaust memory.
    """
    if position == game.initial() and (reason := too_large(game, max_positions)):
        raise ValueError(reason)
    memo: dict[Any, tuple[Counter[str], Counter[int]]] = {}
    terminal = 0

    def count(pos: P) -> tuple[Counter[str], Counter[int]]:
        nonlocal terminal
        cached = memo.get(pos)
        if cached is not None:
            return cached
        if len(memo) >= max_positions:
            raise ValueError(f"more than {max_positions:,} positions: too large to count")
        outcomes: Counter[str] = Counter()
        lengths: Counter[int] = Counter()
        if game.is_terminal(pos):
            terminal += 1
            outcomes[game.winner(pos) or "draw"] = 1
            lengths[0] = 1
        else:
            for move in game.moves(pos):
                sub_outcomes, sub_lengths = count(game.play(pos, move))
                outcomes.update(sub_outcomes)
                for plies, n in sub_lengths.items():
                    lengths[plies + 1] += n
        memo[pos] = (outcomes, lengths)
        return outcomes, lengths

    outcomes, lengths = count(position)
    return Perft(
        games=sum(outcomes.values()),
        outcomes=outcomes,
        positions=len(memo),
        terminal=terminal,
        lengths=lengths,
    )


#: A shallower count must take this long (seconds) before its pace is trusted.
PROBE_SECONDS = 0.2
#: A tree of at most this many distinct positions is counted to any depth,
#: whatever the pace says: the count is memoised, one step per position and
#: distance from the end, so it takes seconds at most (:func:`small_tree`).
SMALL_TREE = 20_000


class Probe(NamedTuple):
    """A count at a shallower depth, to estimate a deeper one from."""

    depth: int
    leaves: int
    seconds: float
    #: The (position, depth) pairs the count expanded (0: not known).
    work: int = 0


def estimate(probes: list[Probe], depth: int) -> tuple[float, float, float]:
    """(lines, seconds, growth per ply) expected for :func:`leaves` at
    ``depth``, from the counts at the deepest two ``probes``' depths: the
    lines grow by the branching factor measured there, the time by the growth
    in time measured there, no more than the branching factor (transpositions
    make it less: the count is memoised per position). Where the probes know
    their work, its growth stands for the time's: two timings of a busy
    machine can be far apart (a short count slowed, a long one not), and a
    pace read from them, raised to many plies, once let a count of hours
    start."""
    last = probes[-1]
    if len(probes) < 2 or last.leaves == 0:
        return float(last.leaves), last.seconds, 1.0
    before = probes[-2]
    branching = last.leaves / before.leaves if before.leaves else 1.0
    if before.work > 0 and last.work > 0:
        pace = last.work / before.work
    else:
        pace = last.seconds / before.seconds if before.seconds > 0 else branching
    growth = min(max(pace, 1.0), max(branching, 1.0))
    plies = depth - last.depth
    return last.leaves * branching**plies, last.seconds * growth**plies, growth


class Forecast(NamedTuple):
    """What counting to a depth is expected to cost (:func:`forecast`)."""

    lines: float
    seconds: float
    #: How many times longer each ply takes.
    growth: float
    #: The deepest shallower count, whose pace the forecast follows.
    probe: Probe

    def reach(self, seconds: float) -> int:
        """The deepest depth expected to be counted within ``seconds``."""
        last = self.probe
        return last.depth + int(math.log(seconds / last.seconds) / math.log(self.growth))


def timed_leaves(game: Game[P, M], position: P, depth: int) -> tuple[int, float]:
    """:func:`leaves` and the seconds it took."""
    probe = _probe(game, position, depth)
    return probe.leaves, probe.seconds


def _probe(game: Game[P, M], position: P, depth: int) -> Probe:
    start = time.perf_counter()
    found, work = _leaves(game, position, depth)
    return Probe(depth, found, time.perf_counter() - start, work)


def forecast(
    game: Game[P, M], position: P, depth: int, patience: float = PROBE_SECONDS
) -> Forecast | None:
    """How long counting ``depth`` plies below ``position`` should take,
    judged by the shallower counts: they are counted first, until one takes
    ``patience`` seconds, and the deepest two give the pace (:func:`estimate`).
    None if every shallower count was quicker: too quick to time, and so the
    deeper count too is expected soon enough."""
    probes: list[Probe] = []
    for shallower in range(depth):
        probes.append(_probe(game, position, shallower))
        if probes[-1].seconds >= patience:
            return Forecast(*estimate(probes, depth), probes[-1])
    return None


def small_tree(game: Game[P, M], position: P, most: int = SMALL_TREE) -> bool:
    """Whether every game from ``position`` passes through at most ``most``
    distinct positions, counted rather than timed. The pace of shallow counts
    extrapolates a branching that dies out near the end of a small game
    (tic-tac-toe's lines grow five-fold at depth 5 and shrink at depth 9),
    and on a busy machine the pace alone would refuse a count of a fraction
    of a second."""
    try:
        whole = perft(game, position, max_positions=most)
    except (ValueError, RecursionError):
        return False
    return whole.positions <= most
