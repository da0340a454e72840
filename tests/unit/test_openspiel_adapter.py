"""unbeatable.envs.openspiel (issue 35): every game of the library, plug-ins
included, registered as an OpenSpiel Python game, checked by OpenSpiel's
own random-simulation test (``pyspiel.random_sim_test``: legal actions,
cloning, serialisation, observations, returns, on random games); and the
library's AI as a ``pyspiel.Bot``, which OpenSpiel's MCTS bot never beats,
in OpenSpiel's own tic-tac-toe and Connect Four.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from unbeatable.envs import openspiel

#: (OpenSpiel game string, random games): a few of each, every board kind.
SIMULATED = [
    ("unbeatable_tictactoe", 20),
    ("unbeatable_connect4", 5),
    ("unbeatable_connect4(columns=6,rows=5)", 5),
    ("unbeatable_mnk(rows=3,cols=4,k=3)", 10),
    ("unbeatable_gomoku(rule=renju,size=15)", 2),
]
PLUG_INS = [
    ("unbeatable_hexapawn", 20, "unbeatable_hexapawn"),
    ("unbeatable_hexapawn(columns=4,rows=4)", 5, "unbeatable_hexapawn"),
    ("unbeatable_morris", 10, "unbeatable_morris"),
]


@pytest.mark.parametrize(("name", "games"), SIMULATED)
def test_openspiel_random_simulation_passes(name: str, games: int) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=games, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "games", "package"), PLUG_INS)
def test_plugin_games_are_registered_too(name: str, games: int, package: str) -> None:
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"the example plug-in {package} is not installed")
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=games, serialize=True, verbose=False)


def test_families_take_their_parameters_by_name() -> None:
    assert {"unbeatable_tictactoe", "unbeatable_connect4", "unbeatable_mnk"} <= set(
        openspiel.REGISTERED
    )
    small = pyspiel.load_game("unbeatable_connect4(columns=6,rows=5)")
    assert small.num_distinct_actions() == 6
    assert small.observation_tensor_shape() == [4, 5, 6]
    state = small.new_initial_state()
    assert str(state) == small.new_initial_state().notation
    assert state.current_player() == 0
    # The default member is the named game.
    assert pyspiel.load_game("unbeatable_connect4").new_initial_state()._name == "connect4"
    mnk = pyspiel.load_game("unbeatable_mnk(rows=4,cols=4,k=3)")
    assert mnk.new_initial_state()._name == "mnk:4,4,3"
    # A board the library refuses is refused with its reason.
    with pytest.raises(ValueError, match="64-bit board"):
        pyspiel.load_game("unbeatable_connect4(columns=99,rows=6)")


def test_observations_show_the_board_and_history() -> None:
    game = pyspiel.load_game("unbeatable_tictactoe")
    state = game.new_initial_state()
    for action in (4, 0):  # x b2, o a3
        state.apply_action(action)
    planes = np.array(state.observation_tensor(0)).reshape(4, 3, 3)
    assert planes[1, 1, 1] == 1 and planes[2, 0, 0] == 1 and planes[0].sum() == 7
    assert planes[3].all()  # x to move
    assert state.observation_string(0).endswith("x")
    # Perfect recall: the actions so far.
    assert state.information_state_string(0) == "4, 0"


def _never_loses(name: str, games: int, simulations: int) -> list[float]:
    """Our bot against OpenSpiel's MCTS in OpenSpiel's own ``name``, on both
    seats; our returns."""
    game = pyspiel.load_game(name)
    ours: list[float] = []
    for seat in range(games):
        rng = np.random.RandomState(seat)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        rival = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
        bots = {seat % 2: openspiel.bot(game, seat % 2), 1 - seat % 2: rival}
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        ours.append(state.returns()[seat % 2])
    return ours


def test_mcts_never_beats_the_bot_at_openspiels_tic_tac_toe() -> None:
    assert min(_never_loses("tic_tac_toe", 2, 300)) >= 0.0


def test_mcts_never_beats_the_bot_at_openspiels_connect_four() -> None:
    returns = _never_loses("connect_four", 2, 100)
    assert min(returns) >= 0.0
    assert returns[0] == 1.0  # moving first, perfect play wins


def test_the_bot_refuses_a_game_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="not chess"):
        openspiel.bot(pyspiel.load_game("chess"), 0)


def test_without_the_extra_the_import_says_what_to_install() -> None:
    code = "import sys\nsys.modules['pyspiel'] = None\nimport unbeatable.envs.openspiel\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    last = run.stderr.strip().splitlines()[-1]
    assert run.returncode == 1
    assert last.startswith("ImportError: unbeatable.envs.openspiel needs OpenSpiel")
    assert "'.[openspiel]'" in last
