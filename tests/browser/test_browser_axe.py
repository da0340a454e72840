"""The page checked by axe-core, the accessibility engine most audits use, in
Debian's Chromium: no violation in the views a player and a learner see (the
game at start, a finished game with its move list and explanation, the game on
a phone, Explore open, the Learn view mid-walk and at its cut, Gomoku's board,
a renju hint with its threats and forbidden points marked).

axe-core comes inside the ``axe-playwright-python`` package (axe.min.js, run
in the page with ``page.evaluate``): nothing is fetched at run time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright import sync_api

from test_web_browser import choose_game, hopeless, open_page, play_out

pytestmark = [pytest.mark.browser, pytest.mark.slow]

expect = sync_api.expect
Page = sync_api.Page
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
#: Only violations: the rules passed and not applicable would only make the answer long.
OPTIONS = {"resultTypes": ["violations"]}
#: The Play views also with two rules axe leaves off by default (issue 33):
#: a name must hold what the element shows (label-in-name, experimental),
#: and every target is 24px at least (WCAG 2.2's target size).
PLAY_OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {
        "label-content-name-mismatch": {"enabled": True},
        "target-size": {"enabled": True},
    },
}
DARK = {"color_scheme": "dark"}
#: No animation or transition under way but endless ones.
SETTLED = """() => document.getAnimations().every(
  (a) => a.playState !== "running" || a.effect.getTiming().iterations === Infinity)"""


@contextmanager
def opened(browser: sync_api.Browser, live_server: str, **context: Any) -> Iterator[Page]:
    """A fresh tab on the page (as ``test_web_browser``'s ``page`` fixture,
    with another viewport), closed and checked for foreign fetches and page
    errors afterwards."""
    ctx, tab = open_page(browser, live_server, **context)
    try:
        yield tab
    finally:
        foreign, problems = ctx.checks
        ctx.close()
    assert not foreign and not problems, (foreign, problems)


def at_start(page: Page) -> None:
    expect(page.locator("#board .cell")).to_have_count(9)


def finished(page: Page) -> None:
    """A lost game, explained: the winning line, the last move, the move list."""
    page.get_by_role("switch", name="Explain").check()
    status = play_out(page, "x", hopeless)
    assert status.over
    expect(page.locator(".cell.last")).to_have_count(1)


def on_a_phone(page: Page) -> None:
    page.get_by_role("button", name=re.compile(r"^b2 ")).click()
    expect(page.locator("#board")).to_have_attribute("aria-busy", "false")
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("aria-busy", "false")


def exploring(page: Page) -> None:
    """Explore open, a move opened to its replies (the ARIA tree pattern)."""
    page.get_by_role("button", name=re.compile(r"^b2 ")).click()
    expect(page.locator("#board")).to_have_attribute("aria-busy", "false")
    page.get_by_role("button", name="Explore", exact=True).click()
    tree = page.get_by_role("tree", name=re.compile("^Explore"))
    first = tree.get_by_role("treeitem").nth(1)
    first.focus()
    first.press("ArrowRight")
    expect(first).to_have_attribute("aria-expanded", "true")
    expect(tree.locator('[role="treeitem"][aria-level="3"]').first).to_be_visible()


def learn_mid_walk(page: Page) -> None:
    """Alpha-beta stepped to E (its value known, alpha and beta along the path)."""
    page.get_by_role("tab", name="Learn").click()
    page.get_by_role("checkbox", name="Alpha-beta").check()
    for _ in range(8):
        page.get_by_role("button", name="Step", exact=True).click()
    expect(page.locator("#learn-status")).to_contain_text("Step 8 of")


def learn_at_the_cut(page: Page) -> None:
    """Alpha-beta's last step on the textbook tree: the cut, a leaf pruned
    (pruned values once failed axe's color-contrast)."""
    page.get_by_role("tab", name="Learn").click()
    page.get_by_role("checkbox", name="Alpha-beta").check()
    page.get_by_label("Step of the walk").fill("48")
    expect(page.locator("#learn-status")).to_contain_text("Cut")
    expect(page.get_by_role("treeitem", name=re.compile("pruned"))).to_have_count(1)


def gomoku(page: Page) -> None:
    choose_game(page, "gomoku")
    expect(page.locator("#board .cell")).to_have_count(225)


def renju_hint(page: Page) -> None:
    """A hint in renju: white's open three ringed, black's forbidden point
    (h8, a double three) crossed, the legend saying both."""
    moves = "f8 c3 g8 d3 h9 e3 h10 a15"
    page.goto(f"{page.url.split('#')[0]}#game=renju&side=x&moves={moves.replace(' ', '%20')}")
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("aria-busy", "false")
    expect(page.locator('#board .cell[data-threat="three"]')).to_have_count(3)
    h8 = page.get_by_role("button", name=re.compile(r"^h8 "))
    expect(h8).to_have_attribute("aria-label", "h8 empty, forbidden for black: double three")
    expect(page.locator("#legend-forbidden")).to_be_visible()


def link(moves: str, game: str = "tictactoe", side: str = "x") -> Callable[[Page], None]:
    """A finished game opened from its link: its end, result and review."""

    def reach(page: Page) -> None:
        page.goto(f"{page.url.split('#')[0]}#game={game}&side={side}&moves={moves}")
        page.reload()
        expect(page.locator("#review-summary")).to_contain_text("kept the value", timeout=20_000)

    return reach


def stepping(page: Page) -> None:
    """A finished game stepped back to its mistake: the board read-only."""
    link("b2+c2+a1+c3+c1+b1+a3")(page)
    page.get_by_role("list", name="Moves of the game").get_by_role("button").nth(1).click()
    expect(page.locator("#status")).to_contain_text("Move 2 of 7")


def phone_gomoku(page: Page) -> None:
    """Gomoku on a phone: 24px cells, a game under way with a hint on them."""
    page.goto(f"{page.url.split('#')[0]}#game=gomoku&side=o&moves=h8+h9+i8+i9+j8")
    expect(page.locator("#status")).to_contain_text("Your turn", timeout=20_000)
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("aria-busy", "false", timeout=20_000)


VIEWS: dict[str, tuple[dict[str, Any], Callable[[Page], None]]] = {
    "play at start": (DESKTOP, at_start),
    "a finished game": (DESKTOP, finished),
    "a finished game, dark": ({**DESKTOP, **DARK}, finished),
    "a finished 5x5 game": (DESKTOP, link("a1+a5+b1+b5+c1+c5+d1", "mnk:5,5,4")),
    "a finished hexapawn game": (DESKTOP, link("a1a2+b3a2+b1a2+c3c2", "hexapawn", "w")),
    "stepping through a game": (DESKTOP, stepping),
    "stepping through a game, dark": ({**DESKTOP, **DARK}, stepping),
    "a finished game on a phone": (PHONE, link("b2+c2+a1+c3+c1+b1+a3")),
    "gomoku on a phone": (PHONE, phone_gomoku),
    "play on a phone": (PHONE, on_a_phone),
    "play on a phone, dark": ({**PHONE, **DARK}, on_a_phone),
    "explore": (DESKTOP, exploring),
    "explore, dark": ({**DESKTOP, **DARK}, exploring),
    "explore on a phone": (PHONE, exploring),
    "learn mid-walk": (DESKTOP, learn_mid_walk),
    "learn at the cut": (DESKTOP, learn_at_the_cut),
    "gomoku": (DESKTOP, gomoku),
    "renju hint": (DESKTOP, renju_hint),
}


def violations(page: Page, options: dict[str, Any] = OPTIONS) -> list[str]:
    """axe-core's violations on the page as it is, one line each: the rule,
    its impact and the elements it found. It waits for the page to settle
    first: a mark still appearing or a board still fading is seen by axe at
    part of its contrast (endless animations, the busy bar, are left to run)."""
    page.wait_for_function(SETTLED)
    results = Axe().run(page, options=options)
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"])
        for v in results.response["violations"]
    ]


@pytest.mark.parametrize("view", list(VIEWS))
def test_axe_finds_no_violation(browser: sync_api.Browser, live_server: str, view: str) -> None:
    context, reach = VIEWS[view]
    with opened(browser, live_server, **context) as page:
        reach(page)
        play = page.get_by_role("tab", name="Play").get_attribute("aria-selected") == "true"
        found = violations(page, PLAY_OPTIONS if play else OPTIONS)
    assert not found, "\n".join(found)
