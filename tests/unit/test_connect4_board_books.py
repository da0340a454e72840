"""Opening books for every Connect Four board: built by the same command, each
usable only on its own board, attached with ``--book`` or through the library."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import CliRun
from unbeatable import api
from unbeatable.cli import main as cli_main
from unbeatable.games import get_game
from unbeatable.games.connect4 import STANDARD, Connect4Game, connect4
from unbeatable.solvers.connect4 import Connect4Engine
from unbeatable.solvers.connect4.book import (
    DEFAULT_BOOK,
    Book,
    WrongBoardError,
    default_book,
    load_book,
    shipped_path,
)
from unbeatable.solvers.connect4.book_builder import build_book, enumerate_positions

#: A small board: a 4-ply book of it builds in a fraction of a second.
SMALL = "connect4:5,4"
PLIES = 4


@pytest.fixture
def small() -> Connect4Game:
    game = get_game(SMALL)
    assert isinstance(game, Connect4Game)
    return game


@pytest.fixture(autouse=True)
def _process_engines_keep_their_books() -> Iterator[None]:
    """``--book`` run in this process attaches a book to the process-wide
    engines: give them back their own afterwards."""
    yield
    api.use_book(SMALL, None)
    api.use_book("connect4", default_book())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 5x4 book built by the command line, at its default path (in the
    current folder): built once, for every test that uses it."""
    folder = tmp_path_factory.mktemp("books")
    argv = ["book", "build", SMALL, "--plies", str(PLIES), "--workers", "1"]
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SystemExit) as done:
        patch.chdir(folder)
        cli_main(argv)
    assert done.value.code in (0, None)
    path = folder / f"connect4-5x4-{PLIES}.bin"
    assert path.is_file() and not folder.joinpath(path.name + ".partial").exists()
    return path


def test_book_build_names_a_boards_book_after_it(
    tmp_path: Path, run_cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("book", "build", "connect4:6,4", "--plies", "2", "--workers", "1")
    assert code == 0, err
    assert out.startswith("wrote connect4-6x4-2.bin: 22 positions up to 2 plies (18 searched")
    board = get_game("connect4:6,4")
    assert isinstance(board, Connect4Game)
    assert load_book(tmp_path / "connect4-6x4-2.bin").shape == board.shape
    assert "roughly under a minute on 1 worker" in err
    code, _, err = run_cli("book", "build", "connect4:6,4", "--plies", "25", "--workers", "1")
    assert code == 2 and err == "unbeatable: error: plies must be within 0..24 on 6x4, got 25\n"


def test_a_small_boards_book_from_the_command_line_holds_exact_scores(
    built: Path, small: Connect4Game
) -> None:
    book = load_book(built)
    assert book.shape == small.shape and book.plies == PLIES
    assert repr(book) == f"<Book board=5x4 plies={PLIES} positions={len(book)}>"
    levels = enumerate_positions(PLIES, "", small)
    assert len(book) == sum(len(level) for level in levels) > 200
    engine = Connect4Engine(game=small, book=None)
    for level in levels:
        for _, moves in level:
            position = small.parse(moves)
            assert book.get(position) == engine.solve_score(position)[0], moves
    # Every deepest position's stored move keeps its score, in both orientations.
    for _, moves in levels[-1]:
        for line in (moves, "".join(str(6 - int(c)) for c in moves)):
            position = small.parse(line)
            move = book.move(position)
            assert move is not None, line
            child = small.play(position, move)
            kept = small.shape.win_now(position.stones) if child.winner else None
            if kept is None:
                kept = -engine.solve_score(child)[0]
            assert kept == book.get(position), line
    # The empty 5x4 board is a draw when both fill it: score 0.
    assert book.get(small.initial()) == 0


def test_the_engine_answers_from_a_boards_book(built: Path, small: Connect4Game) -> None:
    position = small.parse("33")  # its children are in the book too
    searched = Connect4Engine(game=small, book=None).solve(position)
    engine = Connect4Engine(game=small, book=built)
    assert engine.book is not None and engine.book.shape == small.shape
    answered = engine.solve(position)
    assert searched.nodes > 0 and answered.nodes == 0
    assert answered.outcome == searched.outcome and answered.move == searched.move
    # The same book attached afterwards, as a Book object.
    later = Connect4Engine(game=small, book=None)
    assert later.use_book(load_book(built)) is later.book
    assert later.solve(position).nodes == 0


def test_solve_and_analyze_take_a_book_file(
    built: Path, small: Connect4Game, run_cli: CliRun
) -> None:
    code, out, err = run_cli("solve", SMALL, "33", "--json")
    assert code == 0, err
    without = json.loads(out)
    code, out, err = run_cli("solve", SMALL, "33", "--json", "--book", str(built))
    assert code == 0, err
    with_book = json.loads(out)
    assert with_book["nodes"] == 0 < without["nodes"]
    assert {k: v for k, v in with_book.items() if k not in ("nodes", "time_ms")} == {
        k: v for k, v in without.items() if k not in ("nodes", "time_ms")
    }
    code, out, err = run_cli("analyze", SMALL, "333", "--json", "--book", str(built))
    assert code == 0, err
    analysis = json.loads(out)
    assert analysis["nodes"] == 0 and len(analysis["moves"]) == 5


def test_a_book_attached_through_the_api_serves_the_library_but_not_no_book(
    built: Path,
) -> None:
    assert api.solve(SMALL, "33", book=False).nodes > 0  # (its bookless twin made first)
    attached = api.use_book(SMALL, built)
    assert attached is not None and attached.shape.size == "5x4"
    assert api.solve(SMALL, "33").nodes == 0
    assert api.solve(SMALL, "33", book=False).nodes > 0  # the twin took no book
    with pytest.raises(WrongBoardError):
        api.use_book("connect4", built)
    with pytest.raises(ValueError, match="tictactoe has no opening book"):
        api.use_book("tictactoe", built)


def test_a_book_serves_only_its_own_board(
    built: Path, small: Connect4Game, run_cli: CliRun
) -> None:
    with pytest.raises(WrongBoardError, match="book of the 5x4 board cannot serve the 7x6"):
        load_book(built, STANDARD)
    with pytest.raises(WrongBoardError, match="5x4 board cannot serve the 7x6"):
        Connect4Engine(book=built)
    with pytest.raises(WrongBoardError, match="7x6 board cannot serve the 5x4"):
        Connect4Engine(game=small, book=DEFAULT_BOOK)
    for command in ("solve", "analyze"):
        code, out, err = run_cli(command, "connect4", "", "--book", str(built))
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "5x4 board cannot serve the 7x6 board" in err
    code, _, err = run_cli("play", "connect4", "--book", str(built))
    assert code == 2 and "5x4 board cannot serve the 7x6 board" in err
    # A book of another board never answers, even looked up directly.
    book = load_book(built)
    assert book.get(connect4().initial()) is None


def test_bad_book_files_are_one_line_errors(tmp_path: Path, run_cli: CliRun) -> None:
    missing = tmp_path / "nowhere.bin"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a book at all, not even close")
    for path, reason in ((missing, "no such file"), (junk, "not a Connect Four book")):
        code, out, err = run_cli("solve", SMALL, "", "--book", str(path))
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert f"--book {path}" in err and reason in err
    code, _, err = run_cli("solve", "tictactoe", "", "--book", str(junk))
    assert code == 2 and "tictactoe has no opening book" in err
    code, _, err = run_cli("analyze", SMALL, "", "--book", str(junk), "--no-book")
    assert code == 2 and "--book and --no-book contradict each other" in err


def test_another_boards_checkpoint_is_refused(tmp_path: Path, small: Connect4Game) -> None:
    out = tmp_path / "b.bin"
    build_book(PLIES, out, workers=1, game=small, keep_checkpoint=True)
    checkpoint = tmp_path / "b.bin.partial"
    assert checkpoint.read_text().splitlines()[0] == "board 5x4"
    with pytest.raises(ValueError, match="for the 5x4 board, not 7x6"):
        build_book(PLIES, out, workers=1, checkpoint=checkpoint)
    with pytest.raises(ValueError, match=r"plies must be within 0\.\.20 on 5x4"):
        build_book(21, out, game=small)


def test_an_empty_checkpoint_is_no_boards(tmp_path: Path, small: Connect4Game) -> None:
    # A build stopped before its first result leaves an empty checkpoint: the
    # next build, of any board, starts afresh (it was read as 7x6's and refused).
    out = tmp_path / "b.bin"
    tmp_path.joinpath("b.bin.partial").write_text("")
    stats = build_book(PLIES, out, workers=1, game=small)
    assert stats.resumed == 0 and out.is_file()


def test_the_shipped_7x6_file_still_loads_and_new_files_record_their_board(
    tmp_path: Path, small: Connect4Game
) -> None:
    header = DEFAULT_BOOK.read_bytes()[:12]
    assert struct.unpack("<8sI", header) == (b"UBC4BOOK", 3)  # the shipped file, unchanged
    shipped = load_book(DEFAULT_BOOK, STANDARD)
    assert shipped.shape == STANDARD and shipped.plies == 8 and len(shipped) == 129_498
    assert shipped_path(STANDARD) == DEFAULT_BOOK
    assert shipped_path(small.shape).name == "book-5x4.bin"
    assert default_book(small.shape) is None  # no 5x4 book ships
    # A 7x6 book saved now says so in its header (version 4).
    Book(1, [5, 9], [1, -1], [2, -1]).save(tmp_path / "b.bin")
    again = load_book(tmp_path / "b.bin", STANDARD)
    assert (tmp_path / "b.bin").read_bytes()[8:12] == struct.pack("<I", 4)
    assert again.shape == STANDARD and list(again.items()) == [(5, 1), (9, -1)]
