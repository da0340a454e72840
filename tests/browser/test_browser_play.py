"""Playing on the page as on the best game sites, in Debian's Chromium: the last
move marked, a win, a loss and a draw each with its own look (the marks still
told apart in a draw), errors as alerts, a visible pending state for every
request, Explore never left on an old position, a confirmation before a game
in progress is thrown away, Connect Four named by columns. Each test is named
after what a player saw go wrong (issue 19).

Slow answers are made by holding a request until the test lets it go, so no
test depends on timing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from test_web_browser import (
    WIN_GREEN,
    cell,
    choose_game,
    column,
    count,
    fail_next_move,
    hopeless,
    open_page,
    perfect,
    play_out,
    position,
    settle,
    start_at,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

expect = sync_api.expect
Page = sync_api.Page
TTT = "tictactoe"
#: Where the screenshots to look at go (when the folder exists).
SHOTS = Path("/work/helper-play")


@pytest.fixture
def page(browser: sync_api.Browser, live_server: str) -> Iterator[Page]:
    ctx, tab = open_page(browser, live_server, viewport={"width": 1280, "height": 900})
    yield tab
    foreign, problems = ctx.checks
    ctx.close()
    assert not foreign and not problems, (foreign, problems)


def style(locator: sync_api.Locator, prop: str) -> str:
    return str(locator.evaluate(f"e => getComputedStyle(e).{prop}"))


def shot(page: Page, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name), full_page=True, animations="disabled")


class Held:
    """Requests to ``pattern`` held until released: the page's pending state
    can be looked at for as long as the test likes."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.routes: list[Any] = []
        self.on = True
        page.route(pattern, self._hold)

    def _hold(self, route: Any) -> None:
        if self.on:
            self.routes.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.on = False
        while self.routes:
            self.routes.pop().continue_()


# -- the last move ----------------------------------------------------------------


def test_the_last_move_of_either_side_stays_marked(page: Page) -> None:
    cell(page, "b2").click()
    settle(page)
    ai = [
        c
        for c in ("a3", "b3", "c3", "a2", "c2", "a1", "b1", "c1")
        if "o" in (cell(page, c).get_attribute("aria-label") or "")
    ]
    assert len(ai) == 1
    marked = page.locator(".cell.last")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("aria-label", re.compile(rf"^{ai[0]} o, taken, last move"))
    assert style(marked, "boxShadow") != "none"
    assert style(page.locator(".cell", has_text="x").first, "boxShadow") == "none"
    shot(page, "last-move-desktop.png")


# -- results --------------------------------------------------------------------------


def test_a_win_a_loss_and_a_draw_each_look_their_own(page: Page) -> None:
    looks: dict[str, str] = {}
    # A loss: the AI's line is not your win's green.
    play_out(page, "x", hopeless)
    expect(page.locator("#board")).to_have_attribute("data-result", "loss")
    expect(page.locator("#status-box")).to_have_attribute("data-kind", "loss")
    line = page.locator(".cell.win").first
    assert style(line, "backgroundColor") != WIN_GREEN
    looks["loss"] = style(page.locator("#status"), "backgroundColor")
    loss_line = style(line, "backgroundColor")
    # A win (the game before is over: nothing to confirm).
    start_at(page, TTT, ["a3", "b3", "a2", "b2"])  # x to move: a1 wins at once
    cell(page, "a1").click()
    settle(page)
    expect(page.locator("#board")).to_have_attribute("data-result", "win")
    expect(page.locator("#status")).to_contain_text("You win!")
    assert style(page.locator(".cell.win").first, "backgroundColor") == WIN_GREEN != loss_line
    looks["win"] = style(page.locator("#status"), "backgroundColor")
    # A draw: both sides' marks keep their own colours.
    page.unroute("**/api/position")
    page.get_by_role("button", name="New Game", exact=True).click()
    settle(page)
    play_out(page, "x", perfect)
    expect(page.locator("#board")).to_have_attribute("data-result", "draw")
    looks["draw"] = style(page.locator("#status"), "backgroundColor")
    x = page.locator('.cell[data-mark="x"] .mark').first
    o = page.locator('.cell[data-mark="o"] .mark').first
    assert style(x, "color") != style(o, "color")
    assert len(set(looks.values())) == 3, looks
    shot(page, "draw-desktop.png")


# -- errors and pending requests ------------------------------------------------------


def test_an_error_is_an_alert_and_goes_when_retried(page: Page) -> None:
    fail_next_move(page)
    normal = style(page.locator("#status"), "backgroundColor")
    cell(page, "b2").click()
    settle(page)
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("The AI could not answer: the engine is busy")
    assert style(alert, "backgroundColor") != normal
    shot(page, "error-desktop.png")
    page.get_by_role("button", name="Retry").click()
    settle(page)
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.get_by_role("status").first).to_contain_text("Your turn")


def test_every_request_shows_it_is_pending_on_the_board(page: Page) -> None:
    board = page.locator("#board")
    moves = Held(page, "**/api/move")
    cell(page, "b2").click()
    # Your move is on the board, greyed with the rest while the AI thinks.
    expect(page.locator("#status")).to_contain_text("is thinking")
    expect(board).to_have_attribute("aria-busy", "true")
    expect(board).to_have_css("opacity", "0.6")
    moves.release()
    settle(page)
    expect(board).to_have_css("opacity", "1")
    # Your move's status changes at once, before the server has answered.
    views = Held(page, "**/api/position")
    # A corner the AI left free (it draws among its equally good replies).
    rows = position(page).split()[0].split("/")
    corners = (("a", 1), ("c", 1), ("a", 3), ("c", 3))
    free = next(f"{c}{r}" for c, r in corners if rows[3 - r]["abc".index(c)] == ".")
    cell(page, free).click()
    expect(page.locator("#status")).to_contain_text(f"You played {free}; sending it")
    expect(board).to_have_attribute("aria-busy", "true")
    views.release()
    settle(page)
    # New Game: the old board greys and the status changes at once.
    views = Held(page, "**/api/position")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="New Game", exact=True).click()
    expect(page.locator("#status")).to_have_text("Starting a new game…")
    expect(board).to_have_css("opacity", "0.6")
    shot(page, "pending-desktop.png")
    views.release()
    settle(page)
    expect(page.locator("#status")).to_contain_text("New game")
    assert position(page) == ".../.../... x"


# -- Explore, confirmation ----------------------------------------------------------------


def test_explore_never_stays_on_an_old_position(page: Page) -> None:
    page.get_by_role("button", name="Explore").click()
    tree = page.get_by_role("tree", name="Explore the tree below this position")
    expect(tree.get_by_role("treeitem", name=re.compile(r"^a3: draw"))).to_have_count(1)
    cell(page, "a3").click()
    expect(tree).to_be_hidden()
    expect(page.get_by_role("button", name="Explore")).to_have_attribute("aria-expanded", "false")
    settle(page)
    page.get_by_role("button", name="Explore").click()
    # The tree is below the position on show: seven moves, a3 not among them.
    expect(tree.get_by_role("treeitem", name=re.compile(r"^[a-c][1-3]: "))).to_have_count(7)
    expect(tree.get_by_role("treeitem", name=re.compile(r"^a3: "))).to_have_count(0)


@pytest.mark.parametrize("button", ["New Game", "Play Game"])
def test_a_new_game_asks_before_discarding_one_in_progress(page: Page, button: str) -> None:
    cell(page, "b2").click()
    settle(page)
    before = position(page)
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_role("button", name=button, exact=True).click()
    assert asked and "discarded" in asked[0]
    assert position(page) == before
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name=button, exact=True).click()
    settle(page)
    assert count(page, "x") == (1 if button == "Play Game" else 0)


# -- Connect Four: columns by name ------------------------------------------------------


def test_connect4_names_columns_and_never_calls_an_open_one_full(page: Page) -> None:
    choose_game(page, "connect4")
    start_at(page, "connect4", ["4", "4", "5", "5", "6", "6"])  # Red (x) wins with 3 or 7
    column(page, "7").click()
    settle(page)
    expect(page.locator("#status")).to_contain_text("You win!")
    for label in "1234567":
        expect(column(page, label)).not_to_have_attribute("aria-label", re.compile("full"))
    expect(column(page, "7")).to_have_attribute("aria-disabled", "true")


def test_connect4_explanations_and_explore_say_column(page: Page) -> None:
    choose_game(page, "connect4")
    page.get_by_role("switch", name="Explain").check()
    start_at(page, "connect4", ["4", "4", "5", "5"])
    column(page, "6").click()  # three in a row, open at both ends: Yellow loses
    settle(page)
    items = page.locator("#considered li").all_inner_texts()
    assert items and all(not re.search(r"answers \d", item) for item in items), items
    assert any("Red (x) answers column" in item for item in items), items
    # Each a sentence: "Column 1 (loss in 2, best): ...".
    assert all(item.lstrip("▶ ").startswith("Column ") for item in items), items
    page.once("dialog", lambda d: d.accept())
    start_at(page, "connect4", ["4", "4", "5", "5", "1"])  # Yellow (o) plays: the AI answers
    page.get_by_role("button", name="Explore").click()
    tree = page.get_by_role("tree", name="Explore the tree below this position")
    first = tree.get_by_role("treeitem", name=re.compile(r"^column 1: "))
    expect(first).to_have_count(1)
    expect(first).to_have_attribute("aria-label", re.compile(r"^column 1: \w+( in \d+)?"))
    expect(first).to_have_accessible_description("Red (x)'s move")
    expect(tree.get_by_text("Red (x) to move:", exact=True)).to_have_count(1)


# -- the game in the address, the move list ------------------------------------------------


def test_a_reload_resumes_the_game_in_progress(page: Page) -> None:
    page.get_by_role("radio", name="O").check()  # a new game: the AI opens
    settle(page)
    page.get_by_role("switch", name="Explain").check()
    ai = page.get_by_role("textbox", name="Moves").input_value()
    empty = [m for m in ("b2", "a3") if m != ai]
    cell(page, empty[0]).click()
    settle(page)
    before = position(page)
    moves = page.get_by_role("textbox", name="Moves").input_value()
    assert len(moves.split()) == 3 and moves.split()[:2] == [ai, empty[0]]
    page.reload()
    expect(page.locator("#status")).to_contain_text("Your turn (O)")
    assert position(page) == before
    expect(page.get_by_role("radio", name="O")).to_be_checked()
    expect(page.get_by_role("switch", name="Explain")).to_be_checked()
    expect(page.get_by_role("textbox", name="Moves")).to_have_value(moves)
    expect(page.locator(".cell.last")).to_have_count(1)
    # Undo goes back through your moves, as before the reload.
    page.get_by_role("button", name="Undo", exact=True).click()
    assert count(page, "x") == 1 and count(page, "o") == 0


def test_a_link_shares_a_position(browser: sync_api.Browser, live_server: str) -> None:
    ctx, tab = open_page(browser, live_server)
    try:
        tab.goto(f"{live_server}/#game=connect4&side=x&moves=4+4+5+5")
        tab.reload()  # a new hash alone loads nothing: as a link opened afresh
        expect(tab.locator("#status")).to_contain_text("Your turn (Red (x))")
        expect(tab.get_by_label("Game", exact=True)).to_have_value("connect4")
        assert position(tab) == "4455"
        expect(column(tab, "5")).to_have_attribute("aria-label", re.compile("last move o"))
        # A link followed in the same tab (only the hash changes), once confirmed.
        tab.once("dialog", lambda d: d.accept())
        tab.goto(f"{live_server}/#game=tictactoe&side=x&moves=b2+a3")
        expect(tab.get_by_label("Game", exact=True)).to_have_value("tictactoe")
        expect(tab.locator("#status")).to_contain_text("Your turn (X)")
        assert position(tab) == "o../.x./... x"
        foreign, problems = ctx.checks
        assert not foreign and not problems, (foreign, problems)
    finally:
        ctx.close()


def test_the_move_list_copies_and_sets_up_a_position(
    browser: sync_api.Browser, live_server: str
) -> None:
    ctx, tab = open_page(browser, live_server, permissions=["clipboard-read", "clipboard-write"])
    try:
        field = tab.get_by_role("textbox", name="Moves")
        cell(tab, "b2").click()
        settle(tab)
        played = field.input_value().split()
        assert played[0] == "b2" and len(played) == 2
        tab.get_by_role("button", name="Copy", exact=True).click()
        expect(tab.locator("#status")).to_contain_text("copied")
        assert tab.evaluate("navigator.clipboard.readText()") == " ".join(played)
        # Paste a list: the game goes on from there, the AI to move answering.
        field.fill("a3 b2 a2")
        tab.once("dialog", lambda d: d.accept())
        tab.get_by_role("button", name="Set up", exact=True).click()
        settle(tab)
        expect(field).to_have_value(re.compile(r"^a3 b2 a2 a1$"))  # the AI blocks
        # A position in the game's notation.
        tab.once("dialog", lambda d: d.accept())
        field.fill("x../.o./... x")
        tab.get_by_role("button", name="Set up", exact=True).click()
        settle(tab)
        assert position(tab) == "x../.o./... x"
        expect(field).to_have_value("")
        # Nonsense: an alert, and the game on show stays.
        field.fill("a3 a3")
        tab.once("dialog", lambda d: d.accept())
        tab.get_by_role("button", name="Set up", exact=True).click()
        settle(tab)
        expect(tab.get_by_role("alert")).to_contain_text("move 2 (a3)")
        foreign, problems = ctx.checks
        assert not foreign and not problems, (foreign, problems)
    finally:
        ctx.close()


# -- small windows ---------------------------------------------------------------------------


def test_sideways_the_board_stays_put_when_a_hint_appears(
    browser: sync_api.Browser, live_server: str
) -> None:
    ctx, tab = open_page(
        browser, live_server, viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True
    )
    try:

        def boxes() -> tuple[float, float]:
            board = tab.locator("#board").bounding_box()
            controls = tab.locator(".controls").bounding_box()
            assert board and controls
            return board["x"], controls["width"]

        before = boxes()
        tab.get_by_role("button", name="Hint", exact=True).click()
        settle(tab)
        expect(tab.locator("#hint-text")).to_be_visible()
        after = boxes()
        assert abs(after[0] - before[0]) < 1 and abs(after[1] - before[1]) < 1, (before, after)
        shot(tab, "hint-landscape.png")
    finally:
        ctx.close()


def test_on_a_phone_the_result_line_is_never_cut_off(
    browser: sync_api.Browser, live_server: str
) -> None:
    ctx, tab = open_page(
        browser, live_server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        choose_game(tab, "connect4")
        start_at(tab, "connect4", ["3", "3", "4", "4", "5", "5"])  # Red (x) wins with 2 or 6
        column(tab, "6").click()
        settle(tab)
        status = tab.locator("#status")
        expect(status).to_have_text("You win! Red (x): four in a row in columns 3, 4, 5 and 6.")
        assert status.evaluate("s => s.scrollHeight <= s.clientHeight + 1")
        box = status.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
        shot(tab, "result-phone.png")
    finally:
        ctx.close()


# -- the API docs page ---------------------------------------------------------------------


def test_the_docs_show_each_errors_own_example(page: Page, live_server: str) -> None:
    """/docs shows, for every error status, an example of its own, and each
    one is what the server really answers."""
    spec = page.request.get(f"{live_server}/openapi.json").json()
    answers = spec["paths"]["/api/move"]["post"]["responses"]
    examples = {
        status: answers[status]["content"]["application/json"]["example"]["error"]
        for status in ("400", "409", "413", "422", "503")
    }
    assert len(set(examples.values())) == len(examples), examples
    url = f"{live_server}/api/move"
    real = {
        "409": page.request.post(
            url, data={"game": TTT, "position": "xxx/oo./... o", "level": "impossible"}
        ),
        "413": page.request.post(
            url, data={"game": TTT, "position": "x" * 5000, "level": "impossible"}
        ),
        "422": page.request.post(url, data={"game": TTT, "level": "impossible"}),
        "400": page.request.post(url, data={"game": TTT, "position": "x", "level": "impossible"}),
    }
    for status, response in real.items():
        assert str(response.status) == status
        assert response.json()["error"] == examples[status]
