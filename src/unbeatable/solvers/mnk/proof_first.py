"""ProofFirstEngine: the exact solver's proof where it comes, the k-in-a-row
engine's judgement within a budget where it does not.

Boards of 32-36 cells fit the exact solver's kernel (:mod:`.exact_kernel`),
and most of their positions are proved in milliseconds (6x6 four in a row:
a first-player win in 11 plies, in about 12,000 nodes), but some take
minutes or far more (4x9 and 2x18 four in a row, draws that must be proved
move by move). So neither engine alone serves them:

* A query with **no deadline** is the exact solver's alone: it searches
  until the proof, reporting its progress, and only the stop switch (or
  Ctrl-C) ends it. An answer without a time limit is a proof.
* A **timed** query gives the proof the first :data:`PROOF_SHARE` of the
  time. A proof found in time is the answer; else the k-in-a-row engine
  (:class:`~unbeatable.solvers.mnk.engine.GomokuEngine`) plays in the time
  left, as on every board past exact reach. Whatever the proof's share
  learnt stays in the exact solver's table for the next query.

The solver registry (:mod:`unbeatable.solvers`) decides which boards this
engine serves, together with their budget.
"""

from __future__ import annotations

from unbeatable.games.mnk import MNKGame, MNKPosition
from unbeatable.search.engine import UNLIMITED, Limits, Solved
from unbeatable.solvers.mnk.engine import GomokuEngine
from unbeatable.solvers.mnk.exact import ExactEngine

#: The share of a timed query's time the exact proof gets first (1/2: the
#: proof, when it comes on these boards, mostly comes in milliseconds).
PROOF_SHARE = 2


class ProofFirstEngine:
    """The exact solver first, the k-in-a-row engine once a budget runs
    short of the proof (the Engine protocol). Raises ValueError for a board
    the exact solver cannot hold or a k the k-in-a-row engine does not play."""

    def __init__(self, game: MNKGame) -> None:
        self.game = game
        self.exact = ExactEngine(game)
        #: The k-in-a-row engine (its kernels compile at its first search).
        self.judge = GomokuEngine(game)

    def __repr__(self) -> str:
        return f"ProofFirstEngine({self.game!r})"

    def warm_up(self) -> None:
        """Load both engines' kernels now, not in the first timed query."""
        self.exact.warm_up()
        self.judge.warm_up()

    def reset(self) -> None:
        """Forget what both engines' tables learnt."""
        self.exact.reset()
        self.judge.reset()

    def configure(self, *, memory: int | None = None, threads: int | None = None) -> None:
        """A tournament's limits (the Gomocup brain's ``INFO max_memory`` and
        ``thread_num``): the k-in-a-row engine takes what the exact solver's
        table (fixed by the board, a few MB) leaves."""
        if memory is not None:
            memory = max(0, memory - self.exact.table.entries.nbytes)
        self.judge.configure(memory=memory, threads=threads)

    def memory_use(self) -> int:
        """Bytes both engines hold at most while searching."""
        return int(self.exact.table.entries.nbytes) + self.judge.memory_use()

    @property
    def threads(self) -> int:
        """Threads of a timed search by the k-in-a-row engine."""
        return int(self.judge.threads)

    def solve(
        self, position: MNKPosition, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """The exact outcome and a move keeping it; with a deadline, the
        k-in-a-row engine's answer once the proof's share of it has run out."""
        if limits.deadline is None:
            return self.exact.solve(position, limits, weak)
        proof = self.exact.solve(position, limits.share(PROOF_SHARE), weak)
        if proof.outcome.exact or limits.expired():
            return proof
        judged = self.judge.solve(position, limits, weak)
        return judged._replace(nodes=proof.nodes + judged.nodes)

    def value(
        self, position: MNKPosition, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """The outcome for the side to move (its move comes free: see :meth:`solve`)."""
        return self.solve(position, limits, weak)

    def guess(self, position: MNKPosition) -> Solved:
        """The exact solver's fixed-size search when it proves the value, else
        the k-in-a-row engine's: both the same every time, so this is too."""
        proved = self.exact.guess(position)
        if proved.outcome.exact:
            return proved
        judged = self.judge.guess(position)
        return judged._replace(nodes=proved.nodes + judged.nodes)
