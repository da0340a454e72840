"""Unbeatable's rules and values checked against OpenSpiel's (issue 21, point 3).

OpenSpiel (``pip install open-spiel``, the ``openspiel`` extra that ``.ci/run``
installs) implements tic-tac-toe, Connect Four and the m,n,k-games on its own.
Two checks:

* **Rules.** Seeded random games are played in both implementations at once:
  10,000 of tic-tac-toe, 10,000 of Connect Four and 10,000 of m,n,k-games
  (shared among several boards, square and not, Gomoku's among them). At every
  step the legal moves, whether the game is over, the player to move and the
  returns so far must be identical; at the end, the board both print.
* **Values.** OpenSpiel's own solver, ``alpha_beta_search`` of
  ``open_spiel.python.algorithms.minimax``, must agree with Unbeatable's exact
  value (``unbeatable.solve``) on every position both can solve: every
  tic-tac-toe position, small m,n,k boards from their start, positions near the
  end of Connect Four and of the 5x5 four-in-a-row game. OpenSpiel scores a
  game +1, 0 or -1, so it gives the result (win, draw, loss); the distance
  Unbeatable gives with it ("win in 5 plies") is checked with the same search
  cut at a depth, its unfinished leaves scored as lost for the player asked
  about: a win in exactly N plies is forced within N plies and not within
  N - 2 (the winner moves every other ply); a loss in N, likewise, for the
  opponent.

Moves map one to one: an m,n,k move is the cell's index row-major from the
top-left, as OpenSpiel's action in ``tic_tac_toe`` and in ``mnk``, whose ``m``
is the number of *columns* and ``n`` the number of *rows* (the reverse of the
``mnk:ROWS,COLS,K`` notation); a Connect Four move is its column from the
left, as OpenSpiel's. The boards both print after each game confirm the
orientation (both write the rows from the top, x first).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pyspiel
import pytest
from open_spiel.python.algorithms import minimax

import unbeatable
from unbeatable.games import Game, get_game
from unbeatable.games.connect4 import Connect4Game
from unbeatable.games.mnk import MNKGame

#: OpenSpiel's "player" of a finished game.
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: Random games per game: (Unbeatable name, games, seed). The m,n,k boards share
#: 10,000 games among them: square and not (3 rows by 4 columns, 6 by 7) so
#: that a swapped m and n would show, and Gomoku's 15x15 board.
RULE_GAMES: list[tuple[str, int, int]] = [
    ("tictactoe", 10_000, 1),
    ("connect4", 10_000, 2),
    ("mnk:3,4,3", 2_000, 3),
    ("mnk:4,4,3", 2_000, 4),
    ("mnk:5,5,4", 2_000, 5),
    ("mnk:6,7,4", 2_000, 6),
    ("mnk:15,15,5", 2_000, 7),
]
#: Beyond the issue's count: tic-tac-toe as OpenSpiel's 3,3,3 m,n,k-game, and
#: Connect Four on other boards (OpenSpiel's ``columns`` and ``rows``).
MORE_RULE_GAMES: list[tuple[str, str, int, int]] = [
    ("tictactoe", "mnk(m=3,n=3,k=3)", 1_000, 11),
    ("connect4:4,4", "connect_four(columns=4,rows=4)", 1_000, 12),
    ("connect4:6,5", "connect_four(columns=6,rows=5)", 1_000, 13),
    ("connect4:8,7", "connect_four(columns=8,rows=7)", 1_000, 14),
    ("connect4:12,4", "connect_four(columns=12,rows=4)", 1_000, 15),
]


def openspiel_name(game: Game[Any, Any]) -> str:
    """OpenSpiel's name of the same game with the same parameters."""
    if isinstance(game, MNKGame):
        if game.name == "tictactoe":
            return "tic_tac_toe"
        # OpenSpiel's m counts the columns and n the rows.
        return f"mnk(m={game.columns},n={game.rows},k={game.k})"
    if isinstance(game, Connect4Game):
        if game.name == "connect4":
            return "connect_four"
        return f"connect_four(columns={game.shape.columns},rows={game.shape.rows})"
    raise AssertionError(f"OpenSpiel has no {game.name}")


def expected_returns(game: Game[Any, Any], position: Any) -> list[float]:
    """OpenSpiel's returns (first player's, second player's) of Unbeatable's
    position: +1 to the winner, -1 to the loser, 0 to both otherwise."""
    winner = game.winner(position)
    if winner is None:
        return [0.0, 0.0]
    return [1.0, -1.0] if winner == game.players[0] else [-1.0, 1.0]


def play_random_games(
    game: Game[Any, Any], spiel: Any, count: int, seed: int
) -> tuple[Counter[str], int]:
    """Plays ``count`` seeded random games in both implementations, checking
    every step; returns how the games ended and the plies played."""
    rng = random.Random(seed)
    first, second = game.players
    seat = {first: 0, second: 1}
    outcomes: Counter[str] = Counter()
    plies = 0
    for number in range(count):
        position, state = game.initial(), spiel.new_initial_state()
        history: list[int] = []
        while True:
            # A move is OpenSpiel's action, and both list them in increasing order.
            ours = game.moves(position)
            if ours != state.legal_actions():
                raise AssertionError(f"game {number}, moves {history}: legal moves differ")
            over = game.is_terminal(position)
            if over != state.is_terminal():
                raise AssertionError(f"game {number}, moves {history}: over {over} for us")
            if over:
                break
            if seat[game.to_move(position)] != state.current_player():
                raise AssertionError(f"game {number}, moves {history}: the mover differs")
            move = rng.choice(ours)
            history.append(move)
            position = game.play(position, move)
            state.apply_action(move)
        where = f"game {number}, moves {history}"
        assert state.current_player() == TERMINAL, where
        assert state.returns() == expected_returns(game, position), where
        assert str(state).rstrip("\n").replace("\n", "/") == game.grid(position), where
        outcomes[game.winner(position) or "draw"] += 1
        plies += len(history)
    return outcomes, plies


@pytest.mark.parametrize(("name", "count", "seed"), RULE_GAMES)
def test_random_games_follow_the_same_rules(name: str, count: int, seed: int) -> None:
    game = get_game(name)
    outcomes, plies = play_random_games(game, pyspiel.load_game(openspiel_name(game)), count, seed)
    assert sum(outcomes.values()) == count
    # Random games end every way a game can (no random game of Gomoku fills its board).
    ways = ("x", "o") if name == "mnk:15,15,5" else ("x", "o", "draw")
    assert all(outcomes[way] for way in ways), outcomes
    assert plies > count * 5


def test_the_issue_counts_ten_thousand_games_of_each() -> None:
    per_game: Counter[str] = Counter()
    for name, count, _ in RULE_GAMES:
        per_game[name.partition(":")[0]] += count
    assert per_game == {"tictactoe": 10_000, "connect4": 10_000, "mnk": 10_000}


@pytest.mark.parametrize(("name", "spiel_name", "count", "seed"), MORE_RULE_GAMES)
def test_more_boards_follow_the_same_rules(
    name: str, spiel_name: str, count: int, seed: int
) -> None:
    game = get_game(name)
    outcomes, _ = play_random_games(game, pyspiel.load_game(spiel_name), count, seed)
    assert outcomes["x"] and outcomes["o"], outcomes


def test_moves_name_the_same_cells() -> None:
    """The mapping spelt out on a board that is not square: 3 rows by 4
    columns is OpenSpiel's mnk with m=4, n=3, and b3 (second column, top
    row) is action 1 in both."""
    game = get_game("mnk:3,4,3")
    spiel = pyspiel.load_game(openspiel_name(game))
    assert openspiel_name(game) == "mnk(m=4,n=3,k=3)"
    assert (spiel.num_distinct_actions(), spiel.max_game_length()) == (12, 12)
    position, state = game.initial(), spiel.new_initial_state()
    for text in ("b3", "d1"):
        move = game.parse_move(position, text)
        position = game.play(position, move)
        state.apply_action(move)
    assert game.grid(position) == ".x../..../...o"
    assert str(state) == ".x..\n....\n...o"


# -- values ---------------------------------------------------------------------

#: Unbeatable's result -> OpenSpiel's value for the player to move.
SIGN = {"win": 1.0, "draw": 0.0, "loss": -1.0}


def spiel_value(spiel: Any, state: Any) -> float:
    """OpenSpiel's exact value for the player to move (searched to the end)."""
    value, _ = minimax.alpha_beta_search(spiel, state=state, maximum_depth=spiel.max_game_length())
    return float(value)


def forced_within(spiel: Any, state: Any, plies: int, winner_is_mover: bool) -> bool:
    """Whether OpenSpiel's alpha-beta, cut ``plies`` plies deep, proves that
    the player to move (or, with ``winner_is_mover`` False, the opponent)
    wins within ``plies`` plies: positions still open at the cut count as
    not won by that player."""
    mover = state.current_player()
    if winner_is_mover:
        value, _ = minimax.alpha_beta_search(
            spiel, state=state, value_function=lambda _: -1.0, maximum_depth=plies
        )
        return bool(value == 1.0)
    value, _ = minimax.alpha_beta_search(
        spiel,
        state=state,
        value_function=lambda _: 1.0,
        maximum_depth=plies,
        maximizing_player_id=mover,
    )
    return bool(value == -1.0)


def check_value(game: Game[Any, Any], spiel: Any, position: Any, state: Any) -> str:
    """Unbeatable's exact value of ``position`` against OpenSpiel's alpha-beta
    on the same position (``state``): the result, then its distance in plies.
    Returns the result."""
    solution = unbeatable.solve(game, position)
    where = f"{game.name} {game.format(position)}"
    assert solution.exact, where
    assert spiel_value(spiel, state) == SIGN[solution.result], (where, solution)
    plies = solution.plies
    assert plies is not None, where
    if solution.result == "draw":
        # Nobody wins: the game lasts until the board is full.
        assert plies == game.draw_plies(position), (where, solution)
        return solution.result
    won = solution.result == "win"
    assert plies % 2 == (1 if won else 0), (where, solution)
    assert forced_within(spiel, state, plies, won), (where, solution)
    if plies >= 3:
        assert not forced_within(spiel, state, plies - 2, won), (where, solution)
    return solution.result


def positions(
    game: Game[Any, Any], spiel: Any, keep: Callable[[Any], bool]
) -> Iterator[tuple[Any, Any]]:
    """Every reachable unfinished position that ``keep`` accepts, once, with
    an OpenSpiel state of the same board (depth first from the start)."""
    seen: set[Any] = set()
    stack = [(game.initial(), spiel.new_initial_state())]
    while stack:
        position, state = stack.pop()
        if position in seen or game.is_terminal(position):
            continue
        seen.add(position)
        if keep(position):
            yield position, state
        for move in game.moves(position):
            child = state.clone()
            child.apply_action(move)
            stack.append((game.play(position, move), child))


def random_positions(
    game: Game[Any, Any], spiel: Any, count: int, stones: range, seed: int
) -> Iterator[tuple[Any, Any]]:
    """``count`` distinct unfinished positions of random games, each with a
    number of stones drawn from ``stones``, with their OpenSpiel states."""
    rng = random.Random(seed)
    seen: set[Any] = set()
    while len(seen) < count:
        target = rng.choice(stones)
        position, state = game.initial(), spiel.new_initial_state()
        for _ in range(target):
            if game.is_terminal(position):
                break
            move = rng.choice(game.moves(position))
            position = game.play(position, move)
            state.apply_action(move)
        if game.is_terminal(position) or position in seen:
            continue
        seen.add(position)
        yield position, state


def test_every_tictactoe_position_has_the_same_value() -> None:
    """All 4,520 unfinished positions of tic-tac-toe, the empty board first."""
    game = get_game("tictactoe")
    spiel = pyspiel.load_game("tic_tac_toe")
    results = Counter(
        check_value(game, spiel, position, state)
        for position, state in positions(game, spiel, lambda _: True)
    )
    assert sum(results.values()) == 4520
    assert all(results[result] for result in SIGN), results


@pytest.mark.parametrize(
    ("name", "result"), [("mnk:3,4,3", "win"), ("mnk:4,3,3", "win"), ("mnk:4,4,3", "win")]
)
def test_small_boards_from_the_start(name: str, result: str) -> None:
    game = get_game(name)
    spiel = pyspiel.load_game(openspiel_name(game))
    assert check_value(game, spiel, game.initial(), spiel.new_initial_state()) == result


@pytest.mark.parametrize(
    ("name", "count", "stones"),
    [
        ("mnk:3,4,3", 300, range(2, 9)),
        ("mnk:4,3,3", 300, range(2, 9)),
        ("mnk:4,4,3", 200, range(5, 12)),
        ("mnk:4,4,4", 200, range(8, 14)),
        ("mnk:5,5,4", 200, range(16, 23)),
    ],
)
def test_mnk_positions_have_the_same_value(name: str, count: int, stones: range) -> None:
    results = values_checked(name, count, stones)
    assert len(results) >= 2, results


def values_checked(name: str, count: int, stones: range) -> Counter[str]:
    """Checks ``count`` seeded random positions of ``name`` with a number of
    stones in ``stones`` in both; how many had each result."""
    game = get_game(name)
    spiel = pyspiel.load_game(openspiel_name(game))
    results = Counter(
        check_value(game, spiel, position, state)
        for position, state in random_positions(game, spiel, count, stones, seed=count)
    )
    assert sum(results.values()) == count
    return results


@pytest.mark.parametrize(
    ("name", "count", "stones"),
    [
        ("connect4", 300, range(30, 40)),
        ("connect4:6,5", 200, range(19, 28)),
        ("connect4:5,4", 200, range(9, 18)),
    ],
)
def test_connect4_endgames_have_the_same_value(name: str, count: int, stones: range) -> None:
    """Positions near the end of the game, where OpenSpiel's plain alpha-beta
    (no table, no move ordering) still searches to the end quickly."""
    results = values_checked(name, count, stones)
    assert all(results[result] for result in SIGN), results
