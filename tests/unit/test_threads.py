"""The library is safe to call from several threads at once: engines keep
their search state per call, so answers from threads racing on the same
engines and tables are the answers one thread gets (the AI's move: one as
good)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import unbeatable
from connect4_sets import cases
from unbeatable import api

QUERIES = (
    [("tictactoe", p) for p in ["", "x../.../...", "xox/oox/...", "x.o/.x./o.."]]
    + [("connect4", m) for m, _ in cases("Test_L2_R2", 12)]
    + [("mnk:3,4,3", ""), ("mnk:4,4,3", "x.../..../..../...o")]
)


def answer(query: tuple[str, str]) -> tuple[object, ...]:
    game, position = query
    analysis = unbeatable.analyze(game, position)
    solved = unbeatable.solve(game, position)
    move = unbeatable.choose_move(game, position, "impossible", time_limit=120)
    assert move is not None
    # Where the loser has several replies that lose as slowly, which one a
    # line shows depends on what the engine's table held (threads share
    # engines): the line is compared by where it starts and how long it is.
    for m in analysis.moves:
        assert m.line[:1] == (m.move,) and (m.plies is None or len(m.line) <= m.plies)
    values = [(m.move, m.result, m.plies, len(m.line)) for m in analysis.moves]
    # Which of equally good moves a timed search proves first may vary (two
    # tests race), so the AI's move is compared by its value.
    chosen = next((m.result, m.plies) for m in analysis.moves if m.move == move.move)
    return (analysis.result, analysis.plies, values, solved.result, solved.plies, chosen)


def test_threads_get_the_answers_one_thread_gets() -> None:
    alone = [answer(q) for q in QUERIES]
    api.clear_caches()  # the threads start as cold as the single thread did
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(answer, QUERIES * 3))
    assert together == alone * 3
