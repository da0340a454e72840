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
from unbeatable import api
from unbeatable.games import GameError


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
