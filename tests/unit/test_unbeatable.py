"""Proof that the tic-tac-toe AI is unbeatable, against an independent oracle.

The oracle below shares no code with the package: its own board strings, its
own lines, its own memoised recursion. It gives each position's exact value as
(result, plies to the end) for the side to move.
"""

from __future__ import annotations

import ast
import random
from functools import cache
from pathlib import Path

import pytest

import unbeatable
from unbeatable import api
from unbeatable.games import get_game

ttt = get_game("tictactoe")

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
RANK = {"loss": 0, "draw": 1, "win": 2}


def has_line(board: str, mark: str) -> bool:
    return any(all(board[i] == mark for i in line) for line in LINES)


@cache
def oracle(board: str, mover: str) -> tuple[str, int]:
    """Exact value for ``mover``: fastest win, else draw, else slowest loss."""
    opponent = "o" if mover == "x" else "x"
    if has_line(board, opponent):
        return ("loss", 0)
    empties = [i for i, c in enumerate(board) if c == "."]
    if not empties:
        return ("draw", 0)
    options = []
    for i in empties:
        result, plies = oracle(board[:i] + mover + board[i + 1 :], opponent)
        mine = {"win": "loss", "loss": "win", "draw": "draw"}[result]
        options.append((mine, plies + 1))
    return max(options, key=oracle_key)


def oracle_key(value: tuple[str, int]) -> tuple[int, int]:
    result, plies = value
    return (RANK[result], -plies if result == "win" else plies if result == "loss" else 0)


def reachable() -> list[str]:
    seen: set[str] = set()
    stack = ["........."]
    while stack:
        board = stack.pop()
        if board in seen:
            continue
        seen.add(board)
        if has_line(board, "x") or has_line(board, "o"):
            continue
        mover = "x" if board.count("x") == board.count("o") else "o"
        stack.extend(board[:i] + mover + board[i + 1 :] for i, c in enumerate(board) if c == ".")
    return sorted(seen)


BOARDS = reachable()


def notation(board: str) -> str:
    return "/".join(board[i : i + 3] for i in range(0, 9, 3))


def mover_of(board: str) -> str:
    return "x" if board.count("x") == board.count("o") else "o"


def test_oracle_sees_the_whole_game() -> None:
    assert len(BOARDS) == 5478
    assert oracle(".........", "x") == ("draw", 9)


def test_analysis_matches_the_oracle_move_by_move() -> None:
    for board in BOARDS:
        mover = mover_of(board)
        analysis = unbeatable.analyze("tictactoe", notation(board))
        assert (analysis.result, analysis.plies) == oracle(board, mover), board
        for move in analysis.moves:
            i = move.fields["row"] * 3 + move.fields["col"]
            assert board[i] == "."
            child = oracle(board[:i] + mover + board[i + 1 :], "o" if mover == "x" else "x")
            expected = ({"win": "loss", "loss": "win", "draw": "draw"}[child[0]], child[1] + 1)
            assert (move.result, move.plies) == expected, (board, move.move)
            sign = {"win": 1, "draw": 0, "loss": -1}[move.result]
            assert move.score == sign * (10 - move.plies)
            assert list(move.line) == oracle_line(board, i), (board, move.move)
        best = analysis.best
        assert analysis.to_dict()["line"] == ([] if best is None else list(best.line))


def name(cell: int) -> str:
    """The oracle's own cell naming: column letter, row number from the bottom."""
    return "abc"[cell % 3] + str(3 - cell // 3)


#: Tic-tac-toe's preferred cells: the centre, the corners, the edges.
PREFERENCE = (4, 0, 2, 6, 8, 1, 3, 5, 7)


def threats_left(board: str, cell: int, mover: str) -> int:
    """Cells where the opponent would complete a line after ``mover`` takes ``cell``."""
    board = board[:cell] + mover + board[cell + 1 :]
    opponent = "o" if mover == "x" else "x"
    return sum(
        has_line(board[:i] + opponent + board[i + 1 :], opponent)
        for i, c in enumerate(board)
        if c == "."
    )


def oracle_line(board: str, first: int) -> list[str]:
    """Best play after ``first``, by the oracle: at each step the first cell in
    board order with the best value (when it is a loss, the cell leaving the
    opponent the fewest winning cells, then the preferred one), to the end."""
    mover = mover_of(board)
    line = [name(first)]
    board = board[:first] + mover + board[first + 1 :]
    while not (has_line(board, "x") or has_line(board, "o")) and "." in board:
        mover = mover_of(board)
        opponent = "o" if mover == "x" else "x"
        best = oracle(board, mover)
        keeping = []
        for i, c in enumerate(board):
            if c == ".":
                result, plies = oracle(board[:i] + mover + board[i + 1 :], opponent)
                if ({"win": "loss", "loss": "win", "draw": "draw"}[result], plies + 1) == best:
                    keeping.append(i)
        i = keeping[0]
        if best[0] == "loss":
            i = min(keeping, key=lambda j: (threats_left(board, j, mover), PREFERENCE.index(j)))
        line.append(name(i))
        board = board[:i] + mover + board[i + 1 :]
    return line


@pytest.mark.parametrize("ai", ["x", "o"])
def test_ai_move_never_lowers_the_value_and_wins_fastest_loses_slowest(ai: str) -> None:
    checked = 0
    for board in BOARDS:
        if mover_of(board) != ai or has_line(board, "x") or has_line(board, "o"):
            continue
        if "." not in board:
            continue
        best = unbeatable.best_move("tictactoe", notation(board))
        assert best is not None
        i = best.fields["row"] * 3 + best.fields["col"]
        child = oracle(board[:i] + ai + board[i + 1 :], "o" if ai == "x" else "x")
        achieved = ({"win": "loss", "loss": "win", "draw": "draw"}[child[0]], child[1] + 1)
        # The move keeps the exact game-theoretic value, including its length.
        assert achieved == oracle(board, ai), (board, best.move)
        checked += 1
    assert checked > 2000


@pytest.mark.parametrize("ai", ["x", "o"])
def test_no_sequence_of_opponent_moves_beats_the_ai(ai: str) -> None:
    """Play the AI against every possible opponent: it never loses."""
    outcomes = {"win": 0, "draw": 0, "loss": 0}
    stack = [ttt.initial()]
    while stack:
        position = stack.pop()
        if ttt.is_terminal(position):
            winner = ttt.winner(position)
            outcomes["draw" if winner is None else "win" if winner == ai else "loss"] += 1
            continue
        if ttt.to_move(position) == ai:
            move = unbeatable.choose_move(ttt, position, "impossible")
            assert move is not None
            stack.append(ttt.play(position, move.raw))
        else:
            stack.extend(ttt.play(position, m) for m in ttt.moves(position))
    assert outcomes["loss"] == 0
    assert outcomes["win"] > 0 and outcomes["draw"] > 0


def test_classic_examples() -> None:
    analysis = unbeatable.analyze("tictactoe", "xox/oox/...")
    assert analysis.best is not None and analysis.best.move == "c1"
    values = {m.move: (m.result, m.plies, m.score) for m in analysis.moves}
    assert values == {"a1": ("loss", 2, -8), "b1": ("draw", 3, 0), "c1": ("win", 1, 9)}
    other = unbeatable.analyze("tictactoe", "x.o/x.x/oo.")
    assert other.best is not None and other.best.move == "b2"
    assert (other.result, other.plies, other.score) == ("win", 1, 9)


def test_ties_are_broken_in_board_order() -> None:
    # From the empty board every move draws: the first in board order is chosen.
    best = unbeatable.best_move("tictactoe", ".../.../...")
    assert best is not None and best.move == "a3"


def test_finished_positions_have_no_moves() -> None:
    won = unbeatable.analyze("tictactoe", "xxx/oo./...").to_dict()
    assert won["moves"] == [] and won["best"] is None
    assert (won["result"], won["plies"], won["score"]) == ("loss", 0, -10)
    drawn = unbeatable.analyze("tictactoe", "xox/xoo/oxx").to_dict()
    assert (drawn["result"], drawn["plies"], drawn["score"], drawn["best"]) == ("draw", 0, 0, None)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_weaker_levels_make_seeded_mistakes_but_take_visible_wins(level: str) -> None:
    position = "xox/oox/..."  # c1 wins at once
    picks = {
        unbeatable.choose_move("tictactoe", position, level, random.Random(s)).move
        for s in range(200)
    }  # type: ignore[union-attr]
    assert "c1" in picks
    again = [
        unbeatable.choose_move("tictactoe", ".../.x./...", level, random.Random(7))
        for _ in range(3)
    ]
    assert len({m.move for m in again if m}) == 1  # same seed, same move
    # Over many seeded games from the start, the weaker AI does lose sometimes.
    moves = {
        unbeatable.choose_move("tictactoe", "x../.../...", level, random.Random(s)).move
        for s in range(100)
    }  # type: ignore[union-attr]
    assert len(moves) > 1


def test_every_level_blocks_an_immediate_threat_and_medium_errs_less_than_easy() -> None:
    def picks(position: str, level: str, move: str) -> int:
        return sum(
            unbeatable.choose_move("tictactoe", position, level, random.Random(s)).move == move  # type: ignore[union-attr]
            for s in range(300)
        )

    # o to move must block at c3: nobody misses that.
    assert picks("xx./o../...", "medium", "c3") == picks("xx./o../...", "easy", "c3") == 300
    # x took a corner: only the centre draws, and easy finds it less often.
    assert picks("x../.../... o", "easy", "b2") < picks("x../.../... o", "medium", "b2") < 300


def test_time_limits_keep_a_reserve_for_the_answer() -> None:
    """The search stops a little before the limit so that the answer comes
    within it: 30 ms, at most a tenth of the limit; no limit stays none."""
    from unbeatable import api

    assert 2.0 - api.ANSWER_RESERVE - 0.01 < api.limits(2.0).remaining() <= 2.0 - api.ANSWER_RESERVE
    assert 0.08 < api.limits(0.1).remaining() <= 0.09
    assert api.limits(float("inf")).deadline is None and api.limits(None).deadline is None


# -- the AI's turn, as the faces take it ------------------------------------------------


def test_the_ai_turn_is_the_move_and_the_position_after_it() -> None:
    turn = unbeatable.ai_turn("tictactoe", "xox/oox/...")
    assert turn is not None
    assert (turn.move.move, turn.move.result, turn.move.plies) == ("c1", "win", 1)
    assert turn.after == api.play_move("tictactoe", "xox/oox/...", "c1")
    assert turn.position == "xox/oox/..x o" and turn.proven is True and turn.analysis is None
    assert turn.view == api.view("tictactoe", "xox/oox/..x o")
    assert turn.status == api.Status(
        over=True, winner="x", line=((0, 2), (1, 2), (2, 2)), reason="three in a row"
    )


def test_an_explained_turn_is_chosen_from_its_analysis() -> None:
    turn = unbeatable.ai_turn("tictactoe", "x../.o./...", explain=True, seed=1)
    assert turn is not None and turn.analysis is not None
    assert turn.analysis.moves == unbeatable.analyze("tictactoe", "x../.o./...").moves
    best = turn.analysis.best
    assert best is not None and turn.move in turn.analysis.moves
    assert (turn.move.result, turn.move.plies) == (best.result, best.plies)
    assert turn.to_dict()["move"] == turn.move.ref()
    # Several moves draw here: the seed decides which, the same every time.
    played = {
        unbeatable.ai_turn("tictactoe", "x../.o./...", explain=True, seed=s).move.move  # type: ignore[union-attr]
        for s in range(20)
    }
    assert len(played) > 1
    again = unbeatable.ai_turn("tictactoe", "x../.o./...", explain=True, seed=1)
    assert again is not None and again.move == turn.move


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_weaker_turn_is_the_seeded_choice_and_claims_no_proof(level: str) -> None:
    for seed in range(5):
        turn = unbeatable.ai_turn("tictactoe", "", level, rng=random.Random(seed))
        chosen = unbeatable.choose_move("tictactoe", "", level, random.Random(seed))
        assert turn is not None and chosen is not None
        assert turn.move == chosen and turn.proven is None


@pytest.mark.parametrize(
    ("position", "ended"), [("xxx/oo./...", "x has won"), ("xox/xoo/oxx", "draw")]
)
def test_there_is_no_turn_in_a_finished_game(position: str, ended: str) -> None:
    with pytest.raises(api.GameOverError, match=f"^the game is over: .*{ended}"):
        unbeatable.ai_turn("tictactoe", position)
    assert issubclass(api.GameOverError, api.GameError)


def test_with_the_stop_switch_set_a_turn_comes_only_from_what_is_known() -> None:
    game = "mnk:3,5,3"  # a board no other test plays: nothing about it is remembered yet
    for explain in (False, True):
        assert unbeatable.ai_turn(game, "", stop=api.STOPPED, explain=explain) is None
    searched = unbeatable.ai_turn(game, "", seed=2)
    assert searched is not None and searched.proven
    # Now it is remembered (the seed draws the same of the moves as good).
    assert unbeatable.ai_turn(game, "", stop=api.STOPPED, seed=2) == searched
    # A win in one needs no search at all.
    won = unbeatable.ai_turn(game, "xx.../oo.../.....", stop=api.STOPPED)
    assert won is not None and won.move.move == "c3" and won.status.winner == "x"


def _imports(path: Path) -> list[str]:
    """Every absolute module ``path`` imports, lazy imports inside functions too."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


PACKAGE = Path(unbeatable.__file__).parent


def test_the_layers_import_downwards_only() -> None:
    """games imports no other layer; search only games; solvers only search
    and games; nothing below the faces imports api or a face. Any layer may
    state its answers' JSON (unbeatable.answers imports nothing of the package)."""
    below = {
        "games": {"games", "answers"},
        "search": {"games", "search", "answers"},
        "solvers": {"games", "search", "solvers", "answers"},
    }
    for layer, allowed in below.items():
        for path in PACKAGE.joinpath(layer).rglob("*.py"):
            for name in _imports(path):
                parts = name.split(".")
                if parts[0] == "unbeatable" and len(parts) > 1:
                    assert parts[1] in allowed, f"{path.name} ({layer}) imports {name}"


def test_the_faces_import_only_the_api() -> None:
    """The CLI (the Gomocup brain too) and the web server reach the library
    through unbeatable.api and the types it answers."""
    allowed = (
        "unbeatable",
        "unbeatable.answers",  # how the answers' JSON is stated (the web's models read it)
        "unbeatable.api",
        "unbeatable.brain",
        "unbeatable.cli",
        "unbeatable.web",
    )
    faces = [
        *PACKAGE.joinpath("web").glob("*.py"),
        *PACKAGE.joinpath("cli").glob("*.py"),
        PACKAGE / "brain.py",
    ]
    for path in faces:
        for name in _imports(path):
            if name.startswith("unbeatable"):
                top = ".".join(name.split(".")[:2])
                assert top in allowed, f"{path.name} imports {name}"


def test_clearing_the_caches_forgets_what_was_learnt() -> None:
    """After clear_caches() nothing is known without a search: a cold start.
    (It starts cold too: a move taken from an analysis remembered by an
    earlier test carries that analysis's line, a searched one does not.)"""
    game = "mnk:3,4,3"
    api.clear_caches()
    searched = unbeatable.ai_turn(game, "", seed=0)
    assert searched is not None and searched.proven
    assert unbeatable.ai_turn(game, "", stop=api.STOPPED, seed=0) == searched
    api.clear_caches()
    assert unbeatable.ai_turn(game, "", stop=api.STOPPED, seed=0) is None
    assert unbeatable.ai_turn(game, "", seed=0) == searched  # the same answer, searched again
