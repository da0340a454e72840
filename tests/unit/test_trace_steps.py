"""The walk line by line: every traced tree carries its algorithm's pseudocode
and the steps it ran, and those steps are what the pseudocode says, checked
against a second reading of the textbook written here from the lines' own
text (so a step on a wrong line, a missed test or a stale alpha fails)."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from unbeatable import api

INF = math.inf
A, B = "\N{GREEK SMALL LETTER ALPHA}", "\N{GREEK SMALL LETTER BETA}"
LOW, HIGH = "\N{MINUS SIGN}\N{INFINITY}", "+\N{INFINITY}"

#: A tree of leaf scores: a number, or a list of 1 to 3 subtrees, 4 deep at most.
trees = st.recursive(
    st.integers(-9, 9),
    lambda children: st.lists(children, min_size=1, max_size=3),
    max_leaves=20,
).filter(lambda tree: isinstance(tree, list))


def textbook(tree: Any, alphabeta: bool, cutoff: bool = False) -> list[tuple[str, Any, Any, Any]]:
    """The walk as the pseudocode reads: (line, v, alpha, beta) for each
    line run. A leaf is (score, finished) when ``cutoff``: a finished game
    returns its utility, a position at the depth limit its estimate."""
    out: list[tuple[str, Any, Any, Any]] = []
    window = f", {A}, {B}" if alphabeta else ""

    def value(node: Any, me: str, alpha: float, beta: float) -> float:
        ab = (alpha, beta) if alphabeta else (None, None)
        if not isinstance(node, list):
            score, finished = node if cutoff else (node, True)
            line = "return UTILITY(state)" if finished else "return EVAL(state)"
            out.append((line, score, *ab))
            return float(score)
        other = "MIN" if me == "MAX" else "MAX"
        v = -INF if me == "MAX" else INF
        out.append((f"v ← {LOW if me == 'MAX' else HIGH}", v, *ab))
        for child in node:
            got = value(child, other, alpha, beta)
            v = max(v, got) if me == "MAX" else min(v, got)
            ab = (alpha, beta) if alphabeta else (None, None)
            out.append((f"v ← {me}(v, {other}-VALUE(child{window}))", v, *ab))
            if not alphabeta:
                continue
            test = f"if v ≥ {B} then return v" if me == "MAX" else f"if v ≤ {A} then return v"
            out.append((test, v, alpha, beta))
            if (me == "MAX" and v >= beta) or (me == "MIN" and v <= alpha):
                return v
            if me == "MAX":
                alpha = max(alpha, v)
                out.append((f"{A} ← MAX({A}, v)", v, alpha, beta))
            else:
                beta = min(beta, v)
                out.append((f"{B} ← MIN({B}, v)", v, alpha, beta))
        out.append(("return v", v, *((alpha, beta) if alphabeta else (None, None))))
        return v

    root = value(tree, "MAX", -INF, INF)
    search = f"return MAX-VALUE(state, {LOW}, {HIGH})" if alphabeta else "return MAX-VALUE(state)"
    out.append((search, root, None, None))
    return out


def ran(traced: api.TracedTree) -> list[tuple[str, Any, Any, Any]]:
    """The traced walk in the same terms: each step's line, as the tree's
    own pseudocode writes it, with v, alpha and beta."""
    lines = traced.pseudocode
    return [
        (_statement(lines[step.line - 1]), step.v, step.alpha, step.beta) for step in traced.steps
    ]


def _statement(line: str) -> str:
    """The line's statement: the guard's action for 'if ... then return ...'
    lines that hold a leaf's return, the whole line otherwise."""
    text = line.strip()
    if text.startswith(("if IS-TERMINAL", "if IS-CUTOFF")):
        return text.split(" then ")[1]
    return text


@settings(max_examples=60, deadline=None)
@given(trees, st.booleans())
def test_the_steps_are_the_pseudocode_run_line_by_line(tree: Any, alphabeta: bool) -> None:
    # As JSON text: a flat list is then one node's children, not a binary tree's leaves.
    traced = api.textbook_tree(json.dumps(tree), "alphabeta" if alphabeta else "minimax")
    assert ran(traced) == textbook(tree, alphabeta)
    # Every step names a node the walk entered, an update the child just returned.
    entered = {node.order for node in traced.root.walk()} - {None}
    for before, step in zip(traced.steps, traced.steps[1:], strict=False):
        assert step.node in entered
        if step.does == "update":
            assert step.child == before.node
    assert traced.steps[-1].does == "result"
    assert traced.steps[-1].v == traced.root.value


def test_the_textbook_tree_walks_in_57_lines_with_alphabeta() -> None:
    traced = api.textbook_tree([3, 5, 2, 9, 12, 5, 23, 23], "alphabeta")
    assert len(traced.steps) == 57
    cuts = [step for step in traced.steps if step.does == "cut"]
    # E stops on 9 >= beta 5 (no child left to prune), G on 23 >= 12 (one pruned).
    assert [(step.v, step.beta) for step in cuts] == [(9, 5), (23, 12)]
    assert traced.pseudocode[cuts[0].line - 1].strip() == f"if v ≥ {B} then return v"
    minimax = api.textbook_tree([3, 5, 2, 9, 12, 5, 23, 23])
    assert len(minimax.steps) == 15 + 14 + 7 + 1  # entries, updates, returns, the answer


def _nest(node: api.TreeNode) -> Any:
    """The traced tree as nested lists of (score, finished) leaves."""
    if not node.children:
        return (node.score, node.result != "unknown")
    return [_nest(child) for child in node.children]


def test_a_depth_limited_walk_returns_estimates_on_the_cutoff_line() -> None:
    """Below a tic-tac-toe position with the evaluation function: a position
    at the depth limit returns EVAL on IS-CUTOFF's line, a finished game its
    utility; the steps follow the pseudocode all the same."""
    for algorithm in ("minimax", "alphabeta"):
        traced = api.tree(
            "tictactoe", "x.o/.x./... o", depth=2, cutoff="heuristic", algorithm=algorithm
        )
        assert "  if IS-CUTOFF(state) then return EVAL(state)" in traced.pseudocode
        assert ran(traced) == textbook(_nest(traced.root), algorithm == "alphabeta", cutoff=True)
        kinds = {step.does for step in traced.steps}
        assert {"terminal", "cutoff"} <= kinds
    data = api.tree("tictactoe", "x.o/.x./... o", depth=1, cutoff="heuristic").to_dict()
    assert data["pseudocode"][0] == "function MINIMAX-SEARCH(state)"
    assert data["steps"][0] == {
        "line": 6,
        "does": "enter",
        "node": 1,
        "v": "-inf",
        "alpha": None,
        "beta": None,
        "child": None,
    }
