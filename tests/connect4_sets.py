"""Pons' public Connect Four test positions, sampled into ``tests/data/connect4``
(see its README), so that the tests run on a fresh clone."""

from __future__ import annotations

import random
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "connect4"
NAMES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")


def cases(name: str, limit: int | None = None) -> list[tuple[str, int]]:
    """The first ``limit`` (moves, score) lines of a sampled set."""
    rows = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in rows[:limit]]


def sample(name: str, count: int, seed: int = 1) -> list[tuple[str, int]]:
    """``count`` lines of a sampled set, picked at random but repeatably."""
    return random.Random(seed).sample(cases(name), count)


def short_lines(plies: int) -> list[tuple[str, int]]:
    """Every line of every set with at most ``plies`` moves."""
    return [case for name in NAMES for case in cases(name) if len(case[0]) <= plies]
