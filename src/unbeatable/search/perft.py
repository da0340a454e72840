"""Perft: count games and positions, to prove move generation correct.

Chess engines check their move generator by counting the leaves of the game
tree to a depth and comparing with published numbers (:func:`leaves`: Connect
Four has 7, 49, 343, 2,401, 16,807, 117,649 and 823,536 for depths 1-7).
Small games can even be counted to the end (:func:`perft`): tic-tac-toe has
255,168 games, 5,478 distinct reachable positions and 958 terminal ones.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypeVar

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

    return count(position, depth)


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
