"""Gomoku on the page, in Debian's Chromium: the 15x15 board in view and
readable on a phone upright and sideways and on a desktop, the last move
marked on every game, hints and explanations whose words are true when values
are not proven (and say a win by continuous fours), Explore bounded on a big
board, the Learn view usable on a phone.

A game can only start from the empty board on the page; where a test needs a
position, the server's first view of the game is replaced by that position's
view (the page holds no rules: it plays on from whatever the server shows).
The README's Gomoku screenshots: tests/browser/test_browser_screenshots.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright import sync_api

from test_web_browser import (
    cell,
    choose_game,
    column,
    open_page,
    page,
    position,
    settle,
    start_at,
)
from unbeatable.games import get_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["page"]  # the shared fixture, used here

expect = sync_api.expect
Page = sync_api.Page
#: x to move wins by continuous fours in 3 with l8 (two fours at once).
DOUBLE_FOUR = ["i8", "h8", "j8", "a1", "k8", "o1", "l9", "l12", "l10", "a15", "l11", "o15"]
#: o to move after x's l8: every move loses in 2.
LOST = [*DOUBLE_FOUR, "l8"]
#: The issue's game: o to move, x's four g8-j11 to block at k12.
ISSUE = [
    *("h8", "i9", "j8", "j9", "h9", "i8", "h7", "h6", "i10", "h10", "g8", "f7", "g9", "i6"),
    *("j6", "i7", "i5", "g6", "g11", "g10", "h11", "f11", "k7", "l8", "e9", "e8", "j11"),
]
#: The smallest cell we call readable, in CSS pixels.
READABLE = 19


def last_marked(page: Page) -> list[str]:
    labels = page.locator('#board [aria-label*="last move"]').evaluate_all(
        "cells => cells.map((c) => c.getAttribute('aria-label'))"
    )
    return list(labels)


# -- the board ---------------------------------------------------------------------------


def test_gomoku_plays_and_marks_the_ais_last_move(page: Page) -> None:
    choose_game(page, "gomoku")
    expect(page.locator("#board .cell")).to_have_count(225)
    axis = page.locator("#board .axis").all_inner_texts()
    assert axis[1:16] == list("abcdefghijklmno") and "15" in axis and "1" in axis
    cell(page, "h8").click()
    settle(page)
    pos = position(page)
    rules = get_game("gomoku")
    board = rules.grid(rules.parse(pos)).split("/")
    ai = [
        rules.format_move(r * 15 + c)
        for r, row in enumerate(board)
        for c, mark in enumerate(row)
        if mark == "o"
    ]
    assert len(ai) == 1
    assert last_marked(page) == [f"{ai[0]} o, taken, last move"]
    ring = cell(page, ai[0]).evaluate("c => getComputedStyle(c).boxShadow")
    assert ring != "none"
    expect(page.locator("#status")).to_contain_text(f"The AI played {ai[0]}")
    # Undo takes the marks back; nothing is marked on an empty board.
    page.get_by_role("button", name="Undo", exact=True).click()
    assert last_marked(page) == []


def test_the_last_move_is_marked_on_every_game(page: Page) -> None:
    cell(page, "b2").click()
    settle(page)
    marked = last_marked(page)
    assert len(marked) == 1 and marked[0].endswith("o, taken, last move")
    page.once("dialog", lambda d: d.accept())  # the game in progress is discarded
    choose_game(page, "connect4")
    column(page, "4").click()
    settle(page)
    label = page.locator("#board .column.last, #board .slot.last").count()
    assert label == 1
    assert len(last_marked(page)) == 1 and "last move o" in last_marked(page)[0]
    dot = page.locator(".slot.last .disc").evaluate(
        "d => getComputedStyle(d, '::after').backgroundColor"
    )
    assert dot == "rgb(255, 255, 255)"


@pytest.mark.parametrize(
    ("width", "height", "touch"),
    [(390, 844, True), (844, 390, True), (1280, 800, False), (1024, 640, False)],
)
def test_the_15x15_board_fits_and_stays_readable(
    browser: sync_api.Browser, live_server: str, width: int, height: int, touch: bool
) -> None:
    ctx, tab = open_page(
        browser,
        live_server,
        viewport={"width": width, "height": height},
        has_touch=touch,
        is_mobile=touch,
    )
    try:
        choose_game(tab, "gomoku")
        box = tab.locator("#board").bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert tab.locator("body").evaluate("b => b.scrollWidth") <= width
        sizes = tab.locator(".cell").evaluate_all(
            "cells => cells.map((c) => c.getBoundingClientRect().width)"
        )
        assert min(sizes) >= READABLE and max(sizes) - min(sizes) < 1, (min(sizes), max(sizes))
        # The status line is in view too, beside or above the board.
        status = tab.locator("#status").bounding_box()
        assert status is not None and status["y"] + status["height"] <= height
    finally:
        ctx.close()


# -- words: threats, unproven values -------------------------------------------------------


def test_hint_says_a_win_by_continuous_fours(page: Page) -> None:
    start_at(page, "gomoku", DOUBLE_FOUR)
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    expect(page.locator("#hint-text")).to_contain_text(
        "(win in 3): it makes a double four (i8\N{EN DASH}l8, l8\N{EN DASH}l11); "
        "x wins by continuous fours in 3: l8"
    )
    expect(cell(page, "l8")).to_have_attribute("aria-label", re.compile(r"hint: win in 3$"))
    # Only proven values are on the board: no question marks.
    badges = page.locator("#board .value").all_inner_texts()
    assert "?" not in badges and "W3" in badges


def test_explain_lists_a_big_boards_best_moves_only(page: Page) -> None:
    page.get_by_role("switch", name="Explain").check()
    start_at(page, "gomoku", DOUBLE_FOUR[:-1])  # o to move: the AI must stop l8
    settle(page)
    expect(page.locator("#status")).to_contain_text("The AI played l8")
    items = page.locator("#considered li").all_inner_texts()
    assert 2 <= len(items) <= 10, items  # not 214 rows: equal values in one line
    assert items[0].startswith("▶ l8") and "takes the point of x's double four" in items[0]
    assert any("x answers l8 and wins by continuous fours in 3: l8" in item for item in items)
    assert last_marked(page) == ["l8 o, taken, last move"]


def unknown_everywhere(route: Any) -> None:
    """The real answer with every value unknown: what a budget too short to
    prove anything gives (5x5 four in a row, before its exact engine)."""
    response = route.fetch()
    data = response.json()
    for value in data["analysis"]["moves"]:
        value.update(result="unknown", plies=None, score=None, line=[value["move"]])
    analysis = data["analysis"]
    analysis.update(result="unknown", plies=None, score=None, exact=False)
    # With nothing proven, the engine's pick is the move it played (the AI
    # drew it among moves of equal value, which the real answer had).
    analysis["best"] = data["move"]
    analysis["line"] = [analysis["best"]["move"]]
    data["proven"] = False
    # The game's words were said of the real values: the page says its own.
    analysis.pop("explanation", None)
    for value in analysis["moves"]:
        value.pop("notes", None)
    route.fulfill(response=response, body=json.dumps(data))


@pytest.mark.parametrize("level", ["impossible", "easy"])
def test_explain_is_true_when_nothing_is_proven(page: Page, level: str) -> None:
    """The issue's '…from both sides. was better (unknown); at this level the
    AI makes mistakes.': no sentence without a subject, no false comparison."""
    choose_game(page, "mnk:5,5,4")
    page.get_by_label("Difficulty").select_option(level)
    page.get_by_role("switch", name="Explain").check()
    page.route("**/api/move", unknown_everywhere)
    cell(page, "c3").click()
    settle(page)
    summary = page.locator("#explain-summary").inner_text()
    assert "was better" not in summary and " . " not in summary and "unknown" not in summary
    assert "No move was proven to win or draw within the time limit" in summary
    if level == "impossible":
        assert "is the engine's best guess" in summary
    items = page.locator("#considered li").all_inner_texts()
    assert len(items) <= 12
    assert any("not proven within the time limit" in item for item in items)
    assert items[-1].endswith("not proven.")  # the rest, counted


def test_explain_says_why_k12_in_the_games_words(page: Page) -> None:
    """The issue: after ISSUE the AI blocks at k12. Not "k12: not proven"
    and "a15 (loss in 2): X answers k12 and wins" nine times: what k12 does,
    that it is the only move, and the other 197 moves in one line."""
    page.get_by_role("switch", name="Explain").check()
    start_at(page, "gomoku", ISSUE)
    expect(page.locator("#status")).to_contain_text("The AI played k12")
    four = "x's four (g8\N{EN DASH}j11)"
    expect(page.locator("#explain-summary")).to_contain_text(
        f"k12 is the only move: every other loses to {four}."
    )
    items = page.locator("#considered li").all_inner_texts()
    assert items[0].startswith("▶ k12 (") and items[0].endswith(f"blocks {four}.")
    assert len(items) == 2 and re.search(r"and 19\d others \(loss in 2\): x answers k12", items[1])


def test_hint_says_once_that_every_move_loses(browser: sync_api.Browser, live_server: str) -> None:
    """You play o after x's double four: one sentence, not "Equally good:
    a15, b15, c15… and 210 others" and L2 on every cell; x's fours ringed."""
    ctx, tab = open_page(browser, live_server)
    try:
        tab.goto(f"{live_server}/#game=gomoku&side=o&moves={'%20'.join(LOST)}")
        expect(tab.locator("#status")).to_contain_text("Your turn", timeout=20_000)
        tab.get_by_role("button", name="Hint", exact=True).click()
        settle(tab)
        expect(tab.locator("#hint-text")).to_have_text(
            "Every move loses in 2: x has two fours (i8\N{EN DASH}l8, l8\N{EN DASH}l11)."
        )
        badges = [b for b in tab.locator("#board .value").all_inner_texts() if b]
        assert badges == ["L2"]  # the move that holds out (a block), not 212 of them
        expect(tab.locator("#legend-crowd")).to_have_text(
            "Left unmarked: 211 moves that lose in 2."
        )
        ringed = tab.locator('#board .cell[data-threat="four"]')
        expect(ringed).to_have_count(7)  # i8 j8 k8 l8, l9 l10 l11
        expect(cell(tab, "i8")).to_have_attribute(
            "aria-label", "i8 x, taken, in x's four (i8\N{EN DASH}l8)"
        )
    finally:
        ctx.close()


def test_explore_stays_bounded_on_a_big_board(page: Page) -> None:
    start_at(page, "gomoku", DOUBLE_FOUR)
    page.get_by_role("button", name="Explore").click()
    tree = page.get_by_role("tree", name="Explore the tree below this position")
    win = tree.get_by_role("treeitem", name=re.compile(r"^l8: win in 3, best"))
    expect(win).to_have_count(1, timeout=20_000)
    items = tree.get_by_role("treeitem")
    assert items.count() <= 12  # the root, the best few, not 213 rows
    expect(tree.locator(".note", has_text="more moves")).to_have_count(1)
    win.focus()
    page.keyboard.press("ArrowRight")
    expect(win).to_have_attribute("aria-expanded", "true", timeout=20_000)
    # The tree is flat: the replies are the rows a level deeper.
    assert tree.locator('[role="treeitem"][aria-level="3"]').count() <= 11


def test_learn_is_usable_on_a_phone(browser: sync_api.Browser, live_server: str) -> None:
    ctx, tab = open_page(
        browser, live_server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        choose_game(tab, "gomoku")
        tab.get_by_role("tab", name="Learn").click()
        tree = tab.get_by_role("tree", name="Game tree")
        expect(tree.get_by_role("treeitem", name=re.compile(r"^MAX A "))).to_be_visible()
        tab.get_by_role("checkbox", name="Alpha-beta").check()
        tab.get_by_label("Step of the walk").fill("57")  # the walk's end (Run plays it)
        root = tree.get_by_role("treeitem", name=re.compile(r"^MAX A 12, the root"))
        expect(root).to_be_visible()
        assert tab.locator("body").evaluate("b => b.scrollWidth") <= 390
        tab.get_by_role("tab", name="Play").click()
        expect(tab.locator("#board .cell")).to_have_count(225)
    finally:
        ctx.close()
