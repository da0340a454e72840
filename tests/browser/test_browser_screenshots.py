"""The README's screenshots, taken in Debian's Chromium: the only place that
writes them. Each test brings the page to what the README's caption says and
checks it is so before the picture is taken.

They go to docs/ only when asked, with ``UNBEATABLE_SCREENSHOTS=1``
(``UNBEATABLE_SCREENSHOTS=1 .venv/bin/python -m pytest -m browser
tests/browser/test_browser_screenshots.py``);
otherwise to pytest's temporary folder, so that an ordinary run still checks
that each view can be reached and drawn.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright import sync_api

from test_browser_gomoku import ISSUE
from test_web_browser import (
    choose_game,
    count,
    hopeless,
    open_page,
    page,
    play_out,
    settle,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["page"]  # the shared fixture, used here

expect = sync_api.expect
Page = sync_api.Page
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """docs/ when the screenshots are asked for, else a temporary folder."""
    if os.environ.get("UNBEATABLE_SCREENSHOTS") == "1":
        return DOCS
    return tmp_path


def take(page: Page, path: Path, full_page: bool = True) -> None:
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    assert path.stat().st_size > 10_000


def test_play_a_finished_game(page: Page, folder: Path) -> None:
    """docs/screenshot.png: a game the AI won, explained, its last move ringed,
    its winning line named, its review beside the board, the move list below
    the settings."""
    page.get_by_role("switch", name="Explain").check()
    status = play_out(page, "x", hopeless)
    assert status.winner == "o"
    expect(page.locator("#status")).to_contain_text("The AI wins")
    expect(page.locator(".cell.last")).to_have_count(1)
    expect(page.locator(".cell.win")).to_have_count(3)
    expect(page.locator("#explanation")).to_be_visible()
    moves = page.get_by_label("Moves", exact=True)
    expect(moves).to_be_visible()
    # The whole game, ending with the ringed move.
    record = moves.input_value().split()
    last = page.locator(".cell.last").get_attribute("aria-label") or ""
    assert len(record) == count(page, "x") + count(page, "o")
    assert last.startswith(f"{record[-1]} o, ")
    expect(page.locator("#review-summary")).to_contain_text("decided the game")
    take(page, folder / "screenshot.png")


def test_learn_mid_walk(page: Page, folder: Path) -> None:
    """docs/learn.png: alpha-beta on the textbook tree, stepped partway: the
    current node, alpha and beta along the path, the step's narrative, the
    pseudocode with the line the step ran."""
    page.get_by_role("tab", name="Learn").click()
    tree = page.get_by_role("tree", name="Game tree")
    expect(tree.get_by_role("treeitem", name=re.compile(r"^MAX A "))).to_be_visible()
    page.get_by_role("checkbox", name="Alpha-beta").check()
    page.get_by_label("Step of the walk").fill("22")
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.locator("#learn-status")).to_contain_text("Step 23 of 57")
    expect(page.locator("#learn-status")).to_contain_text("MIN above will avoid E")
    expect(tree.locator('[aria-current="step"]')).to_have_count(1)
    expect(page.locator("#learn-code-lines [aria-current=step]")).to_contain_text("then return v")
    take(page, folder / "learn.png")


def test_learn_practice(page: Page, folder: Path) -> None:
    """docs/learn-practice.png: the practice checked, each node's value
    predicted on the tree, right and wrong marked, why, and the score."""
    page.get_by_role("tab", name="Learn").click()
    page.get_by_role("switch", name="Practice").check()
    tree = page.get_by_role("list", name=re.compile("^Practice tree"))
    for name, value in (("MAX A", "12"), ("MIN B", "9"), ("MIN C", "12"), ("MAX D", "5")):
        tree.get_by_role("textbox", name=f"{name}: your value").fill(value)
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("#learn-score")).to_have_text("Score: 3 of 7 right.")
    expect(page.locator("#learn-feedback li").nth(1)).to_contain_text("MIN B: you said 9")
    page.get_by_role("switch", name="Practice").focus()
    take(page, folder / "learn-practice.png")


def test_gomoku(browser: sync_api.Browser, live_server: str, folder: Path) -> None:
    """docs/gomoku*.png: the AI blocking x's four at k12, its explanation in
    the game's words (the only move; every other move in one line) and the
    move list (desktop), and the board on a phone upright and sideways."""
    sizes = {
        "gomoku.png": (1100, 820),
        "gomoku-phone.png": (390, 844),
        "gomoku-landscape.png": (844, 390),
    }
    for name, (width, height) in sizes.items():
        mobile = width < 900
        ctx, tab = open_page(
            browser,
            live_server,
            viewport={"width": width, "height": height},
            has_touch=mobile,
            is_mobile=mobile,
        )
        try:
            if not mobile:
                tab.get_by_role("switch", name="Explain").check()
            # Set up as a player would, with the move list: it then shows the whole game.
            choose_game(tab, "gomoku")
            tab.get_by_label("Moves", exact=True).fill(" ".join(ISSUE))
            tab.get_by_role("button", name="Set up", exact=True).click()
            settle(tab)
            expect(tab.locator("#status")).to_contain_text("The AI played k12")
            if not mobile:
                expect(tab.locator("#explain-summary")).to_contain_text(
                    "k12 is the only move: every other loses to x's four (g8\N{EN DASH}j11)."
                )
            # Set up, clicked, scrolled the phone down and left the pointer over it.
            tab.evaluate("window.scrollTo(0, 0)")
            tab.mouse.move(0, 0)
            take(tab, folder / name, full_page=not mobile)
        finally:
            ctx.close()


def test_review(browser: sync_api.Browser, live_server: str, folder: Path) -> None:
    """docs/review.png: a finished Connect Four game looked back on, stepped
    back to the mistake that decided it: the board as it was then, the
    numbered moves with their words, the mistake marked, the game in one
    line; docs/review-dark.png the same in the dark theme."""
    moves = "4+4+4+4+4+3+3+5+5+6+2+6+6+2+2+7+7+7+7"
    for name, scheme in (("review.png", "light"), ("review-dark.png", "dark")):
        ctx, tab = open_page(
            browser, live_server, viewport={"width": 1280, "height": 800}, color_scheme=scheme
        )
        try:
            tab.goto(f"{live_server}/#game=connect4&side=o&moves={moves}")
            tab.reload()
            summary = tab.locator("#review-summary")
            expect(summary).to_contain_text("decided the game", timeout=30_000)
            mistake = tab.locator("#review-moves li.mistake button").last
            mistake.click()
            expect(tab.locator("#status")).to_contain_text("End returns to the game")
            tab.mouse.move(0, 0)
            take(tab, folder / name, full_page=False)
        finally:
            ctx.close()


def test_phone(browser: sync_api.Browser, live_server: str, folder: Path) -> None:
    """docs/phone.png: tic-tac-toe on a phone, Explore open right below the
    board and the Move field, a reply opened."""
    ctx, tab = open_page(
        browser,
        live_server,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    try:
        tab.get_by_role("button", name=re.compile(r"^b2 ")).tap()
        settle(tab)
        tab.get_by_role("button", name="Explore", exact=True).click()
        tree = tab.get_by_role("tree", name="Explore the tree below this position")
        expect(tree.get_by_role("treeitem").nth(1)).to_be_visible()
        tab.evaluate("window.scrollTo(0, 0)")
        take(tab, folder / "phone.png", full_page=False)
    finally:
        ctx.close()
