"""Opening book: building (pool, resume, Ray), the file format, and the shipped book."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from connect4_sets import short_lines
from unbeatable.games.connect4 import STANDARD, connect4
from unbeatable.search.engine import Outcome
from unbeatable.solvers.connect4 import Connect4Engine
from unbeatable.solvers.connect4.book import DEFAULT_BOOK, Book, load_book
from unbeatable.solvers.connect4.book_builder import (
    book_from_checkpoint,
    build_book,
    enumerate_positions,
)

game = connect4()
#: A 22-stone position of Test_L2_R2: its subtree books take a second to build.
ROOT = "2252576253462244111563"


def exact_scores(book: Book, root: str) -> None:
    """Every entry equals a direct search, and nothing reachable is missing."""
    engine = Connect4Engine(book=None)
    levels = enumerate_positions(book.plies, root)
    assert len(book) == sum(len(level) for level in levels)
    for level in levels:
        for _, moves in level:
            position = game.parse(moves)
            assert book.get(position) == engine.solve_score(position)[0], moves


def test_enumeration_counts_match_known_position_counts() -> None:
    levels = enumerate_positions(4)
    # Mirror-reduced positions with 0..4 stones (no four can exist yet).
    assert [len(level) for level in levels] == [1, 4, 25, 121, 568]
    assert levels[1][0] == (levels[1][0][0], "1")


def test_tiny_book_with_two_workers(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    stats = build_book(
        len(ROOT) + 3,
        tmp_path / "book.bin",
        workers=2,
        root=ROOT,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert stats.positions > 0 and stats.searched == seen[-1][1]
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1]
    book = load_book(tmp_path / "book.bin")
    assert book.plies == len(ROOT) + 3 and len(book) == stats.positions
    exact_scores(book, ROOT)
    # Mirror images share an entry.
    mirrored = "".join(str(8 - int(c)) for c in ROOT)
    assert book.get(game.parse(mirrored)) == book.get(game.parse(ROOT))
    stored_moves_keep_the_score(book, ROOT)


def stored_moves_keep_the_score(book: Book, root: str) -> None:
    """Every deepest-level position has a stored move, in both orientations,
    and the move keeps the position's score (checked by a direct search)."""
    deepest = enumerate_positions(book.plies, root)[-1]
    assert deepest
    moves_keep_the_score(book, [moves for _, moves in deepest])


def moves_keep_the_score(book: Book, lines: list[str]) -> None:
    engine = Connect4Engine(book=None)
    for moves in lines:
        for line in (moves, "".join(str(8 - int(c)) for c in moves)):
            position = game.parse(line)
            score = book.get(position)
            move = book.move(position)
            assert score is not None and move is not None, line
            child = game.play(position, move)
            if child.winner is not None:
                assert score == STANDARD.win_now(position.stones), line
            elif child.stones < 42:
                assert -engine.solve_score(child)[0] == score, line


def test_interrupted_build_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "book.bin"
    plies = len(ROOT) + 3

    class Interrupt(Exception):
        pass

    def stop_after_first_batch(done: int, total: int) -> None:
        if done > 0:
            raise Interrupt

    with pytest.raises(Interrupt):
        build_book(plies, out, workers=2, root=ROOT, progress=stop_after_first_batch)
    assert not out.exists()
    checkpoint = tmp_path / "book.bin.partial"
    board, *results = checkpoint.read_text().splitlines()
    assert board == "board 7x6"  # whose positions its keys are
    solved = len(results)
    assert solved > 0
    # What the interrupted build reached can be shipped as a partial book.
    partial = book_from_checkpoint(plies, checkpoint, tmp_path / "partial.bin", root=ROOT)
    assert partial.resumed == solved and partial.positions >= solved
    engine = Connect4Engine(book=None)
    for key, score in load_book(tmp_path / "partial.bin").items():
        moves = next(m for level in enumerate_positions(plies, ROOT) for k, m in level if k == key)
        assert engine.solve_score(game.parse(moves))[0] == score
    stats = build_book(plies, out, workers=2, root=ROOT)
    assert stats.resumed == solved
    assert stats.searched == len(enumerate_positions(plies, ROOT)[-1]) - solved
    exact_scores(load_book(out), ROOT)
    stored_moves_keep_the_score(load_book(out), ROOT)


def test_a_checkpoint_of_scores_alone_resumes_by_searching_moves(tmp_path: Path) -> None:
    """A version 2 build's checkpoint (``key score`` lines) is finished by
    searching the deepest level's moves only."""
    plies = len(ROOT) + 3
    build_book(plies, tmp_path / "full.bin", workers=1, root=ROOT)
    board, *full = (tmp_path / "full.bin.partial").read_text().splitlines()
    assert board == "board 7x6"  # an old checkpoint has none: it is the standard board's
    scores_only = tmp_path / "old.partial"
    scores_only.write_text("".join(" ".join(line.split()[:2]) + "\n" for line in full))
    stats = build_book(plies, tmp_path / "old.bin", workers=1, root=ROOT, checkpoint=scores_only)
    assert stats.resumed == 0 and stats.searched == len(full)
    assert (tmp_path / "old.bin").read_bytes() == (tmp_path / "full.bin").read_bytes()


def test_deeper_build_reuses_a_shallower_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "scores.txt"
    first = build_book(
        len(ROOT) + 2, tmp_path / "b2.bin", workers=2, root=ROOT, checkpoint=checkpoint
    )
    second = build_book(
        len(ROOT) + 3, tmp_path / "b3.bin", workers=2, root=ROOT, checkpoint=checkpoint
    )
    assert first.searched > 0 and second.resumed == 0
    assert second.positions > first.positions
    exact_scores(load_book(tmp_path / "b3.bin"), ROOT)
    # A rebuild of the finished book searches nothing.
    again = build_book(
        len(ROOT) + 3, tmp_path / "b3.bin", workers=1, root=ROOT, checkpoint=checkpoint
    )
    assert again.searched == 0


@pytest.mark.slow
def test_ray_build_on_a_local_instance(tmp_path: Path) -> None:
    import ray

    try:
        stats = build_book(len(ROOT) + 2, tmp_path / "ray.bin", root=ROOT, ray_address="local")
    finally:
        ray.shutdown()
    assert stats.searched > 0
    exact_scores(load_book(tmp_path / "ray.bin"), ROOT)


def test_file_format_round_trip_and_errors(tmp_path: Path) -> None:
    book = Book(3, np.array([5, 1, 9], dtype=np.uint64), np.array([-2, 0, 7], dtype=np.int8))
    book.save(tmp_path / "b.bin")
    again = load_book(tmp_path / "b.bin")
    assert list(again.items()) == [(1, 0), (5, -2), (9, 7)]
    assert again.get_key(9) == 7 and again.get_key(4) is None
    (tmp_path / "bad.bin").write_bytes(b"definitely not a Connect Four book")
    with pytest.raises(ValueError, match="not a Connect Four book"):
        load_book(tmp_path / "bad.bin")
    corrupt = (tmp_path / "b.bin").read_bytes()[:-3]
    (tmp_path / "corrupt.bin").write_bytes(corrupt)
    with pytest.raises(ValueError, match="corrupt"):
        load_book(tmp_path / "corrupt.bin")
    (tmp_path / "short.bin").write_bytes(b"x")
    with pytest.raises(ValueError, match="too short"):
        load_book(tmp_path / "short.bin")
    with pytest.raises(ValueError):
        build_book(43, tmp_path / "x.bin")


def test_engine_answers_from_a_given_book(tmp_path: Path) -> None:
    build_book(len(ROOT) + 2, tmp_path / "b.bin", workers=1, root=ROOT)
    engine = Connect4Engine(book=tmp_path / "b.bin")
    position = game.parse(ROOT)
    solved = engine.solve(position)
    assert solved.nodes == 0  # root and children all in the book
    expected = Connect4Engine(book=None).solve_score(position)[0]
    assert solved.outcome == Outcome(*STANDARD.pons_outcome(position.stones, expected))


def test_parent_bound_is_exact_after_a_perfect_move_and_a_bound_after_any(
    tmp_path: Path,
) -> None:
    plies = len(ROOT) + 2
    build_book(plies, tmp_path / "b.bin", workers=1, root=ROOT)
    book = load_book(tmp_path / "b.bin")
    engine = Connect4Engine(book=None)
    checked = exact = 0
    for _, moves in enumerate_positions(plies, ROOT)[-1]:
        parent = game.parse(moves)
        parent_score = book.get(parent)
        assert parent_score is not None
        for col in game.moves(parent):
            child = game.play(parent, col)
            if child.winner is not None:
                continue
            bound = book.parent_bound(child)
            true = engine.solve_score(child)[0]
            assert bound is not None and bound <= true, child.moves
            checked += 1
            if -true == parent_score:  # a perfect move: the bound is the score
                assert bound == true
                exact += 1
    assert checked > 0 and exact > 0
    assert book.parent_bound(game.parse(ROOT)) is None  # inside the book, not past it


def test_shipped_book_opening_values() -> None:
    book = load_book(DEFAULT_BOOK)
    assert book.plies == 8 and len(book) == 129_498
    # The first player wins with the last stone (score 1) by starting in the centre.
    assert book.get(game.initial()) == 1
    first_moves = [book.get(game.parse(str(c))) for c in range(1, 8)]
    assert first_moves == [2, 1, 0, -1, 0, 1, 2]
    solved = Connect4Engine().solve(game.initial())
    assert solved.outcome == Outcome("win", 41) and solved.move == 3
    assert solved.nodes == 0  # the value and the move are lookups


def test_shipped_book_agrees_with_every_short_public_line() -> None:
    book = load_book(DEFAULT_BOOK)
    lines = short_lines(book.plies)
    assert len(lines) == 1_120  # every public line with at most 8 stones
    for moves, score in lines:
        assert book.get(game.parse(moves)) == score, moves


@pytest.mark.slow
def test_shipped_book_is_consistent_by_negamax() -> None:
    """Every interior entry is the best of its children's, negated (or the
    immediate-win score): the whole book follows from its deepest level."""
    book = load_book(DEFAULT_BOOK)
    levels = enumerate_positions(book.plies)
    assert len(book) == sum(len(level) for level in levels)  # and nothing is missing
    for level in levels[:-1]:
        for _, moves in level:
            position = game.parse(moves)
            values = []
            for col in game.moves(position):
                child = game.play(position, col)
                if child.winner is not None:
                    values.append(STANDARD.win_now(position.stones))
                else:
                    child_score = book.get(child)
                    assert child_score is not None, child.moves
                    values.append(-child_score)
            assert book.get(position) == max(values), moves


@pytest.mark.slow
def test_shipped_books_stored_moves_keep_their_scores() -> None:
    """A sample of the deepest level's stored moves, checked by direct search
    (every 8-stone child is a 9-stone search: the whole level would take hours)."""
    book = load_book(DEFAULT_BOOK)
    deepest = [moves for _, moves in enumerate_positions(book.plies)[-1]]
    stored = [moves for moves in deepest if book.move(game.parse(moves)) is not None]
    assert len(stored) == len(deepest)
    moves_keep_the_score(book, random.Random(8).sample(stored, 6))


def test_a_book_of_an_unknown_version_says_which(tmp_path: Path) -> None:
    """A book written by a later version names its version, not ours."""
    later = tmp_path / "later.bin"
    later.write_bytes(b"UBC4BOOK" + (99).to_bytes(4, "little") + bytes(12))
    with pytest.raises(ValueError, match="book of version 99, which this version"):
        load_book(later)


def test_a_value_in_the_book_loads_no_kernel() -> None:
    """The book's answer is a lookup: neither the library nor the command
    line makes the engine ready for it (numba and the kernels take about a
    second to load, a hundred times the answer), and a value past the book
    still does."""
    import subprocess
    import sys

    probe = (
        "import sys, json\n"
        "from unbeatable import api\n"
        "s = api.solve('connect4', sys.argv[1])\n"
        "print(json.dumps([s.result, s.plies, s.nodes, 'numba' in sys.modules]))\n"
    )

    def solved(moves: str) -> list[object]:
        out = subprocess.run(
            [sys.executable, "-c", probe, moves], capture_output=True, text=True, check=True
        )
        import json

        loaded: list[object] = json.loads(out.stdout)
        return loaded

    assert solved("4453") == ["loss", 36, 0, False]
    result, _plies, nodes, numba = solved("444444333")  # past the book's 8 plies
    assert result == "loss" and isinstance(nodes, int) and nodes > 0 and numba is True
    cli = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "unbeatable", "solve", "connect4", "4453"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "loss in 36" in cli.stdout and " numba\n" not in cli.stderr
    # Scripts' one-shot JSON: answered on the fast path (no Typer) too.
    fast = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "unbeatable",
            "solve",
            "connect4",
            "4453",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert '"plies": 36' in fast.stdout
    assert " numba\n" not in fast.stderr and " typer\n" not in fast.stderr
