"""Difficulty levels: how a human-like opponent picks among analysed moves.

``impossible`` always plays the analysis' best move. The weaker levels model a
player who sees only a short way ahead: they spot wins within their horizon and
avoid losses within it, and otherwise play a random move, with a chance of
playing the best move anyway. Randomness comes from the caller's ``random.Random``
so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from unbeatable.search.analysis import Analysis, MoveValue


class Level(StrEnum):
    """Difficulty of the AI."""

    easy = "easy"
    medium = "medium"
    impossible = "impossible"


@dataclass(frozen=True, slots=True)
class Skill:
    #: Plies ahead the player sees results (1: own immediate wins; 2: also the
    #: opponent's immediate replies).
    horizon: int
    #: Chance of playing the truly best move anyway.
    accuracy: float


SKILLS: dict[Level, Skill] = {
    Level.easy: Skill(horizon=1, accuracy=0.25),
    Level.medium: Skill(horizon=2, accuracy=0.6),
}


def choose(analysis: Analysis, level: Level | str, rng: random.Random) -> MoveValue | None:
    """The move an AI of ``level`` plays in the analysed position (None if it is over)."""
    level = Level(level)
    best = analysis.best
    if best is None or level is Level.impossible:
        return best
    skill = SKILLS[level]
    if rng.random() < skill.accuracy:
        return best

    def seen(m: MoveValue) -> bool:
        return m.plies is not None and m.plies <= skill.horizon

    wins = [m for m in analysis.moves if m.result == "win" and seen(m)]
    if wins:
        return wins[0]
    safe = [m for m in analysis.moves if not (m.result == "loss" and seen(m))]
    # Nothing decisive in sight: any move that does not visibly lose will do.
    return rng.choice(safe or list(analysis.moves))
