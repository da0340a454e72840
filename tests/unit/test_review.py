"""Looking back on a game (issue 33): each move's value before and after it,
the mistakes and the move that decided the game, through the library, the
command line and the HTTP API, for every kind of game (plug-ins included),
proven where the engine proves and judged where it cannot (Gomoku); and the
AI's choice among moves of equal value, random unless seeded."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from fastapi.testclient import TestClient

import unbeatable
from conftest import CliRun
from unbeatable import api

TTT = "tictactoe"
#: x opens in the centre, o answers on an edge (a loss in 6), x plays on.
LOST = "b2 c2 a1 c3 c1 b1 a3"


def test_each_move_has_its_value_before_and_after_and_the_mistake_is_marked() -> None:
    review = api.review(TTT, LOST)
    first, second, *_ = review.moves
    assert (first.ply, first.move, first.player, first.mistake) == (1, "b2", "x", False)
    assert first.before == first.after == api.ReviewValue("draw", 9, True)
    assert (second.ply, second.move, second.player) == (2, "c2", "o")
    assert second.before == api.ReviewValue("draw", 8, True)
    assert second.after == api.ReviewValue("loss", 6, True)
    assert second.mistake is True
    # The engine's move keeps the draw: the library agrees.
    assert second.best is not None
    kept = api.analyze(TTT, ".../.x./...")
    assert next(m for m in kept.moves if m.move == second.best).result == "draw"
    assert second.words == f"c2: a draw became a loss in 6; {second.best} kept the draw"
    assert [m.mistake for m in review.moves] == [False, True, False, False, False, False, False]
    assert review.moves[-1].words == "a3 won"
    assert review.decided == 2 and review.proven
    assert review.summary == (
        "6 of 7 moves kept the value; 1 mistake: 2. c2 (o), which decided the game (a draw "
        "became a loss in 6 for o). Every value proven."
    )


def test_the_json_is_one_object_of_the_issues_fields() -> None:
    data = api.review(TTT, ["b2", "c2"]).to_dict()
    assert list(data) == ["game", "moves", "summary"]
    assert data["game"] == TTT
    move = data["moves"][1]
    assert {"ply", "move", "player", "before", "after", "mistake", "best"} <= set(move)
    assert move["before"] == {"result": "draw", "plies": 8, "exact": True}
    assert move["after"] == {"result": "loss", "plies": 6, "exact": True}
    assert "decided the game so far" in data["summary"]  # the game goes on


def test_a_mistake_answered_by_a_mistake_the_last_decides() -> None:
    review = api.review(TTT, "b2 a1 a3 c1 b1 c2 c3 b3 a2")
    assert [m.ply for m in review.moves if m.mistake] == [6, 7]
    assert review.moves[6].words == "c3: a win in 1 became a draw; b3 kept the win"
    assert review.decided == 7
    assert "the last decided the game (a win in 1 became a draw for x)" in review.summary


def test_a_game_with_no_mistake_says_how_best_play_ends() -> None:
    assert api.review(TTT, "").summary == "No moves yet: the start is a draw for the first player."
    drawn = api.review(TTT, "b2 a1 a3 c1 b1 b3 c2 a2 c3")
    assert not any(m.mistake for m in drawn.moves)
    assert drawn.summary.endswith(
        "no mistakes. Best play from both sides: a draw. Every value proven."
    )
    # Hexapawn (a plug-in): the second player wins with best play.
    lost = api.review("hexapawn", "a1a2 b3a2 b1a2 c3c2")
    assert "Decided from the start: with best play w loses." in lost.summary
    assert lost.moves[0].words == "a1a2: still a loss, in 4 instead of 6 (b1b2 holds out longer)"


@pytest.mark.slow
def test_plug_ins_that_place_then_move_are_reviewed() -> None:
    # Exact (no budget): the plug-in's default 2 s may not prove the win in 9
    # on a loaded machine, and a value judged is no mistake.
    review = api.review("morris", "b3 b2 a3 c3 a1 a2 a1b1 c3c2", time_limit=math.inf)
    assert review.moves[0].mistake and review.moves[0].words.startswith(
        "b3: a win in 9 became a loss in 8"
    )
    assert review.moves[-1].words == "c3c2 won" and review.proven


def test_illegal_moves_are_named_with_their_number() -> None:
    with pytest.raises(api.IllegalMoveError, match=r"^move 2 \(b2\): "):
        api.review(TTT, "b2 b2")
    with pytest.raises(api.IllegalMoveError, match=r"^move 6 \(c3\): the game is already over"):
        api.review(TTT, "b2 a1 c2 a3 a2 c3")
    with pytest.raises(api.GameError, match="total"):
        api.review(TTT, "b2", total=0)


def test_gomoku_is_judged_where_nothing_is_proven_and_proven_where_it_is() -> None:
    """Gomoku's review: the opening is the engine's judgement, said so; the
    open three left standing is found as the move that lost."""
    moves = "h8 a1 i8 a2 j8 a3 k8 a4 l8"
    review = api.review("gomoku", moves, time_limit=0.2)
    first = review.moves[0]
    assert not first.before.exact and first.before.result == "unknown"
    assert first.words.startswith("h8: not proven")
    assert [m.ply for m in review.moves if m.mistake] == [6]
    assert review.moves[5].words.startswith("a3: an unclear position became a loss in 4 (judged)")
    assert review.moves[-1].words == "l8 won"
    assert not review.proven
    assert review.summary.endswith(
        "Values not proven are the engine's judgement within 0.2 s a position."
    )


def test_the_total_bounds_the_whole_review() -> None:
    """A total far below a position's budget shares itself out: every
    position is still asked (briefly), and the answer comes."""
    review = api.review("gomoku", "h8 h9 i9 g7", time_limit=5, total=0.2)
    assert len(review.moves) == 4 and not review.proven


def test_the_command_line_reviews_in_words_and_json(run_cli: CliRun) -> None:
    code, out, err = run_cli("review", TTT, "b2", "c2", "a1")
    assert code == 0 and not err
    assert "c2: a draw became a loss in 6;" in out and "(mistake)" in out
    assert "1 mistake: 2. c2 (o)" in " ".join(out.split())
    code, out, _ = run_cli("review", TTT, "b2 c2 a1", "--json")
    assert code == 0
    assert json.loads(out) == api.review(TTT, "b2 c2 a1").to_dict()
    code, out, err = run_cli("review", TTT, "b2", "b2")
    assert (
        code == 2
        and not out
        and err.strip() == "unbeatable: error: move 2 (b2): b2 is already taken"
    )


def test_the_http_api_reviews(web_client: TestClient) -> None:
    answer = web_client.post("/api/review", json={"game": TTT, "moves": ["b2", "c2"]})
    assert answer.status_code == 200
    assert answer.json() == api.review(TTT, "b2 c2").to_dict()
    bad = web_client.post("/api/review", json={"game": TTT, "moves": ["b2", "b2"]})
    assert bad.status_code == 400 and bad.json() == {"error": "move 2 (b2): b2 is already taken"}
    wrong = web_client.post("/api/review", json={"game": TTT, "moves": "b2"})
    assert wrong.status_code == 422
    plugin = web_client.post("/api/review", json={"game": "hexapawn", "moves": ["a1a2"]})
    assert plugin.status_code == 200 and plugin.json()["moves"][0]["player"] == "w"


# -- the AI varies among moves of equal value ------------------------------------------


def test_the_ai_varies_among_equal_moves_and_a_seed_replays_it() -> None:
    opened = Counter(api.ai_turn(TTT, "").move.move for _ in range(60))  # type: ignore[union-attr]
    assert len(opened) > 3  # every opening move draws: not always a3
    replies = {api.ai_turn(TTT, ".../.x./... o", seed=s).move.move for s in range(30)}  # type: ignore[union-attr]
    assert replies == {"a1", "a3", "c1", "c3"}  # only the corners keep the draw
    seeded = [api.choose_move(TTT, "", seed=7) for _ in range(3)]
    assert seeded[0] is not None and seeded.count(seeded[0]) == 3


def test_a_loss_is_never_varied_the_most_resisting_defence_stays() -> None:
    position = "..x/.oo/xox x"  # o threatens a2 and b3: every move loses
    best = unbeatable.best_move(TTT, position)
    assert best is not None
    assert {api.choose_move(TTT, position, seed=s).move for s in range(10)} == {best.move}  # type: ignore[union-attr]


def test_equal_moves_on_a_timed_game_are_proven_equal() -> None:
    """On a timed board (4x4, the exact engine's), the moves the AI draws
    from are each proven as good as its own, and the same seed replays."""
    game = "mnk:4,4,4"
    played = {api.choose_move(game, "", seed=s).move for s in range(6)}  # type: ignore[union-attr]
    assert len(played) > 1
    for move in played:
        assert api.solve(game, api.play_move(game, "", move)).result == "draw"
    assert api.choose_move(game, "", seed=3) == api.choose_move(game, "", seed=3)
