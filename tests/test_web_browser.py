"""The game page in a real browser: Debian's Chromium driven by Playwright
against a real uvicorn server on loopback.

Whole games are played by clicking, as x and as o, with three kinds of human:
perfect (the game must be drawn), hopeless (the AI must win) and random (the AI
must not lose). Every AI move is checked against the library's best move.
Skips when /usr/bin/chromium is missing (CI installs it).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import unbeatable
from unbeatable import api

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TTT = "tictactoe"
SCREENSHOT = Path(__file__).resolve().parent.parent / "docs" / "screenshot.png"
WIN_GREEN = "rgb(21, 128, 61)"

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
Page = Any  # playwright's Page; kept loose so the module imports without it


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Page]:
    """A fresh page (empty localStorage) that may talk to the test server only."""
    context = browser.new_context(viewport={"width": 900, "height": 1100})
    foreign: list[str] = []
    problems: list[str] = []

    def only_local(route: Any) -> None:
        if route.request.url.startswith(live_server):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    tab = context.new_page()
    tab.on("pageerror", lambda exc: problems.append(str(exc)))
    tab.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    tab.goto(f"{live_server}/")
    expect(tab.locator("#status")).to_contain_text("New game")
    yield tab
    context.close()
    assert not foreign, f"the page fetched from elsewhere: {foreign}"
    assert not problems, f"errors in the page: {problems}"


# -- reading the page ------------------------------------------------------------


def settle(page: Page) -> None:
    """Wait until no request to the server is outstanding."""
    expect(page.locator("#board")).to_have_attribute("aria-busy", "false")


def position(page: Page) -> str:
    text = page.locator("#board").get_attribute("data-position")
    assert text is not None
    return text


def cell_labels(page: Page) -> list[str]:
    return [cell.get_attribute("aria-label") or "" for cell in page.locator("#board .cell").all()]


def marks_from_labels(page: Page) -> str:
    """The board as the notation's cells, read from the accessible names only."""
    out = []
    for label in cell_labels(page):
        mark = label.split(",")[0].split(" ")[1]
        out.append("." if mark == "empty" else mark)
    return "".join(out)


def cell(page: Page, move: str) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^{move} "))


def tally(page: Page) -> tuple[int, int, int]:
    return (
        int(page.locator("#wins").inner_text()),
        int(page.locator("#draws").inner_text()),
        int(page.locator("#losses").inner_text()),
    )


# -- players -----------------------------------------------------------------------

Human = Callable[[str], str]


def perfect(pos: str) -> str:
    best = unbeatable.best_move(TTT, pos)
    assert best is not None
    return best.move


def hopeless(pos: str) -> str:
    """The move that loses fastest (a draw or a win only if nothing loses)."""
    moves = unbeatable.analyze(TTT, pos).moves
    order = {"loss": 0, "draw": 1, "win": 2}
    return min(moves, key=lambda m: (order[m.result], m.plies or 0)).move


def random_player(seed: int) -> Human:
    rng = random.Random(seed)

    def play(pos: str) -> str:
        return rng.choice([m.move for m in unbeatable.analyze(TTT, pos).moves])

    return play


def play_out(page: Page, you: str, human: Human, check_ai: bool = True) -> dict[str, Any]:
    """Play the game on the page to its end and return the final status; with
    ``check_ai`` (the impossible level), each AI answer must be the library's
    best move."""
    rules = unbeatable.get_game(TTT)
    while True:
        settle(page)
        pos = position(page)
        status = api.status(TTT, pos)
        if status["over"]:
            return status
        assert rules.to_move(rules.parse(pos)) == you
        move = human(pos)
        cell(page, move).click()
        if not check_ai:
            continue
        settle(page)
        mine = rules.format(api.play_move(TTT, pos, move))
        if api.status(TTT, mine)["over"]:
            assert position(page) == mine
            continue
        best = unbeatable.best_move(TTT, mine)
        assert best is not None
        assert position(page) == rules.format(api.play_move(TTT, mine, best.move))


def check_finished_board(page: Page, status: dict[str, Any], you: str) -> None:
    """Status line, winning line colour, draw grey and the board's names agree
    with the library's verdict."""
    settle(page)
    pos = position(page)
    assert marks_from_labels(page) == pos.split()[0].replace("/", "")
    status_text = page.locator("#status").inner_text()
    won = [i for i, label in enumerate(cell_labels(page)) if "winning line" in label]
    if status["winner"] is None:
        assert status_text.startswith("Draw")
        expect(page.locator("#board")).to_have_class(re.compile(r"\bdraw\b"))
        assert won == []
        background = page.locator("#board .cell").first.evaluate(
            "c => getComputedStyle(c).backgroundColor"
        )
        assert background == "rgb(226, 232, 240)"
    else:
        assert status["winner"] != you, "the Impossible AI lost"
        assert status_text.startswith(f"The AI wins: {status['winner']} has three in a row")
        expected = sorted(r * 3 + c for r, c in status["line"])
        assert won == expected
        for index in won:
            background = (
                page.locator("#board .cell")
                .nth(index)
                .evaluate("c => getComputedStyle(c).backgroundColor")
            )
            assert background == WIN_GREEN
        names = ", ".join(unbeatable.get_game(TTT).format_move(i) for i in expected)
        assert status_text.endswith(f"{names}.")


# -- whole games -------------------------------------------------------------------


HUMANS: dict[str, Callable[[], Human]] = {
    "perfect": lambda: perfect,
    "hopeless": lambda: hopeless,
    "random": lambda: random_player(11),
}


@pytest.mark.parametrize("you", ["x", "o"])
@pytest.mark.parametrize("name", list(HUMANS))
def test_impossible_never_loses(page: Page, you: str, name: str) -> None:
    human = HUMANS[name]()
    if you == "o":
        page.get_by_label("o", exact=True).check()
    status = play_out(page, you, human)
    assert status["over"]
    if name == "perfect":
        assert status["winner"] is None
    elif name == "hopeless":
        assert status["winner"] == ("o" if you == "x" else "x")
    check_finished_board(page, status, you)
    wins, draws, losses = tally(page)
    assert wins == 0
    assert (draws, losses) == ((1, 0) if status["winner"] is None else (0, 1))


def test_random_games_with_several_seeds(page: Page) -> None:
    for seed in range(3):
        page.get_by_role("button", name="New Game", exact=True).click()
        status = play_out(page, "x", random_player(seed))
        check_finished_board(page, status, "x")
    assert tally(page)[0] == 0
    assert sum(tally(page)) == 3


# -- controls ------------------------------------------------------------------------


def test_play_game_lets_the_ai_open(page: Page) -> None:
    page.get_by_role("button", name="Play Game", exact=True).click()
    settle(page)
    expect(page.get_by_label("o", exact=True)).to_be_checked()
    best = unbeatable.best_move(TTT, ".../.../...")
    assert best is not None
    opened = api.play_move(TTT, ".../.../...", best.move)
    assert position(page) == unbeatable.get_game(TTT).format(opened)
    expect(cell(page, best.move)).to_have_attribute("aria-label", f"{best.move} x")
    expect(page.locator("#status")).to_contain_text("Your turn (o)")


def test_new_game_resets_the_board(page: Page) -> None:
    cell(page, "b2").click()
    settle(page)
    assert marks_from_labels(page).count(".") == 7
    page.get_by_role("button", name="New Game", exact=True).click()
    settle(page)
    assert marks_from_labels(page) == "." * 9
    assert all(label.endswith("empty") for label in cell_labels(page))
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_disabled()


def test_undo_takes_back_your_move_and_the_answer(page: Page) -> None:
    undo = page.get_by_role("button", name="Undo", exact=True)
    expect(undo).to_be_disabled()
    cell(page, "a3").click()
    settle(page)
    first = position(page)
    free = [i for i, m in enumerate(marks_from_labels(page)) if m == "."]
    cell(page, unbeatable.get_game(TTT).format_move(free[0])).click()
    settle(page)
    assert marks_from_labels(page).count(".") == 5
    undo.click()
    assert position(page) == first
    undo.click()
    assert marks_from_labels(page) == "." * 9
    expect(undo).to_be_disabled()
    expect(page.locator("#status")).to_contain_text("Took back")


def test_undo_after_a_lost_game_reopens_it(page: Page) -> None:
    status = play_out(page, "x", hopeless)
    assert status["winner"] == "o"
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bover\b"))
    assert not any("winning line" in label for label in cell_labels(page))
    assert tally(page) == (0, 0, 1)  # a game is counted once, undo or not


def test_hint_values_every_empty_cell(page: Page) -> None:
    cell(page, "a1").click()
    settle(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    pos = position(page)
    analysis = unbeatable.analyze(TTT, pos)
    labels = cell_labels(page)
    for value in analysis.moves:
        label = labels[value.fields["row"] * 3 + value.fields["col"]]
        words = "draw" if value.result == "draw" else f"{value.result} in {value.plies}"
        assert label == f"{value.move} empty, hint: {words}"
    shown = page.locator("#board .cell .value:not(:empty)")
    expect(shown).to_have_count(len(analysis.moves))
    expect(page.locator("#legend")).to_be_visible()
    # The hint is gone after the next move.
    cell(page, analysis.moves[0].move).click()
    settle(page)
    assert not any("hint" in label for label in cell_labels(page))


def test_hint_colours_wins_and_losses(page: Page) -> None:
    cell(page, "a3").click()
    settle(page)
    cell(page, "c1").click()
    settle(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    analysis = unbeatable.analyze(TTT, position(page))
    for value in analysis.moves:
        item = page.locator("#board .cell").nth(value.fields["row"] * 3 + value.fields["col"])
        expect(item).to_have_attribute("data-value", value.result)


def test_keyboard_plays_in_reading_order(page: Page) -> None:
    page.keyboard.press("5")  # reading order: 5 is the centre, b2
    settle(page)
    expect(cell(page, "b2")).to_have_attribute("aria-label", "b2 x")
    pos = position(page)
    empty = [i for i, m in enumerate(marks_from_labels(page)) if m == "."]
    page.keyboard.press(str(empty[-1] + 1))
    settle(page)
    name = unbeatable.get_game(TTT).format_move(empty[-1])
    expect(cell(page, name)).to_have_attribute("aria-label", re.compile(rf"^{name} x"))
    assert position(page) != pos
    # A taken cell's key does nothing.
    before = position(page)
    page.keyboard.press("5")
    assert position(page) == before


def test_explain_lists_every_move_the_ai_considered(page: Page) -> None:
    page.get_by_role("switch", name="Explain").check()
    cell(page, "a3").click()
    settle(page)
    before = ".../.../..."
    mine = unbeatable.get_game(TTT).format(api.play_move(TTT, before, "a3"))
    analysis = unbeatable.analyze(TTT, mine)
    best = analysis.best
    assert best is not None
    panel = page.locator("#explanation")
    expect(panel).to_be_visible()
    expect(page.locator("#explain-title")).to_have_text(f"Why the AI played {best.move}")
    items = page.locator("#considered li")
    expect(items).to_have_count(len(analysis.moves))
    for i, value in enumerate(analysis.moves):
        words = "draw" if value.result == "draw" else f"{value.result} in {value.plies}"
        text = f"{value.move}: {words}"
        if value.move == best.move:
            text += " ← played"
        expect(items.nth(i)).to_have_text(text)
    # Switching Explain off hides the panel.
    page.get_by_role("switch", name="Explain").uncheck()
    expect(panel).to_be_hidden()


def test_tally_persists_across_reloads_and_resets(page: Page) -> None:
    play_out(page, "x", hopeless)
    assert tally(page) == (0, 0, 1)
    page.get_by_role("button", name="New Game", exact=True).click()
    play_out(page, "x", perfect)
    assert tally(page) == (0, 1, 1)
    page.reload()
    expect(page.locator("#losses")).to_have_text("1")
    assert tally(page) == (0, 1, 1)
    page.get_by_role("button", name="Reset record").click()
    assert tally(page) == (0, 0, 0)


def test_easy_level_plays_legal_moves(page: Page) -> None:
    page.get_by_label("Difficulty").select_option("easy")
    status = play_out(page, "x", random_player(5), check_ai=False)
    assert status["over"]


# -- accessibility and layout ----------------------------------------------------------


def test_controls_have_the_documented_names(page: Page) -> None:
    for name in ("Play Game", "New Game", "Undo", "Hint"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
    expect(page.get_by_role("switch", name="Explain")).to_have_count(1)
    expect(page.get_by_label("Game", exact=True)).to_have_count(1)
    expect(page.get_by_label("Difficulty")).to_have_value("impossible")
    expect(page.locator("#status")).to_have_attribute("aria-live", "polite")
    names = [label.split(" ")[0] for label in cell_labels(page)]
    assert names == ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]


def test_focus_is_visible(page: Page) -> None:
    cell(page, "a3").focus()
    page.keyboard.press("Tab")  # keyboard focus: :focus-visible applies
    focused = page.locator(":focus")
    expect(focused).to_have_attribute("aria-label", re.compile(r"^b3 "))
    outline = focused.evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline == "solid"


def test_fits_a_phone_screen(browser: Any, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    tab = context.new_page()
    tab.goto(f"{live_server}/")
    board = tab.locator("#board").bounding_box()
    assert board is not None and board["width"] <= 360
    for button in tab.locator("#board .cell").all():
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
    width = tab.locator("body").evaluate("b => b.scrollWidth")
    assert width <= 360
    tab.locator("#board .cell").nth(4).tap()
    expect(tab.locator("#board")).to_have_attribute("aria-busy", "false")
    expect(tab.locator("#board .cell").nth(4)).to_have_attribute("aria-label", "b2 x")
    context.close()


def test_docs_page_works_offline(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/docs")
    expect(page.get_by_role("heading", name="POST /api/move")).to_be_visible()
    page.get_by_role("button", name="Send GET /api/health").click()
    expect(page.locator("pre.response").first).to_contain_text('"status": "ok"')
    page.get_by_role("button", name="Send POST /api/move").click()
    expect(page.locator("#move_api_move_post pre.response")).to_contain_text("200")


def test_screenshot_of_a_finished_game(page: Page) -> None:
    """docs/screenshot.png: a game the AI won, its reasoning shown."""
    page.get_by_role("switch", name="Explain").check()
    page.get_by_label("Difficulty").select_option("impossible")
    status = play_out(page, "x", hopeless)
    assert status["winner"] == "o"
    expect(page.locator("#explanation")).to_be_visible()
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True, animations="disabled")
    assert SCREENSHOT.stat().st_size > 10_000


# -- Connect Four ------------------------------------------------------------------


@pytest.fixture
def connect4_page(page: Page) -> Page:
    pytest.importorskip("unbeatable.solvers.connect4")
    page.get_by_label("Game", exact=True).select_option("connect4")
    expect(page.locator("#board")).to_have_attribute("data-game", "connect4")
    return page


def column(page: Page, n: int) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^column {n}\b"))


def test_connect4_columns_drop_discs(connect4_page: Page) -> None:
    page = connect4_page
    for n in range(1, 8):
        expect(column(page, n)).to_have_attribute("aria-label", f"column {n}: empty")
    column(page, 4).click()
    settle(page)
    pos = position(page)
    assert pos.startswith("4") and len(pos) == 2
    expect(column(page, 4)).to_have_attribute("aria-label", re.compile(r"^column 4: x\b"))
    ai = int(pos[1])
    bottom_up = "x o" if ai == 4 else "o"
    expect(column(page, ai)).to_have_attribute("aria-label", f"column {ai}: {bottom_up}")
    expect(page.locator(".disc.drop")).to_have_count(1)  # the AI's disc falls in


def test_connect4_keyboard_undo_and_hint(connect4_page: Page) -> None:
    page = connect4_page
    page.keyboard.press("3")
    settle(page)
    assert position(page)[0] == "3"
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    hinted = [column(page, n).get_attribute("aria-label") or "" for n in range(1, 8)]
    assert all("hint: " in label for label in hinted)
    page.get_by_role("button", name="Undo", exact=True).click()
    assert position(page) == ""


def test_connect4_ai_wins_and_highlights_four(connect4_page: Page) -> None:
    page = connect4_page
    for _ in range(21):
        settle(page)
        if "wins" in page.locator("#status").inner_text():
            break
        pos = position(page)
        heights = [pos.count(str(c)) for c in range(1, 8)]
        target = next(c for c in range(1, 8) if heights[c - 1] < 6)
        column(page, target).click()
    settle(page)
    status = page.locator("#status").inner_text()
    assert status.startswith("The AI wins: o has four in a row")
    expect(page.locator(".slot.win")).to_have_count(4)
    assert tally(page) == (0, 0, 1)
