"""Connect4Engine: the exact solver behind the Engine protocol."""

from __future__ import annotations

import numpy as np

from unbeatable.games.connect4 import Connect4Position
from unbeatable.solvers.connect4 import kernel
from unbeatable.solvers.connect4.table import TranspositionTable, shared_table


class Connect4Engine:
    """Exact Connect Four solver (bitboard negamax compiled with numba)."""

    def __init__(self, table: TranspositionTable | None = None) -> None:
        self.table = shared_table() if table is None else table
        self.stats = np.zeros(4, dtype=np.int64)
        self.bits, self.ints = kernel.new_stacks()

    def reset(self) -> None:
        """Forget everything learnt (benchmarks time each position from scratch)."""
        self.table.clear()

    def solve_score(
        self, position: Connect4Position, weak: bool = False, deadline: float | None = None
    ) -> tuple[int, int]:
        """Pons score of ``position`` for the side to move and the nodes searched."""
        stats = self.stats
        stats[0] = 0
        stats[1] = 1 << 62
        stats[2] = 0
        stats[3] = self.table.generation
        cur, mask = np.uint64(position.current()), np.uint64(position.mask)
        table = self.table.entries
        score = kernel.solve(cur, mask, position.stones, weak, table, self.bits, self.ints, stats)
        return int(score), int(stats[0])
