"""Traced trees: minimax and alpha-beta step by step, below real positions and
over textbook leaf scores (the CLI's tree command and POST /api/tree)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import unbeatable
from conftest import CliRun
from test_unbeatable import RANK
from unbeatable import api
from unbeatable.games import GameError, get_game


def nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node["children"]:
        yield from nodes(child)


def test_the_textbook_example_step_by_step() -> None:
    """The seeds' example: 3 5 2 9 12 5 23 23, MAX at the root."""
    plain = api.textbook_tree([3, 5, 2, 9, 12, 5, 23, 23]).to_dict()
    cut = api.textbook_tree([3, 5, 2, 9, 12, 5, 23, 23], "alphabeta").to_dict()
    assert plain["root"]["score"] == plain["root"]["value"] == 12
    assert cut["root"]["value"] == 12
    assert (plain["nodes"], plain["visited"], cut["visited"]) == (15, 15, 14)
    pruned = [n["position"] for n in nodes(cut["root"]) if n["pruned"]]
    assert pruned == ["1.1.1"]  # the last leaf: MIN already has 12 <= 23
    # Visit order is depth first, left to right; alpha and beta as entered.
    entered = sorted((n for n in nodes(cut["root"]) if not n["pruned"]), key=lambda n: n["order"])
    assert [n["position"] for n in entered][:5] == ["root", "0", "0.0", "0.0.0", "0.0.1"]
    right = next(n for n in nodes(cut["root"]) if n["position"] == "1.1")
    assert (right["alpha"], right["beta"], right["bound"]) == (5, 12, "lower")
    # The best line: right, then left, down to the 12.
    assert [n["position"] for n in nodes(cut["root"]) if n["best"]] == ["root", "1", "1.0", "1.0.0"]


def test_a_value_is_a_bound_only_when_it_may_differ_from_minimax() -> None:
    """The MAX node over 2 and 9 (entered with beta 5) saw both leaves: its
    value is 9, not at least 9; on random trees every value shown as exact
    is the minimax value and every bound holds."""
    cut = api.textbook_tree([3, 5, 2, 9, 12, 5, 23, 23], "alphabeta").to_dict()
    second = next(n for n in nodes(cut["root"]) if n["position"] == "0.1")
    assert (second["value"], second["bound"]) == (9, None)
    rng = random.Random(19)
    for _ in range(300):
        width, depth = rng.choice([(2, 3), (2, 4), (3, 3), (4, 2), (3, 4)])
        leaves: Any = [rng.randint(-9, 9) for _ in range(width**depth)]
        for _ in range(depth):
            leaves = [leaves[i : i + width] for i in range(0, len(leaves), width)]
        for node in nodes(api.textbook_tree(leaves[0], "alphabeta").to_dict()["root"]):
            if node["value"] is None:
                continue
            assert node["bound"] in (None, "lower", "upper")
            if node["bound"] is None:
                assert node["value"] == node["score"], node["position"]
            elif node["bound"] == "lower":
                assert node["score"] >= node["value"], node["position"]
            else:
                assert node["score"] <= node["value"], node["position"]


def test_values_are_known_once_their_subtree_is_done() -> None:
    tree = api.textbook_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "alphabeta").to_dict()
    for node in nodes(tree["root"]):
        if not node["pruned"]:
            below = [c["order"] for c in nodes(node) if not c["pruned"]]
            assert node["known_at"] == max(below)


@pytest.mark.parametrize("position", ["xox/oox/...", "x.o/.x./o..", "xo./.../..."])
def test_a_tic_tac_toe_tree_agrees_with_analysis(position: str) -> None:
    depth = 9 - sum(c in "xo" for c in position)
    if depth > 6:
        depth = 3
    for algorithm in ("minimax", "alphabeta"):
        tree = api.tree("tictactoe", position, depth=depth, algorithm=algorithm).to_dict()
        analysis = unbeatable.analyze("tictactoe", position)
        root = tree["root"]
        assert (root["result"], root["plies"]) == (analysis.result, analysis.plies)
        for child, move in zip(root["children"], analysis.moves, strict=True):
            assert (child["move"], child["result"], child["plies"]) == (
                move.move,
                move.result,
                move.plies,
            )
        best = [c["move"] for c in root["children"] if c["best"]]
        assert analysis.best is not None and best == [analysis.best.move]
        if algorithm == "alphabeta":
            assert tree["visited"] <= tree["nodes"]


def test_connect4_leaves_come_from_the_solver() -> None:
    tree = api.tree("connect4", "2252576253462244111563365343671351441", depth=1).to_dict()
    analysis = unbeatable.analyze("connect4", "2252576253462244111563365343671351441")
    got = [(c["move"], c["result"], c["plies"]) for c in tree["root"]["children"]]
    assert got == [(m.move, m.result, m.plies) for m in analysis.moves]


def test_trees_are_bounded() -> None:
    with pytest.raises(GameError, match="more than 5,000 nodes"):
        api.tree("tictactoe", "", depth=9)
    with pytest.raises(GameError, match="leaves: got 3, but a binary tree"):
        api.textbook_tree([1, 2, 3])


def test_cli_tree_below_a_position(run_cli: CliRun) -> None:
    code, out, _ = run_cli("tree", "tictactoe", "xox/oox/...", "--depth", "3", "--alphabeta")
    assert code == 0
    assert "x to move: win in 1" in out and "c1: win in 1" in out
    code, out, _ = run_cli("tree", "tictactoe", "xox/oox/...", "--json")
    data = json.loads(out)
    assert data["root"]["children"][2]["move"] == "c1" and data["depth"] == 2


def test_api_tree(web_client: TestClient) -> None:
    response = web_client.post(
        "/api/tree", json={"leaves": [3, 5, 2, 9, 12, 5, 23, 23], "algorithm": "alphabeta"}
    )
    assert response.status_code == 200
    expected = api.textbook_tree([3, 5, 2, 9, 12, 5, 23, 23], "alphabeta")
    assert response.json() == expected.to_dict()
    response = web_client.post("/api/tree", json={"game": "tictactoe", "position": "", "depth": 9})
    assert response.status_code == 400
    assert "ask for less depth" in response.json()["error"]
    response = web_client.post("/api/tree", json={"game": "tictactoe", "leaves": [1, 2]})
    assert response.status_code == 422


# -- depth-limited search: heuristic leaves at the cut-off ------------------------


@pytest.mark.parametrize(
    ("game", "position", "value"),
    [
        ("tictactoe", "", 0),  # 8 lines open for each
        ("tictactoe", ".../.x./...", 4),  # the centre closes 4 of o's lines: 8 - 4
        ("tictactoe", "x../.o./...", -1),  # a corner closes 3 of o's, the centre 4 of x's
        ("tictactoe", "xo./.x./..o", 1),  # x: middle row, a column, a3-c1... o: bottom, c
        ("connect4", "", 0),
        ("connect4", "4", 7),  # 4 across, 1 up, 2 diagonals through the centre's foot
        ("connect4", "44", -3),  # o on top: 9 lines of its own; x keeps 6 of its 7
    ],
)
def test_static_evaluations_count_open_lines(game: str, position: str, value: int) -> None:
    rules = get_game(game)
    evaluation = rules.static_evaluation()
    assert evaluation is not None
    assert evaluation.value(rules.parse(position)) == value
    assert abs(value) <= evaluation.bound


def test_a_game_without_an_evaluation_refuses_heuristic_leaves() -> None:
    from unbeatable.games.tree import ExplicitTree

    with pytest.raises(GameError, match="tree has no evaluation function"):
        api.tree(ExplicitTree([[1, 2], [3, 4]]), "", depth=1, cutoff="heuristic")
    with pytest.raises(GameError, match="unknown cutoff 'guess'"):
        api.tree("tictactoe", "", depth=1, cutoff="guess")


def chosen(game: str, position: str, depth: int) -> str:
    root = api.tree(game, position, depth=depth, cutoff="heuristic").root
    return next(str(child.move) for child in root.children if child.best)


def test_depth_limited_search_falls_for_the_horizon_effect() -> None:
    """x threatens c1 (a3-b2-c1): at depth 1 o counts open lines and plays a2,
    which loses; at depth 2 it sees x's win and blocks. In the second
    position o's fork lies four plies deep: depths 1 to 3 play into it."""
    exact = {m.move: m.result for m in unbeatable.analyze("tictactoe", "x.o/.x./...").moves}
    assert [chosen("tictactoe", "x.o/.x./...", d) for d in (1, 2, 3)] == ["a2", "c1", "c1"]
    assert (exact["a2"], exact["c1"]) == ("loss", "draw")
    fork = "xxo/.../.o."
    exact = {m.move: m.result for m in unbeatable.analyze("tictactoe", fork).moves}
    picks = [chosen("tictactoe", fork, d) for d in (1, 2, 3, 4)]
    assert [exact[move] for move in picks] == ["loss", "loss", "loss", "draw"]
    # Connect Four: the win Red has is four plies deep.
    c4 = "444145167325"
    exact = {m.move: m.result for m in unbeatable.analyze("connect4", c4).moves}
    assert [exact[chosen("connect4", c4, d)] for d in (1, 2, 4)] == ["loss", "loss", "win"]


def test_heuristic_leaves_are_estimates_and_finished_games_results() -> None:
    """Depth 2 below 'x.o/.x./...' (o to move): leaves at the cut-off carry the
    evaluation for o (the root player), unproven; x's win at c1 keeps its
    result and outranks every estimate, and so does the node above it."""
    tree = api.tree("tictactoe", "x.o/.x./...", depth=2, cutoff="heuristic", algorithm="alphabeta")
    assert (tree.cutoff, tree.estimate_bound) == ("heuristic", 8)
    assert tree.evaluation == "lines still open for x (no o in them) minus lines still open for o"
    rules = get_game("tictactoe")
    evaluation = rules.static_evaluation()
    assert evaluation is not None
    b3 = next(child for child in tree.root.children if child.move == "b3")
    for leaf in b3.children:
        position = rules.parse(leaf.position)
        if rules.is_terminal(position):
            assert (leaf.move, leaf.result, leaf.plies) == ("c1", "win", 1)
            assert leaf.score < -tree.estimate_bound  # a loss for o
        else:
            assert (leaf.result, leaf.plies) == ("unknown", None)
            assert leaf.score == -evaluation.value(position)  # o's view
    assert (b3.result, b3.plies) == ("loss", 2)  # proven: x wins whatever o's estimates
    assert tree.root.result == "unknown"
    plain = api.tree("tictactoe", "x.o/.x./...", depth=2, cutoff="heuristic")
    assert plain.root.score == tree.root.value  # alpha-beta agrees with minimax
    data = tree.to_dict()
    assert (data["cutoff"], data["estimate_bound"]) == ("heuristic", 8)
    exact = api.tree("tictactoe", "x.o/.x./...", depth=1).to_dict()
    assert exact["cutoff"] == "exact" and "evaluation" not in exact


def test_cli_tree_with_heuristic_leaves(run_cli: CliRun) -> None:
    code, out, _ = run_cli(
        "tree", "tictactoe", "x.o/.x./...", "--depth", "2", "--cutoff", "heuristic"
    )
    assert code == 0
    assert "b3: loss in 2" in out and "a2: estimate -2 for o" in out
    assert "estimates: lines still open for x (no o in them) minus lines still open" in out
    code, _, err = run_cli("tree", "3", "5", "--cutoff", "heuristic")
    assert code == 2 and "--cutoff is for a game position" in err
    # An even count for the second player reads +0, never -0.
    code, out, _ = run_cli(
        "tree", "tictactoe", "x../.../... o", "--depth", "1", "--cutoff", "heuristic"
    )
    assert code == 0 and "c3: estimate +0 for o" in out and "-0 " not in out


def test_api_tree_with_heuristic_leaves(web_client: TestClient) -> None:
    body = {"game": "connect4", "position": "444145167325", "depth": 2, "cutoff": "heuristic"}
    response = web_client.post("/api/tree", json=body)
    assert response.status_code == 200
    expected = api.tree("connect4", "444145167325", depth=2, cutoff="heuristic")
    assert response.json() == expected.to_dict()
    assert response.json()["estimate_bound"] == 207
    leaves = {"leaves": [1, 2], "cutoff": "heuristic"}
    assert web_client.post("/api/tree", json=leaves).status_code == 422
    wrong = {"game": "tictactoe", "position": "", "depth": 1, "cutoff": "guess"}
    assert web_client.post("/api/tree", json=wrong).status_code == 422


@pytest.mark.parametrize(
    ("game", "example"),
    [
        (name, example)
        for name in ("tictactoe", "connect4")
        for example in get_game(name).static_evaluation().examples  # type: ignore[union-attr]
    ],
    ids=lambda value: value if isinstance(value, str) else value[0],
)
def test_each_lesson_example_shows_the_horizon_effect(game: str, example: tuple[str, str]) -> None:
    """The depth lesson offers a game's examples as positions where a shallow
    search errs: at some depth the lesson can draw, the search's choice is
    worse than the exact best move."""
    _, position = example
    exact = {str(m.move): m.result for m in unbeatable.analyze(game, position).moves}
    best = max(RANK[result] for result in exact.values())
    picks = []
    for depth in range(1, 7):
        try:
            picks.append(chosen(game, position, depth))
        except api.TreeTooLarge:
            break
    assert any(RANK[exact[move]] < best for move in picks), (picks, exact)


def test_the_lesson_comes_with_the_game() -> None:
    """The games describe their lesson, and the API says it: no face keeps
    its own copy of the examples or of the notation help."""
    info = api.game_info("tictactoe").to_dict()
    assert info["lesson"]["rule"].startswith("lines still open for x")
    assert info["lesson"]["examples"][0] == {"name": "Block or lose", "position": "x.o/.x./... o"}
    assert info["notation"].endswith(": x../.../... o")
    connect4 = api.game_info("connect4").to_dict()["lesson"]
    assert connect4["examples"][0]["position"] == "444145167325"
    # Other boards keep their evaluation but give no examples (none checked).
    assert api.game_info("connect4:6,5").to_dict()["lesson"]["examples"] == []
    assert api.game_info("gomoku").to_dict()["lesson"]["examples"] == []
