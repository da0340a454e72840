"""A plug-in game whose pieces move, on the page, in Debian's Chromium:
Hexapawn (the example plug-in in examples/hexapawn) chosen from the game list
and played from-then-to against the AI. A move is chosen by its piece, then
by where it goes, with the mouse or the keyboard; two moves onto one cell
(a1b2 and c1b2) are never confused; hints show on the pieces; the sides, the
status and the result sentence use the game's own names and goal. Nothing on
the page knows Hexapawn: everything comes from the game's description and the
server's views (each move's ``origin``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from playwright import sync_api

import unbeatable
from test_web_browser import choose_game, open_page, position, settle, tally
from unbeatable import api

pytest.importorskip(
    "unbeatable_hexapawn",
    reason="the example plug-in (pip install -e examples/hexapawn) is not installed",
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

expect = sync_api.expect
Page = sync_api.Page
GAME = "hexapawn"
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def page(browser: sync_api.Browser, live_server: str) -> Iterator[Page]:
    ctx, tab = open_page(browser, live_server, **DESKTOP)
    yield tab
    foreign, problems = ctx.checks
    ctx.close()
    assert not foreign and not problems, (foreign, problems)


# -- reading and driving the board ---------------------------------------------------


def square(page: Page, name: str) -> sync_api.Locator:
    """The board's cell named ``name`` ("b1"): its accessible name starts with it."""
    return page.get_by_role("button", name=re.compile(rf"^{name}[ ,]"))


def label(page: Page, name: str) -> str:
    return square(page, name).get_attribute("aria-label") or ""


def status(page: Page) -> sync_api.Locator:
    return page.locator("#status")


def is_move(request: sync_api.Request) -> bool:
    """A request that sends your move to the server."""
    if not request.url.endswith("/api/position") or request.method != "POST":
        return False
    return "move" in json.loads(request.post_data or "{}")


def sent_move(page: Page, act: Callable[[], None]) -> str:
    """The move the page sends to the server when ``act`` is done."""
    with page.expect_request(is_move) as info:
        act()
    move: str = json.loads(info.value.post_data or "{}")["move"]
    return move


def moves_sent(page: Page) -> list[str]:
    """Every move the page sends from now on, as it sends them."""
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(json.loads(r.post_data or "{}")["move"]) if is_move(r) else None,
    )
    return sent


def legal(pos: str) -> list[str]:
    return [
        cell.move
        for cell in api.view(unbeatable.get_game(GAME), unbeatable.get_game(GAME).parse(pos)).moves
    ]


def set_up(page: Page, text: str) -> None:
    """Set up a position (in the game's notation) with the page's move list."""
    page.get_by_label("Moves", exact=True).fill(text)
    page.get_by_role("button", name="Set up", exact=True).click()
    settle(page)


# -- the tests -------------------------------------------------------------------------


def test_a_whole_game_is_played_from_then_to_and_the_ai_black_wins(page: Page) -> None:
    choose_game(page, GAME)
    radios = page.get_by_role("group", name="You play").get_by_role("radio")
    assert radios.evaluate_all("rs => rs.map((r) => r.labels[0].innerText.trim())") == [
        "White (w)",
        "Black (b)",
    ]
    expect(page.get_by_role("radio", name="White (w)")).to_be_checked()
    expect(page.locator("#play-as")).to_have_text("Black (b)")
    expect(status(page)).to_have_text("New game: you play White (w) and move first.")
    rules = unbeatable.get_game(GAME)
    played = 0
    while not api.status(GAME, position(page)).over:
        pos = position(page)
        assert rules.to_move(rules.parse(pos)) == "w"
        best = unbeatable.best_move(GAME, pos)  # the slowest loss
        assert best is not None
        start, end = best.move[:2], best.move[2:]
        square(page, start).click()
        expect(square(page, start)).to_have_attribute(
            "aria-label", re.compile(r"^\w\d w, White piece, selected")
        )
        expect(square(page, start)).to_have_class(re.compile(r"\bselected\b"))
        targets = sorted(m[2:] for m in legal(pos) if m.startswith(start))
        expect(page.locator(".cell.target")).to_have_count(len(targets))
        for target in targets:
            expect(square(page, target)).to_have_attribute(
                "aria-label", re.compile(rf"target: {start}{target}")
            )
        assert sent_move(page, square(page, end).click) == best.move
        settle(page)
        played += 1
        after = rules.format(api.play_move(GAME, pos, best.move))
        if api.status(GAME, after).over:
            assert position(page) == after
        else:
            # The AI answered with a best move: Black keeps its win.
            assert position(page) != after
            if not api.status(GAME, position(page)).over:
                assert unbeatable.analyze(GAME, position(page)).result == "loss"
        if not api.status(GAME, position(page)).over:
            expect(status(page)).to_contain_text("Your turn (White (w))")
            expect(page.locator(".cell.selected")).to_have_count(0)
    final = api.status(GAME, position(page))
    assert final.winner == "b" and played >= 2
    text = status(page).inner_text()
    place = ""
    if final.line:
        place = " on " + ", ".join(f"{'abc'[c]}{3 - r}" for r, c in final.line)
    # How it was won, in the game's words (the server's status says), then where.
    assert final.reason
    assert text == f"The AI wins. Black (b): {final.reason}{place}."
    assert " on ." not in text and "has reaching" not in text
    expect(page.locator("#status-box")).to_have_attribute("data-kind", "loss")
    assert tally(page) == (0, 0, 1)


def test_two_moves_onto_one_cell_are_told_apart(page: Page) -> None:
    choose_game(page, GAME)
    # One move alone reaches b2: a click there plays it, with no piece chosen.
    assert sent_move(page, lambda: square(page, "b2").click()) == "b1b2"
    settle(page)
    pos = position(page)
    assert {"a1b2", "c1b2"} <= set(legal(pos)), pos  # the AI took back on b2
    sent = moves_sent(page)
    # With no piece chosen, b2 is two moves: the page asks which, and sends nothing.
    square(page, "b2").click()
    expect(status(page)).to_have_text(
        "2 pieces can go to b2 (from a1 or c1): choose the piece first."
    )
    # a1 chosen, then c1 instead: the choice moves, its targets with it.
    square(page, "a1").click()
    expect(square(page, "a1")).to_have_attribute("aria-label", re.compile(r"selected"))
    expect(square(page, "b2")).to_have_attribute("aria-label", re.compile(r"target: a1b2"))
    square(page, "c1").click()
    expect(square(page, "a1")).not_to_have_attribute("aria-label", re.compile(r"selected"))
    expect(square(page, "c1")).to_have_attribute("aria-label", "c1 w, White piece, selected")
    expect(square(page, "b2")).to_have_attribute("aria-label", re.compile(r"target: c1b2"))
    expect(square(page, "c2")).to_have_attribute("aria-label", re.compile(r"target: c1c2"))
    expect(page.locator(".cell.target")).to_have_count(2)
    # A cell the piece cannot reach lets go of it; so does Escape.
    square(page, "a3").click()
    expect(page.locator(".cell.selected")).to_have_count(0)
    square(page, "c1").click()
    page.keyboard.press("Escape")
    expect(page.locator(".cell.selected")).to_have_count(0)
    expect(status(page)).to_contain_text("Let go of the piece")
    assert sent == []
    square(page, "a1").click()
    square(page, "c1").click()
    assert sent_move(page, lambda: square(page, "b2").click()) == "c1b2"
    settle(page)
    assert page.get_by_label("Moves", exact=True).input_value().split()[:3] == [
        "b1b2",
        pos_reply(pos),
        "c1b2",
    ]
    assert sent == ["c1b2"]


def pos_reply(pos: str) -> str:
    """The AI's reply to b1b2 that led to ``pos`` (a3b2 or c3b2)."""
    return "a3b2" if pos.startswith(".") else "c3b2"


def test_hints_show_on_the_pieces_and_on_the_chosen_pieces_targets(page: Page) -> None:
    choose_game(page, GAME)
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    values = {m.move: m for m in unbeatable.analyze(GAME, "").moves}  # every move loses
    for start in ("a1", "b1", "c1"):
        (move,) = [m for m in values.values() if m.move.startswith(start)]
        badge = square(page, start).locator(".value")
        expect(badge).to_have_text(f"L{move.plies}")
        # The name starts with what the cell shows: "a1 w L4".
        expect(square(page, start)).to_have_attribute(
            "aria-label",
            f"{start} w L{move.plies}, White piece, can move, hint: best move loss in {move.plies}",
        )
    # Before a piece is chosen, the empty cells carry no value; after, its target does.
    expect(square(page, "b2").locator(".value")).to_have_text("")
    square(page, "b1").click()
    expect(square(page, "b2").locator(".value")).to_have_text(f"L{values['b1b2'].plies}")
    expect(square(page, "a2").locator(".value")).to_have_text("")
    expect(page.locator("#hint-text")).to_contain_text("Black (b) answers")
    # Where two pieces reach one cell, the target shows the chosen piece's move.
    page.keyboard.press("Escape")
    square(page, "b2").click()  # b1b2, the only move there
    settle(page)
    pos = position(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    values = {m.move: m for m in unbeatable.analyze(GAME, pos).moves}
    for start in ("a1", "c1"):
        square(page, start).click()
        expect(square(page, "b2").locator(".value")).to_have_text(f"L{values[start + 'b2'].plies}")


def test_the_keyboard_chooses_a_piece_then_where_it_goes(page: Page) -> None:
    choose_game(page, GAME)
    expect(page.locator("#keys")).to_contain_text("Escape lets go of the piece")
    middle = square(page, "b2")
    expect(middle).to_have_attribute("tabindex", "0")  # the board's one tab stop
    middle.focus()
    page.keyboard.press("ArrowDown")
    expect(square(page, "b1")).to_be_focused()
    page.keyboard.press("Enter")
    expect(square(page, "b1")).to_have_attribute("aria-label", "b1 w, White piece, selected")
    expect(status(page)).to_have_text("b1 chosen: it can go to b2. Choose where (Escape lets go).")
    page.keyboard.press("Escape")
    expect(square(page, "b1")).to_have_attribute("aria-label", "b1 w, White piece, can move")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    expect(square(page, "c1")).to_have_attribute("aria-label", "c1 w, White piece, selected")
    page.keyboard.press("ArrowUp")
    expect(square(page, "c2")).to_be_focused()
    assert sent_move(page, lambda: page.keyboard.press("Enter")) == "c1c2"
    settle(page)
    expect(status(page)).to_contain_text("Your turn (White (w))")


def test_after_switching_games_clicks_work_at_once(page: Page) -> None:
    """Reported: after switching, clicks did nothing until Play Game was pressed."""
    choose_game(page, GAME)
    square(page, "c1").click()
    assert sent_move(page, lambda: square(page, "c2").click()) == "c1c2"
    settle(page)
    page.once("dialog", lambda d: d.accept())  # the game in progress is discarded
    choose_game(page, "tictactoe")
    page.get_by_role("button", name=re.compile(r"^b2 ")).click()
    settle(page)
    assert position(page).split()[0].count("x") == 1
    page.once("dialog", lambda d: d.accept())
    choose_game(page, GAME)
    # One move alone goes to a2: a click there plays it.
    assert sent_move(page, square(page, "a2").click) == "a1a2"
    settle(page)
    # Black: the AI opens, and the page names your side as the game does.
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("radio", name="Black (b)").check()
    settle(page)
    expect(status(page)).to_contain_text("Your turn (Black (b))")
    pos = position(page)
    moves = legal(pos)
    start = moves[0][:2]
    square(page, start).click()
    expect(square(page, start)).to_have_attribute(
        "aria-label", re.compile(rf"^{start} b, Black piece, selected")
    )
    assert sent_move(page, lambda: square(page, moves[0][2:]).click()) == moves[0]


def test_the_result_names_the_winner_and_the_goal_and_no_empty_place(page: Page) -> None:
    choose_game(page, GAME)
    # White to move and stuck: Black wins with no line of cells to name.
    stuck = "b../w../... w"
    set_up(page, stuck)
    expect(status(page)).to_have_text(f"The AI wins. Black (b): {api.status(GAME, stuck).reason}.")
    # White on the far row: the cell is named.
    through = "w../.b./... b"
    set_up(page, through)
    reason = api.status(GAME, through).reason
    expect(status(page)).to_have_text(f"You win! White (w): {reason} on a3.")
    expect(page.locator(".cell.win")).to_have_count(1)
    for text in ("has reaching", " on .", " on ,"):
        assert text not in status(page).inner_text()


def test_on_a_phone_a_tap_chooses_a_piece_and_the_board_fits(
    browser: sync_api.Browser, live_server: str
) -> None:
    ctx, tab = open_page(browser, live_server, **PHONE)
    try:
        choose_game(tab, GAME)
        square(tab, "b1").tap()
        expect(tab.locator(".cell.selected")).to_have_count(1)
        dot = tab.locator(".cell.target")
        expect(dot).to_have_count(1)
        assert (
            dot.evaluate("c => getComputedStyle(c, '::after').backgroundColor")
            != "rgba(0, 0, 0, 0)"
        )
        box = tab.locator("#board").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert sent_move(tab, lambda: dot.tap()) == "b1b2"
        settle(tab)
    finally:
        foreign, problems = ctx.checks
        ctx.close()
    assert not foreign and not problems, (foreign, problems)


def test_axe_finds_no_violation_with_a_piece_chosen_and_a_hint(page: Page) -> None:
    pytest.importorskip("axe_playwright_python")
    from test_browser_axe import violations

    choose_game(page, GAME)
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    square(page, "c1").click()
    expect(page.locator(".cell.selected")).to_have_count(1)
    found = violations(page)
    assert not found, "\n".join(found)


def test_the_plugin_joins_learns_depth_lesson_with_its_own_example(page: Page) -> None:
    """Hexapawn's evaluation gives an example, so the depth lesson offers the
    game with it, its notation help and its rule, all from the server."""
    page.get_by_role("tab", name="Learn").click()
    page.get_by_role("radio", name="Depth-limited search").check()
    game = page.locator("#depth-form").get_by_label("Game")
    expect(game.locator("option")).to_have_text(["Tic-tac-toe", "Connect Four", "Hexapawn"])
    game.select_option("Hexapawn")
    field = page.get_by_role("textbox", name="Position", exact=True)
    expect(field).to_have_value(".bb/.w./w.. b")
    expect(page.locator("#depth-position-help")).to_contain_text("cells w, b or . (empty)")
    # Black is MAX here: the rule, stated for White, is turned to Black's side.
    expect(page.locator("#depth-rule")).to_contain_text(
        "from b's side: \N{MINUS SIGN}(each pawn counts 1"
    )
    rows = page.get_by_role("table", name=re.compile("The move chosen at each depth")).locator(
        "tbody tr"
    )
    expect(rows.nth(0)).to_contain_text("loses")
    expect(page.locator("#depth-summary")).to_contain_text("beyond the search's horizon")
    page.get_by_label("Search depth").select_option("2")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_contain_text("wins")


def test_an_answer_for_the_game_left_behind_is_dropped(page: Page) -> None:
    """The depth lesson asked for tic-tac-toe's values, then for Hexapawn's; the
    answers arrive in the other order: the late tic-tac-toe one is dropped, not
    taken for Hexapawn's (it was, and the table failed on moves it lacked)."""
    from test_browser_play import Held

    page.get_by_role("tab", name="Learn").click()
    held = Held(page, "**/api/analyze")
    page.get_by_role("radio", name="Depth-limited search").check()

    def asked(count: int) -> None:
        for _ in range(400):
            if len(held.routes) >= count:
                break
            page.wait_for_timeout(50)
        assert len(held.routes) == count

    # Tic-tac-toe's analysis asked for (and held) before the game changes: on a
    # busy machine the page may not yet have asked when the second game is chosen.
    asked(1)
    page.locator("#depth-form").get_by_label("Game").select_option("Hexapawn")
    asked(2)  # both games' analyses asked for and held
    held.on = False
    held.routes.pop().continue_()  # Hexapawn's, answered and drawn first
    rows = page.get_by_role("table", name=re.compile("The move chosen at each depth")).locator(
        "tbody tr"
    )
    expect(rows.nth(0)).to_contain_text("loses")
    board = page.locator("#depth-board")
    expect(board).to_have_attribute("aria-label", re.compile(r"^The position, Black \(b\) to move"))
    with page.expect_response("**/api/analyze"):
        held.routes.pop().continue_()  # then tic-tac-toe's, late
    page.wait_for_timeout(500)
    # Still Hexapawn's board and values (the page fixture fails on any script error).
    expect(board).to_have_attribute("aria-label", re.compile(r"^The position, Black \(b\) to move"))
    page.get_by_label("Search depth").select_option("2")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_contain_text("wins")
