"""Issue 33 on the Play side, in Debian's Chromium: a game looked back on
(its moves numbered and stepped through, each with the library's words, the
mistakes marked), everything in the address (a link opens exactly what was
shared, a finished game with its result and review), the AI saying when it
drew among equally good moves, the phone (Explore next to the board, 24px
cells, a move typed by its name) and the dark theme."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright import sync_api

from test_browser_axe import PHONE, opened
from test_web_browser import cell, page, position, settle
from unbeatable import api

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["page"]  # the shared fixture, used here

expect = sync_api.expect
Page = sync_api.Page
TTT = "tictactoe"
#: x wins: o's c2 was the mistake (a draw became a loss in 6).
GAME = ["b2", "c2", "a1", "c3", "c1", "b1", "a3"]


def address(game: str, moves: list[str], **more: str) -> str:
    params = {"game": game, "side": "x", "level": "easy", "moves": " ".join(moves), **more}
    return "#" + "&".join(f"{k}={v.replace(' ', '+')}" for k, v in params.items())


def hash_of(page: Page) -> dict[str, str]:
    pairs = page.evaluate("() => [...new URLSearchParams(location.hash.slice(1))]")
    return dict(pairs)


def moves_listed(page: Page) -> sync_api.Locator:
    return page.get_by_role("list", name="Moves of the game").get_by_role("button")


def test_a_finished_game_reloads_with_its_result_and_review(page: Page) -> None:
    """The issue: a finished game's reload started an empty board, and the
    level was lost. Now the link opens the end, the result and the review,
    and the moves step the board back and forth."""
    base = page.url.split("#")[0]
    page.goto(base + address(TTT, GAME))
    page.reload()
    expect(page.locator("#status")).to_contain_text("You win! X: three in a row")
    expect(page.get_by_label("Difficulty")).to_have_value("easy")
    review = api.review(TTT, GAME)
    summary = page.locator("#review-summary")
    expect(summary).to_have_text(review.summary, timeout=20_000)
    listed = moves_listed(page)
    expect(listed).to_have_count(len(GAME))
    for i, move in enumerate(review.moves):
        side = move.player.upper()
        expect(listed.nth(i)).to_have_text(
            f"{move.ply}. {side} {move.words}" + (" mistake" if move.mistake else "")
        )
    expect(page.locator("#review-moves li.mistake")).to_have_count(1)
    expect(listed.nth(len(GAME) - 1)).to_have_attribute("aria-current", "step")
    # Back to the mistake: the board after it, not playable, the words said.
    listed.nth(1).click()
    after = api.play_move(TTT, api.play_move(TTT, "", "b2"), "c2")
    expect(page.locator("#board")).to_have_attribute(
        "data-position", api.get_game(TTT).format(after)
    )
    expect(page.locator("#status")).to_have_text(
        f"Move 2 of 7, O: {review.moves[1].words}. End returns to the game."
    )
    expect(cell(page, "a3")).to_have_attribute("aria-disabled", "true")
    expect(cell(page, "c2")).to_have_attribute("aria-label", re.compile(r"^c2 o, taken, last move"))
    assert hash_of(page)["at"] == "2"
    page.get_by_role("button", name="Back", exact=True).click()
    expect(page.locator("#status")).to_contain_text("Move 1 of 7")
    page.keyboard.press("ArrowRight")  # keys step too, within the review
    expect(page.locator("#status")).to_contain_text("Move 2 of 7")
    # A link shared while stepping opens that move.
    page.reload()
    expect(page.locator("#status")).to_contain_text("Move 2 of 7", timeout=20_000)
    page.get_by_role("button", name="End", exact=True).click()
    expect(page.locator("#status")).to_contain_text("You win!")
    assert "at" not in hash_of(page)
    end = api.view(TTT, "", None)
    for move in GAME:
        end = api.view(TTT, end.position, move)
    expect(page.locator("#board")).to_have_attribute("data-position", end.position)


def test_the_address_keeps_the_level_and_the_game_in_progress(page: Page) -> None:
    """The issue: choose Easy, play b2, reload: Impossible. Now Easy."""
    page.get_by_label("Difficulty").select_option("easy")
    cell(page, "b2").click()
    settle(page)
    state = hash_of(page)
    assert state["level"] == "easy" and state["moves"].split()[0] == "b2"
    shown = position(page)
    page.reload()
    expect(page.locator("#status")).to_contain_text("Your turn")
    expect(page.get_by_label("Difficulty")).to_have_value("easy")
    assert position(page) == shown


def test_a_game_in_progress_is_reviewed_and_stepped_through(page: Page) -> None:
    """Any game, finished or not, a plug-in's too: Hexapawn after two moves."""
    base = page.url.split("#")[0]
    page.goto(base + "#game=hexapawn&side=w&moves=a1a2+b3a2")
    expect(page.locator("#status")).to_contain_text("Your turn", timeout=20_000)
    page.get_by_role("button", name="Review", exact=True).click()
    review = api.review("hexapawn", ["a1a2", "b3a2"])
    expect(page.locator("#review-summary")).to_have_text(review.summary, timeout=20_000)
    expect(moves_listed(page).nth(0)).to_contain_text(review.moves[0].words)
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#board")).to_have_attribute(
        "data-position", api.view("hexapawn", "").position
    )
    page.get_by_role("button", name="End", exact=True).click()
    # Played on: the list grows, and the review is asked again.
    page.get_by_label("Move", exact=True).fill("b1a2")
    page.get_by_label("Move", exact=True).press("Enter")
    settle(page)
    expect(moves_listed(page)).to_have_count(4, timeout=20_000)


def test_explain_says_when_several_moves_were_equally_good(page: Page) -> None:
    """The AI varies among moves of equal value, and says so: after b2 the
    four corners all draw, and its reply is one of them."""
    page.get_by_role("switch", name="Explain").check()
    cell(page, "b2").click()
    settle(page)
    summary = page.locator("#explain-summary")
    expect(summary).to_contain_text(re.compile(r"[a-c][1-3] is one of 4 equally good moves"))
    reply = [m for m in position(page).split()[0].replace("/", "") if m == "o"]
    assert len(reply) == 1


def test_on_a_phone_explore_is_next_to_the_board_and_a_move_can_be_typed(
    browser: sync_api.Browser, live_server: str
) -> None:
    with opened(browser, live_server, **PHONE) as tab:
        cell(tab, "b2").tap()
        settle(tab)
        tab.get_by_role("button", name="Explore", exact=True).click()
        tree = tab.get_by_role("tree", name="Explore the tree below this position")
        expect(tree.get_by_role("treeitem").nth(1)).to_be_visible()
        board = tab.locator("#board").bounding_box()
        panel = tab.locator("#explore-panel").bounding_box()
        assert board is not None and panel is not None
        # Right below the board and the Move field, not a screen further down.
        assert 0 < panel["y"] - (board["y"] + board["height"]) < 200, (board, panel)
        # Gomoku: every cell at least 24px, and a move typed by its name.
        tab.once("dialog", lambda d: d.accept())  # the game in progress is discarded
        tab.get_by_label("Game", exact=True).select_option("gomoku")
        settle(tab)
        sizes = tab.locator(".cell").evaluate_all(
            "cs => cs.map((c) => c.getBoundingClientRect())"
            ".map((r) => Math.min(r.width, r.height))"
        )
        assert min(sizes) >= 24, min(sizes)
        field = tab.get_by_label("Move", exact=True)
        field.fill("H8")
        field.press("Enter")
        settle(tab)
        expect(cell(tab, "h8")).to_have_attribute("aria-label", re.compile(r"^h8 x, taken"))
        field.fill("z99")
        field.press("Enter")
        expect(tab.locator("#status")).to_contain_text("z99 is no move here")


def test_dark_mode_follows_the_system(browser: sync_api.Browser, live_server: str) -> None:
    """Dark when the system asks; the board's cells stay light under the marks."""
    context: dict[str, Any] = {"color_scheme": "dark"}
    with opened(browser, live_server, **context) as tab:
        colours = tab.evaluate(
            "() => [getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.querySelector('.cell')).backgroundColor]"
        )
        assert colours == ["rgb(11, 17, 32)", "rgb(255, 255, 255)"]


def test_a_searched_value_is_said_as_an_estimate(page: Page) -> None:
    """The issue's "valued estimate 0": the depth lesson's last step says
    the chosen move's estimate as one."""
    base = page.url.split("#")[0].split("?")[0]
    page.goto(f"{base}?learn=depth&game=tictactoe&position=x.o/.x./...%20o&depth=1")
    story = page.locator("#learn-status")
    expect(story).to_contain_text("Press Step", timeout=20_000)
    page.get_by_label("Step of the walk").press("End")  # the last step, at once
    expect(story).to_contain_text("Done: at depth 1", timeout=20_000)
    expect(story).to_contain_text(re.compile("plays a2, estimated at [\N{MINUS SIGN}+-]?\\d"))
    expect(story).not_to_contain_text("valued estimate")
