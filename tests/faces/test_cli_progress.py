"""Long exact searches: ``--no-book`` proves from scratch, and a search that
takes more than a second shows its progress on the terminal and stops at
Ctrl-C (issue 20, points 3 and 4)."""

from __future__ import annotations

import itertools
import json

from conftest import CliRun
from terminal import interrupted_in_terminal
from unbeatable import api
from unbeatable.cli.progress import progress_line

#: In the opening book (8 stones) and proved fast without it: a win in 5.
IN_BOOK = "51615567"
#: About 70 million nodes without the book: seconds of search, long enough
#: to see the progress line and press Ctrl-C in the middle.
LONG = "13712"


def test_no_book_searches_what_the_book_knows_and_agrees(run_cli: CliRun) -> None:
    code, out, err = run_cli("solve", "connect4", IN_BOOK, "--json")
    assert code == 0, err
    from_book = json.loads(out)
    code, out, err = run_cli("solve", "connect4", IN_BOOK, "--json", "--no-book")
    assert code == 0, err
    searched = json.loads(out)
    assert from_book["nodes"] == 0 and searched["nodes"] > 0
    assert (searched["result"], searched["plies"]) == (from_book["result"], from_book["plies"])
    assert (searched["result"], searched["plies"]) == ("win", 5)
    code, out, err = run_cli("analyze", "connect4", IN_BOOK, "--json", "--no-book")
    assert code == 0, err
    analysed = json.loads(out)
    assert analysed["nodes"] > 0
    assert (analysed["result"], analysed["plies"]) == ("win", 5)
    # Games without a book take the option and search as always.
    code, out, err = run_cli("solve", "tictactoe", "", "--no-book")
    assert code == 0 and "draw" in out


def test_progress_reports_add_up_and_the_window_narrows() -> None:
    reports: list[api.Progress] = []
    solution = api.solve("connect4", "3246313", book=False, progress=reports.append)
    assert len(reports) > 1  # one per slice of the search
    assert sum(report.nodes for report in reports) == solution.nodes
    windows = [(r.low, r.high) for r in reports if r.low is not None and r.high is not None]
    assert windows
    for (low, high), (next_low, next_high) in itertools.pairwise(windows):
        assert low <= next_low and next_high <= high
    assert all(low <= solution.score <= high for low, high in windows)  # type: ignore[operator]


def test_progress_line_says_time_nodes_rate_and_window() -> None:
    line = progress_line(12.4, 96_512_000, 12.0, (-2, 5))
    assert line == "searching: 12 s, 96,512,000 nodes (8.0 M nodes/s), score between -2 and 5"
    assert progress_line(0.6, 0, 0.0, None) == "searching: 1 s"


def test_a_long_solve_shows_progress_on_a_terminal_and_stops_at_ctrl_c() -> None:
    """In a terminal (a pseudo-terminal here): the note, then the progress
    line with nodes and the score window; Ctrl-C ends it at once with one
    line and exit code 130."""
    text = interrupted_in_terminal(["solve", "connect4", LONG, "--no-book"], b"score between", 120)
    assert "can take long" in text and "--time-limit 2" in text
    assert "nodes (" in text and "M nodes/s)" in text
    last = text.replace("\r", "\n").replace("\x1b[K", "").strip().splitlines()[-1]
    assert last.startswith("unbeatable: interrupted after") and "nodes" in last, last
    assert "Traceback" not in text
