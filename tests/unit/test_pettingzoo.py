"""The PettingZoo environment and agent (issue 21): PettingZoo's own API test on
the library's games, rewards and masks on known games, illegal actions, the
text board, and the perfect agent against random play in PettingZoo's own
``connect_four_v3`` and ``tictactoe_v3``, whose numbering it maps. Also: the
extra stays optional (``import unbeatable`` loads none of it; without it the
import fails in one line saying what to install)."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")

# PettingZoo's own games from their modules (``pettingzoo.classic.tictactoe_v3``
# and its test module, which imports one, warn that this way of making them is
# deprecated in favour of a registry that versions before 1.27 lack).
from pettingzoo.classic.connect_four import connect_four as connect_four_v3
from pettingzoo.classic.tictactoe import tictactoe as tictactoe_v3

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test

from unbeatable.envs.pettingzoo import (
    NUMBERINGS,
    IllegalActionError,
    UnbeatableAgent,
    env,
    raw_env,
)
from unbeatable.games.tree import ExplicitTree, tree_from_leaves

MODULE = Path(__file__).resolve().parents[2] / "src" / "unbeatable" / "envs" / "pettingzoo.py"


def play_out(game_env: Any, actions: list[int]) -> None:
    """Step ``actions`` in turn from a fresh reset."""
    game_env.reset()
    for action in actions:
        game_env.step(action)


def final_rewards(game_env: Any) -> dict[str, float]:
    """Let every agent leave a finished game; what ``last()`` gave each."""
    rewards = {}
    for agent in game_env.agent_iter():
        _obs, reward, termination, truncation, _info = game_env.last()
        assert termination and not truncation
        rewards[agent] = reward
        game_env.step(None)
    return rewards


def random_action(rng: random.Random, observation: dict[str, Any]) -> int:
    """A legal action picked at random: the agent's opponent."""
    legal: list[int] = np.flatnonzero(observation["action_mask"]).tolist()
    return rng.choice(legal)


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "mnk:5,5,4", "gomoku"])
def test_pettingzoos_api_test_passes(game: str) -> None:
    with warnings.catch_warnings():
        # Its advice for other kinds of environment (an empty board is all zeros;
        # the observation is PettingZoo's classic dict, not a bare array).
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(game), num_cycles=60)


def test_rewards_masks_and_planes_of_a_won_tictactoe_game() -> None:
    game_env = env("tictactoe")
    game_env.reset(seed=0)
    assert game_env.agent_selection == "player_0"
    start = game_env.observe("player_0")
    assert start["action_mask"].tolist() == [1] * 9
    assert game_env.observe("player_1")["action_mask"].tolist() == [0] * 9
    assert start["observation"].shape == (3, 3, 2) and not start["observation"].any()
    # x a3 (0), o a2 (3), x b3 (1), o b2 (4): x threatens c3.
    for action in (0, 3, 1, 4):
        game_env.step(action)
    assert game_env.unwrapped.position == "xx./oo./... x"
    seen = game_env.observe("player_0")
    assert seen["action_mask"].tolist() == [0, 0, 1, 0, 0, 1, 1, 1, 1]
    assert seen["observation"][:, :, 0].tolist() == [[1, 1, 0], [0, 0, 0], [0, 0, 0]]
    assert seen["observation"][:, :, 1].tolist() == [[0, 0, 0], [1, 1, 0], [0, 0, 0]]
    other = game_env.observe("player_1")["observation"]  # the same board, planes swapped
    assert (other[:, :, ::-1] == seen["observation"]).all()
    assert game_env.rewards == {"player_0": 0, "player_1": 0}
    game_env.step(2)  # c3: three in a row
    assert all(game_env.terminations.values())
    assert game_env.rewards == {"player_0": 1, "player_1": -1}
    assert final_rewards(game_env) == {"player_1": -1, "player_0": 1}
    assert game_env.agents == []


def test_a_draw_rewards_nobody_and_the_loser_can_be_the_first_player() -> None:
    game_env = env("tictactoe")
    # x b2, o a3, x c3, o a1, x a2, o c2, x b1, o b3, x c1: a full board, nobody in a row.
    play_out(game_env, [4, 0, 2, 6, 3, 5, 7, 1, 8])
    assert game_env.unwrapped.view.status.over
    assert final_rewards(game_env) == {"player_1": 0, "player_0": 0}
    # o wins in Connect Four: the column numbers are the actions.
    c4 = env("connect4")
    play_out(c4, [0, 1, 0, 1, 0, 1, 6, 1])
    assert final_rewards(c4) == {"player_0": -1, "player_1": 1}


def test_connect_four_masks_a_full_column_and_starts_from_a_given_position() -> None:
    game_env = env("connect4")
    game_env.reset(options={"position": "444444"})
    assert game_env.agent_selection == "player_0"
    assert game_env.observe("player_0")["action_mask"].tolist() == [1, 1, 1, 0, 1, 1, 1]
    planes = game_env.observe("player_0")["observation"]
    assert planes.shape == (6, 7, 2)
    assert planes[:, 3, 0].tolist() == [0, 1, 0, 1, 0, 1]  # x at the bottom, from the top
    with pytest.raises(ValueError, match="finished"):
        game_env.reset(options={"position": "1212121"})


def test_every_board_numbers_its_cells_row_by_row() -> None:
    game_env = raw_env("mnk:5,5,4")
    game_env.reset()
    game_env.step(7)  # row 1, column 2: c4
    assert game_env.position == "...../..x../...../...../..... o"
    assert game_env.action_space("player_1").n == 25
    assert raw_env("gomoku").observation_space("player_0")["observation"].shape == (15, 15, 2)
    assert raw_env("connect4:5,4").action_space("player_0").n == 5


def test_an_illegal_action_loses_as_in_pettingzoos_games_or_raises() -> None:
    game_env = env("tictactoe")
    play_out(game_env, [4])
    with pytest.warns(UserWarning, match=r"action 4 is not legal for player_1 \(o\)"):
        game_env.step(4)
    assert final_rewards(game_env) == {"player_0": 0, "player_1": -1}

    strict = env("tictactoe", illegal="raise")
    play_out(strict, [4])
    with pytest.raises(IllegalActionError, match="legal actions are 0, 1, 2, 3, 5, 6, 7, 8"):
        strict.step(4)
    assert strict.unwrapped.position == ".../.x./... o"  # nothing changed
    for action in (9, -1):
        with pytest.raises(IllegalActionError, match=r"outside the action space \(0-8\)"):
            game_env.reset()
            game_env.step(action)
    with pytest.raises(IllegalActionError, match="an action is an integer"):
        strict.step(1.0)
    strict.step(np.int64(0))  # numpy's integers are actions too
    assert strict.unwrapped.position == "o../.x./... x"


def test_render_draws_the_text_board() -> None:
    game_env = env("tictactoe", render_mode="ansi")
    play_out(game_env, [4, 0])
    assert game_env.render() == "  a b c\n3 o . .\n2 . x .\n1 . . .\nx to move"
    c4 = env("connect4", render_mode="ansi")
    play_out(c4, [3, 3, 3, 3])
    assert c4.render().splitlines()[0] == "1 2 3 4 5 6 7"
    assert c4.render().splitlines()[-2:] == [". . . x . . .", "x to move"]
    play_out(c4, [0, 1, 0, 1, 0, 1, 0])
    assert c4.render().endswith("x has won")
    with pytest.raises(ValueError, match="render_mode"):
        env("tictactoe", render_mode="rgb_array")


def test_human_rendering_prints_each_move(capsys: pytest.CaptureFixture[str]) -> None:
    game_env = env("tictactoe", render_mode="human")
    play_out(game_env, [4])
    assert capsys.readouterr().out == "  a b c\n3 . . .\n2 . x .\n1 . . .\no to move\n"


def test_a_game_without_a_board_is_refused() -> None:
    with pytest.raises(ValueError, match="tree has no board"):
        env(ExplicitTree(tree_from_leaves([1, 2])))


def test_the_agent_reads_tictactoe_v3s_column_major_board() -> None:
    """PettingZoo's tic-tac-toe numbers its cells down the columns: the
    agent's reading of the observation is the board PettingZoo holds."""
    agent = UnbeatableAgent("tictactoe")
    pz = tictactoe_v3.env()
    pz.reset()
    for action in (0, 4, 5):  # top-left, centre, bottom of the middle column
        pz.step(action)
    position = agent.position(pz.observe(pz.agent_selection), "tictactoe_v3")
    assert position == "x../.o./.x. o"
    assert pz.unwrapped.board.squares == [1, 0, 0, 0, 2, 1, 0, 0, 0]
    assert NUMBERINGS["tictactoe_v3"].action(row=2, col=0) == 2  # a1: bottom of the left column
    with pytest.raises(ValueError, match="tictactoe_v3 is a 3x3 board"):
        UnbeatableAgent("connect4").position(pz.observe(pz.agent_selection), "tictactoe_v3")


def agent_against_random(module: Any, game: str, seat: int, seed: int) -> float:
    """One game of PettingZoo's ``module``: the perfect agent in ``seat``
    (0: first), a seeded random player in the other; the agent's reward."""
    pz = module.env()
    pz.reset(seed=seed)
    # Seeded too: the agent draws among equally good moves, and how often a
    # random player is beaten depends on which (5 to 8 of 8 unseeded).
    perfect = UnbeatableAgent(game, time_limit=0.5, seed=seed)
    rng = random.Random(seed)
    mine = pz.possible_agents[seat]
    result = None
    for agent in pz.agent_iter():
        observation, reward, termination, truncation, _info = pz.last()
        if termination or truncation:
            if agent == mine:
                result = reward
            pz.step(None)
        elif agent == mine:
            pz.step(perfect.act(pz))
        else:
            pz.step(random_action(rng, observation))
    assert result is not None
    return float(result)


@pytest.mark.parametrize(
    ("module", "game", "games"),
    [(tictactoe_v3, "tictactoe", 8), (connect_four_v3, "connect4", 6)],
    ids=["tictactoe_v3", "connect_four_v3"],
)
def test_the_perfect_agent_never_loses_in_pettingzoos_own_games(
    module: Any, game: str, games: int
) -> None:
    results = [agent_against_random(module, game, seed % 2, seed) for seed in range(games)]
    assert min(results) >= 0, results
    assert results.count(1.0) >= games - 2, results  # against random it wins nearly always


@pytest.mark.parametrize(
    ("module", "game", "first"),
    [(tictactoe_v3, "tictactoe", 0.0), (connect_four_v3, "connect4", 1.0)],
    ids=["tictactoe_v3", "connect_four_v3"],
)
def test_perfect_play_on_both_sides_ends_as_the_game_is_solved(
    module: Any, game: str, first: float
) -> None:
    """Tic-tac-toe is a draw; Connect Four a win for the first player (on its
    41st move, in about a second of search here)."""
    pz = module.env()
    pz.reset(seed=0)
    results = perfect_on_both_sides(pz, game)
    first_player, second_player = pz.possible_agents
    assert (results[first_player], results[second_player]) == (first, -first)


def perfect_on_both_sides(pz: Any, game: str) -> dict[str, float]:
    """Plays a reset environment to the end with the perfect agent on both
    sides; each agent's final reward."""
    players = {agent: UnbeatableAgent(game) for agent in pz.possible_agents}
    results = {}
    for agent in pz.agent_iter():
        _observation, reward, termination, truncation, _info = pz.last()
        if termination or truncation:
            results[agent] = reward
            pz.step(None)
        else:
            pz.step(players[agent].act(pz))
    return results


def test_the_agent_plays_every_level_in_the_librarys_own_environment() -> None:
    """Perfect play against itself draws tic-tac-toe; the weaker levels play
    legal actions, repeatably with a seed; an observation alone is enough."""
    game_env = env("tictactoe")
    game_env.reset()
    # Moves of equal value are drawn at random: twins seeded alike draw alike.
    perfect, twin = UnbeatableAgent("tictactoe", seed=4), UnbeatableAgent("tictactoe", seed=4)
    for _agent in game_env.agent_iter():
        observation, _reward, termination, _truncation, _info = game_env.last()
        if termination:
            game_env.step(None)
            continue
        action = perfect.act(game_env)
        assert twin.act_on(observation) == action  # the planes tell the same position
        game_env.step(action)
    assert game_env.unwrapped.view.status.winner is None

    def medium_game(seed: int) -> str:
        medium = env("mnk:4,4,4")
        medium.reset()
        players = [UnbeatableAgent("mnk:4,4,4", "medium", seed=seed) for _ in range(2)]
        for agent in medium.agent_iter():
            *_, termination, _truncation, _info = medium.last()
            player = players[int(agent[-1])]
            medium.step(None if termination else player.act(medium))
        return str(medium.unwrapped.position)

    assert medium_game(3) == medium_game(3)
    with pytest.raises(ValueError, match="plays connect4, not tictactoe"):
        UnbeatableAgent("connect4").act(env("tictactoe"))


def test_import_unbeatable_loads_no_extra() -> None:
    """The extras stay optional: neither the package nor ``unbeatable.envs``
    imports PettingZoo, Gymnasium or OpenSpiel."""
    code = (
        "import sys, unbeatable, unbeatable.envs\n"
        "unbeatable.analyze\n"  # the api too
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel')]\n"
        "print(heavy)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_without_the_extra_the_import_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"  # as if it were not installed
        "import unbeatable.envs.pettingzoo\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last == (
        "ImportError: unbeatable.envs.pettingzoo needs PettingZoo (pettingzoo is not "
        "installed): pip install '.[pettingzoo]' in Unbeatable's folder, or "
        "'WHEEL[pettingzoo]' with the wheel's file name (the README's Install)"
    )


def test_the_environment_reaches_the_library_through_its_api_only() -> None:
    """Like the faces: ``unbeatable.api``, never the layers below it (every
    module of ``unbeatable.envs``; they may import each other)."""
    for module in MODULE.parent.glob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        ours = {name for name in names if name.startswith("unbeatable")}
        below = {n for n in ours if not n.startswith(("unbeatable.api", "unbeatable.envs"))}
        assert below <= {"unbeatable"}, (module.name, below)


def test_a_plugin_game_whose_pieces_move_numbers_its_moves_from_then_to() -> None:
    """Hexapawn (the example plug-in): two captures onto one cell are two
    actions, ``origin * cells + target``; PettingZoo's API test passes, and
    perfect play on both sides ends as the game is solved (black wins)."""
    pytest.importorskip("unbeatable_hexapawn", reason="the example plug-in is not installed")
    hexapawn = env("hexapawn")
    hexapawn.reset()
    assert hexapawn.action_space("player_0").n == 81
    # a1 (cell 6) and c1 (cell 8) can both capture on b2 (cell 4).
    hexapawn.reset(options={"position": "b.b/.b./www w"})
    legal = np.flatnonzero(hexapawn.observe("player_0")["action_mask"]).tolist()
    assert {6 * 9 + 4, 8 * 9 + 4} <= set(legal)
    hexapawn.step(8 * 9 + 4)
    assert hexapawn.unwrapped.position == "b.b/.w./ww. b"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env("hexapawn"), num_cycles=60)
    game = env("hexapawn")
    game.reset()
    assert perfect_on_both_sides(game, "hexapawn") == {"player_1": 1.0, "player_0": -1.0}
