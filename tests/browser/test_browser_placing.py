"""A plug-in game that places, then moves its pieces, on the page in Debian's
Chromium: Three Men's Morris (examples/morris). While pieces are put down the
page says to choose an empty cell, never to choose one of your pieces, and a
click on a taken cell says it is taken; once every piece is down, a move is
chosen from-then-to as in Hexapawn. Nothing on the page knows Three Men's
Morris: it reads each move's ``origin`` in the server's view."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright import sync_api

from test_web_browser import choose_game, open_page, position, settle
from unbeatable import api

pytest.importorskip(
    "unbeatable_morris",
    reason="the example plug-in (pip install -e examples/morris) is not installed",
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

expect = sync_api.expect
Page = sync_api.Page
GAME = "morris"
#: What the page says of a move only where pieces move from cell to cell.
PIECES = re.compile("choose one of your pieces", re.IGNORECASE)


@pytest.fixture
def page(browser: sync_api.Browser, live_server: str) -> Iterator[Page]:
    ctx, tab = open_page(browser, live_server, viewport={"width": 1280, "height": 900})
    yield tab
    foreign, problems = ctx.checks
    ctx.close()
    assert not foreign and not problems, (foreign, problems)


def square(page: Page, name: str) -> sync_api.Locator:
    return page.get_by_role("button", name=re.compile(rf"^{name}[ ,]"))


def sent(page: Page) -> list[str]:
    """Every move the page sends from now on."""
    moves: list[str] = []

    def seen(request: sync_api.Request) -> None:
        if request.url.endswith("/api/position") and request.method == "POST":
            body = json.loads(request.post_data or "{}")
            if "move" in body:
                moves.append(body["move"])

    page.on("request", seen)
    return moves


def test_placing_says_empty_cells_and_moving_says_pieces(page: Page) -> None:
    keys, status = page.locator("#keys"), page.locator("#status")
    choose_game(page, GAME)
    expect(keys).to_have_text(
        "Choose an empty cell to put a piece there (a click, or Enter or Space); "
        "arrow keys move around the board."
    )
    moves = sent(page)
    square(page, "b2").click()
    settle(page)
    assert moves == ["b2"]
    board = api.get_game(GAME).parse(position(page)).cells
    assert board.count("o") == 1 and board[4] == "x"  # the AI put one down
    taken = "abc"[board.index("o") % 3] + "321"[board.index("o") // 3]
    # A taken cell, the AI's or yours: taken, whoever's piece is on it (a
    # mouse may click a cell marked aria-disabled; Playwright must be told).
    for name in (taken, "b2"):
        expect(square(page, name)).to_have_attribute("aria-disabled", "true")
        square(page, name).click(force=True)
        expect(status).to_have_text(f"{name} is taken: choose an empty cell.")
        expect(page.locator(".cell.selected")).to_have_count(0)
        assert not PIECES.search(keys.inner_text())
    assert moves == ["b2"]
    # Every piece down: a move is chosen by its piece, then where it goes.
    page.get_by_label("Moves", exact=True).fill("xoo/.xx/o.. x 6")
    page.once("dialog", lambda d: d.accept())  # the game in progress is discarded
    page.get_by_role("button", name="Set up", exact=True).click()
    settle(page)
    expect(keys).to_have_text(
        "Choose one of your pieces, then the cell it goes to (a click, or Enter or Space); "
        "arrow keys move around the board; Escape lets go of the piece."
    )
    square(page, "a3").click()
    expect(status).to_have_text("a3 chosen: it can go to a2. Choose where (Escape lets go).")
    square(page, "a2").click()
    settle(page)
    assert moves[-1] == "a3a2"
    expect(status).to_contain_text("You win!")
