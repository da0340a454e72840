"""The page in a real browser: Debian's Chromium driven by Playwright against a
real uvicorn server on loopback, by roles and accessible names.

Whole tic-tac-toe games are played by clicking, as x and as o, with three
kinds of human (perfect: a draw; hopeless: the AI wins; random: the AI must
not lose), every AI move checked against the library. Connect Four and an
m,n,k game are played with no page change; Explain, Hint, Explore and the
Learn view, failure recovery, the record, layout, contrast and focus are
checked. The README's screenshots: tests/browser/test_browser_screenshots.py.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright import sync_api

import unbeatable
from unbeatable import api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TTT = "tictactoe"
WIN_GREEN = "rgb(21, 128, 61)"
LOSS_RED = "rgb(185, 28, 28)"
expect = sync_api.expect
Page = sync_api.Page


#: Contexts kept open at once by a test process (each holds a renderer).
KEPT_CONTEXTS = 4


class Opened:
    """A tab from :func:`open_page`: ``checks`` are what the tab fetched from
    elsewhere and the script errors in it; ``close`` closes the tab."""

    def __init__(self, tab: Page, foreign: list[str], problems: list[str]) -> None:
        self.tab, self.checks = tab, (foreign, problems)

    def close(self) -> None:
        self.tab.close()


def shared_context(browser: sync_api.Browser, live_server: str, options: dict[str, Any]) -> Any:
    """The context for these options, made once: a tab opened in it
    reuses the renderer and the cached scripts, half the cost of a fresh
    context. A keeper tab holds the process and empties the storage."""
    shared: dict[str, Any] = browser.__dict__.setdefault("unbeatable_contexts", {})
    key = json.dumps(options, sort_keys=True)
    if key not in shared:
        ctx = browser.new_context(**options)
        foreign: list[str] = []

        def foreign_request(route: Any) -> None:
            foreign.append(route.request.url)
            route.abort()

        # Only what is not the test server's is caught (the browser matches
        # the pattern itself): the page's own requests never wait on this process.
        ctx.route(re.compile(rf"^(?!{re.escape(live_server)}/)"), foreign_request)
        keeper = ctx.new_page()
        keeper.goto(f"{live_server}/api/health")
        shared[key] = (ctx, keeper, foreign)
        if len(shared) > KEPT_CONTEXTS:  # the least recently made one goes
            shared.pop(next(iter(shared)))[0].close()
    return shared[key]


def open_page(browser: sync_api.Browser, live_server: str, **context: Any) -> tuple[Opened, Page]:
    """A new tab on the page, with empty storage (the record starts at nothing),
    that may talk to the test server only; its checks fail the test on a
    foreign request or an error in the page. Tabs of the same context options
    share a context (see :func:`shared_context`), one test at a time."""
    options = {"viewport": {"width": 900, "height": 1100}, **context}
    ctx, keeper, foreign = shared_context(browser, live_server, options)
    keeper.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    foreign.clear()
    problems: list[str] = []
    tab = ctx.new_page()
    tab.on("pageerror", lambda exc: problems.append(str(exc)))
    # Chromium logs every 4xx/5xx answer as a console error; the page handles
    # those (tests provoke some), so only script errors count.
    tab.on(
        "console",
        lambda msg: (
            problems.append(msg.text)
            if msg.type == "error" and "the server responded with a status of" not in msg.text
            else None
        ),
    )
    tab.goto(f"{live_server}/")
    expect(tab.locator("#status")).to_contain_text("New game")
    return Opened(tab, foreign, problems), tab


@pytest.fixture
def page(browser: sync_api.Browser, live_server: str) -> Iterator[Page]:
    ctx, tab = open_page(browser, live_server)
    yield tab
    foreign, problems = ctx.checks
    ctx.close()
    assert not foreign, f"the page fetched from elsewhere: {foreign}"
    assert not problems, f"errors in the page: {problems}"


# -- reading the page ------------------------------------------------------------


def settle(page: Page) -> None:
    """Wait until no request to the server is outstanding."""
    expect(page.locator("#board")).to_have_attribute("aria-busy", "false", timeout=20_000)


def position(page: Page) -> str:
    text = page.locator("#board").get_attribute("data-position")
    assert text is not None
    return text


def cell(page: Page, move: str) -> sync_api.Locator:
    return page.get_by_role("button", name=re.compile(rf"^{move} "))


def column(page: Page, label: str) -> sync_api.Locator:
    return page.get_by_role("button", name=re.compile(rf"^column {label}:"))


def count(page: Page, mark: str) -> int:
    """How many of ``mark`` are on the board shown (the notation without the side to move)."""
    return position(page).split()[0].count(mark)


def tally(page: Page) -> tuple[int, int, int]:
    return (
        int(page.locator("#wins").inner_text()),
        int(page.locator("#draws").inner_text()),
        int(page.locator("#losses").inner_text()),
    )


def choose_game(page: Page, name: str) -> None:
    page.get_by_label("Game", exact=True).select_option(name)
    expect(page.locator("#status")).to_contain_text("New game")
    settle(page)


def start_at(page: Page, game: str, moves: list[str]) -> None:
    """Choose ``game`` with the board after ``moves`` as its first position:
    a game can only start from the empty board on the page, so the server's
    first view of the game is replaced by that position's view (the page holds
    no rules: it plays on from whatever the server shows)."""
    rules = unbeatable.get_game(game)
    pos = rules.initial()
    for move in moves:
        pos = api.play_move(rules, pos, move)
    view = api.view(rules, pos)
    answer = json.dumps(view.to_dict())

    def first_view(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        if body.get("position") == "" and "move" not in body:
            route.fulfill(status=200, content_type="application/json", body=answer)
        else:
            route.continue_()

    page.route("**/api/position", first_view)
    if page.get_by_label("Game", exact=True).input_value() == game:
        page.get_by_role("button", name="New Game", exact=True).click()
    else:
        page.get_by_label("Game", exact=True).select_option(game)
    settle(page)
    if view.to_move == "x":  # the player's turn (else the AI has answered)
        assert position(page) == view.position


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


def play_out(page: Page, you: str, human: Human, check_ai: bool = True) -> api.Status:
    """Play the game on the page to its end; return the final status. With
    ``check_ai`` (the impossible level), each AI answer must be as good as the
    library's best move (one of the moves of its value: the AI draws among
    them; when lost, the most resisting itself)."""
    rules = unbeatable.get_game(TTT)
    while True:
        settle(page)
        pos = position(page)
        status = api.status(TTT, pos)
        if status.over:
            return status
        assert rules.to_move(rules.parse(pos)) == you
        move = human(pos)
        cell(page, move).click()
        settle(page)
        if not check_ai:
            continue
        mine = rules.format(api.play_move(TTT, pos, move))
        if api.status(TTT, mine).over:
            assert position(page) == mine
            continue
        analysis = unbeatable.analyze(TTT, mine)
        best = analysis.best
        assert best is not None
        equal = [m.move for m in analysis.moves if (m.result, m.plies) == (best.result, best.plies)]
        good = equal if best.result != "loss" else [best.move]
        assert position(page) in {rules.format(api.play_move(TTT, mine, m)) for m in good}


def check_finished_board(page: Page, status: api.Status, you: str) -> None:
    """Status line, winning line colour and the cells' names agree with the library."""
    settle(page)
    text = page.locator("#status").inner_text()
    won = [
        (r, c)
        for r in range(3)
        for c in range(3)
        if "winning line"
        in (
            page.locator(f'.cell[data-row="{r}"][data-col="{c}"]').get_attribute("aria-label") or ""
        )
    ]
    if status.winner is None:
        # What the server says (over, no winner), not why: no "the board is full".
        assert text == "Draw: the game is over with no winner."
        expect(page.locator("#board")).to_have_class(re.compile(r"\bdraw\b"))
        assert won == []
    else:
        assert status.winner != you, "the Impossible AI lost"
        assert status.line is not None
        line = sorted(status.line)
        assert won == line
        names = [unbeatable.get_game(TTT).format_move(r * 3 + c) for r, c in line]
        assert text.startswith(f"The AI wins. {status.winner.upper()}: three in a row on ")
        assert all(name in text for name in names)
        # The AI's line is your loss: red, never the green of your own win (issue 19).
        red = page.locator(f'.cell[data-row="{line[0][0]}"][data-col="{line[0][1]}"]')
        assert red.evaluate("c => getComputedStyle(c).backgroundColor") == LOSS_RED


# -- whole games -----------------------------------------------------------------------

HUMANS: dict[str, Callable[[], Human]] = {
    "perfect": lambda: perfect,
    "hopeless": lambda: hopeless,
    "random": lambda: random_player(11),
}


@pytest.mark.parametrize("you", ["x", "o"])
@pytest.mark.parametrize("name", list(HUMANS))
def test_impossible_never_loses(page: Page, you: str, name: str) -> None:
    if you == "o":
        page.get_by_role("button", name="Play Game", exact=True).click()
    status = play_out(page, you, HUMANS[name]())
    check_finished_board(page, status, you)
    if name == "perfect":
        assert status.winner is None
    if name == "hopeless":
        assert status.winner == ("o" if you == "x" else "x")


def test_play_game_lets_the_ai_open_and_says_so(page: Page) -> None:
    button = page.get_by_role("button", name="Play Game", exact=True)
    expect(button).to_have_accessible_description(re.compile("the AI opens and you play O"))
    button.click()
    settle(page)
    expect(page.locator("#status")).to_contain_text("Your turn (O)")
    expect(page.get_by_role("radio", name="O")).to_be_checked()
    assert count(page, "x") == 1


def test_new_game_and_undo(page: Page) -> None:
    cell(page, "b2").click()
    settle(page)
    assert count(page, "x") == 1 and count(page, "o") == 1
    page.get_by_role("button", name="Undo", exact=True).click()
    assert position(page) == ".../.../... x"
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_disabled()
    cell(page, "a3").click()
    settle(page)
    page.once("dialog", lambda d: d.accept())  # the game in progress is discarded
    page.get_by_role("button", name="New Game", exact=True).click()
    settle(page)
    assert position(page) == ".../.../... x"


def test_undo_of_a_finished_game_takes_its_result_back(page: Page) -> None:
    status = play_out(page, "x", hopeless)
    assert status.winner == "o" and tally(page) == (0, 0, 1)
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bover\b"))
    assert tally(page) == (0, 0, 0)
    play_out(page, "x", hopeless)  # lose again: counted again, once
    assert tally(page) == (0, 0, 1)


def test_hint_values_every_move_with_its_line(page: Page) -> None:
    cell(page, "a3").click()
    settle(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    analysis = unbeatable.analyze(TTT, position(page))
    for value in analysis.moves:
        words = f"{value.result} in {value.plies}" if value.result != "draw" else "draw"
        expect(cell(page, value.move)).to_have_attribute(
            "aria-label", re.compile(rf"hint: {words}$")
        )
    expect(page.locator("#legend")).to_be_visible()
    text = page.locator("#hint-text").inner_text()
    assert "answers" in text or "wins at once" in text
    best = analysis.best
    assert best is not None
    equals = [m for m in analysis.moves if (m.result, m.plies) == (best.result, best.plies)]
    if len(equals) > 1:
        assert text.startswith("Equally good:")


def test_keys_play_and_arrows_move_within_the_board(page: Page) -> None:
    page.keyboard.press("5")  # reading order: b2
    settle(page)
    assert position(page).split("/")[1][1] == "x"
    focused = cell(page, "b2")
    focused.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(r"^c2 "))
    page.keyboard.press("ArrowUp")
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(r"^c3 "))
    expect(cell(page, "b2")).to_have_attribute("aria-label", re.compile(r"^b2 x, taken"))


def test_explain_comes_with_the_move_in_one_request(page: Page) -> None:
    seen: list[str] = []
    page.on(
        "request", lambda r: seen.append(r.url.rsplit("/", 1)[-1]) if "/api/" in r.url else None
    )
    page.get_by_role("switch", name="Explain").check()
    cell(page, "b2").click()
    settle(page)
    assert seen.count("move") == 1 and "analyze" not in seen
    panel = page.locator("#explanation")
    expect(panel).to_be_visible()
    items = page.locator("#considered li")
    expect(items).to_have_count(8)
    summary = page.locator("#explain-summary").inner_text()
    # After b2 every corner draws for o: the AI's corner is one of several equally good moves.
    assert "equally good moves" in summary and "was better" not in summary
    assert "answers" in items.first.inner_text()


def test_record_persists_and_asks_before_resetting(page: Page) -> None:
    play_out(page, "x", hopeless)
    assert tally(page) == (0, 0, 1)
    page.reload()  # the finished game again (the address holds it), not counted again
    expect(page.locator("#status")).to_contain_text("The AI wins")
    assert tally(page) == (0, 0, 1)
    page.once("dialog", lambda d: d.dismiss())
    page.get_by_role("button", name="Reset record").click()
    assert tally(page) == (0, 0, 1)
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Reset record").click()
    assert tally(page) == (0, 0, 0)


def test_switching_mid_game_asks_first(page: Page) -> None:
    cell(page, "b2").click()
    settle(page)
    before = position(page)
    page.once("dialog", lambda d: d.dismiss())
    page.get_by_label("Game", exact=True).select_option("connect4")
    assert position(page) == before
    expect(page.get_by_label("Game", exact=True)).to_have_value("tictactoe")
    page.once("dialog", lambda d: d.dismiss())
    page.get_by_role("radio", name="O").click()
    expect(page.get_by_role("radio", name="X")).to_be_checked()
    assert position(page) == before
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("radio", name="O").check()
    settle(page)
    assert count(page, "x") == 1 and count(page, "o") == 0  # a new game, the AI opened


# -- Connect Four and the m,n,k family: the same page ---------------------------------


def test_connect4_by_columns(page: Page) -> None:
    choose_game(page, "connect4")
    expect(page.locator("#status")).to_contain_text("you play Red (x)")
    for label in "1234567":
        expect(column(page, label)).to_have_attribute("aria-label", f"column {label}: empty")
    column(page, "4").click()
    settle(page)
    pos = position(page)
    assert pos.startswith("4") and len(pos) == 2
    expect(column(page, "4")).to_have_attribute("aria-label", re.compile(r"^column 4: x\b"))
    view = api.view("connect4", pos)
    ai = pos[1]
    expected = "x o" if ai == "4" else "o"
    # The AI's disc is the last move, and its column says so.
    expect(column(page, ai)).to_have_attribute(
        "aria-label", f"column {ai}: {expected}, last move o"
    )
    # The disc sits where the server says it lands: the bottom slot of column 4.
    bottom = page.locator('.column[data-col="3"] .slot[data-row="5"] .disc')
    expect(bottom).to_have_attribute("data-mark", "x")
    assert view.board[5][3] == "x"
    page.keyboard.press("3")
    settle(page)
    assert position(page)[2] == "3"


def test_connect4_hint_and_full_columns(page: Page) -> None:
    choose_game(page, "connect4")
    for _ in range(3):
        column(page, "1").click()
        settle(page)
    labels = [column(page, c).get_attribute("aria-label") or "" for c in "1234567"]
    full = [label for label in labels if label.endswith("full")]
    assert all(label.count(" ") >= 7 for label in full)  # six discs listed
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    for c in "1234567":
        label = column(page, c).get_attribute("aria-label") or ""
        assert "hint: " in label or label.endswith("full")


def rgb(colour: str) -> str:
    """A #rrggbb colour as getComputedStyle gives it."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_the_sides_come_from_the_games_description(page: Page) -> None:
    """You play: one radio button per side as the game names it, and its marks
    in the side's colour, for every game (nothing about x or o in the page)."""

    def sides() -> list[str]:
        radios = page.get_by_role("group", name="You play").get_by_role("radio")
        names: list[str] = radios.evaluate_all("rs => rs.map((r) => r.labels[0].innerText.trim())")
        return names

    assert sides() == ["X", "O"]
    cell(page, "b2").click()
    settle(page)
    ttt = api.describe(TTT)
    assert ttt is not None
    for side in ttt.sides:
        mark = page.locator(f'.cell[data-mark="{side.mark}"] .mark').first
        assert mark.evaluate("m => getComputedStyle(m).color") == rgb(side.colour)
    page.once("dialog", lambda d: d.accept())  # the game in progress is discarded
    choose_game(page, "connect4")
    assert sides() == ["Red (x)", "Yellow (o)"]
    expect(page.get_by_role("radio", name="Red (x)")).to_be_checked()
    expect(page.locator("#play-as")).to_have_text("Yellow (o)")
    column(page, "4").click()
    settle(page)
    c4 = api.describe("connect4")
    assert c4 is not None
    for side in c4.sides:
        disc = page.locator(f'.disc[data-mark="{side.mark}"]').first
        assert disc.evaluate("d => getComputedStyle(d).backgroundColor") == rgb(side.colour)


#: Logs, in order, each disc that lands (its drop animation ends) and each
#: disc that appears on the board.
LOG_DROPS = """
() => {
  window.drops = [];
  const board = document.getElementById("board");
  const landed = (e) => drops.push(`landed ${e.target.dataset.mark}`);
  board.addEventListener("animationend", landed, { capture: true });  // before the page hears it
  new MutationObserver((changes) => {
    for (const { oldValue, target } of changes) {
      if (!oldValue && target.dataset.mark) drops.push(`shown ${target.dataset.mark}`);
    }
  }).observe(board, { subtree: true, attributeFilter: ["data-mark"], attributeOldValue: true });
}
"""


def test_the_ais_disc_falls_after_yours_has_landed(page: Page) -> None:
    choose_game(page, "connect4")
    page.evaluate(LOG_DROPS)
    column(page, "4").click()
    settle(page)
    expect(page.locator(".slot.last")).to_have_count(1)
    drops: list[str] = page.evaluate("drops")
    assert drops[0] == "shown x" and "shown o" in drops, drops
    assert "landed x" in drops and drops.index("landed x") < drops.index("shown o"), drops


def test_with_reduced_motion_nothing_falls_and_nothing_waits(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    choose_game(page, "connect4")
    page.evaluate(LOG_DROPS)
    column(page, "4").click()
    settle(page)
    drops: list[str] = page.evaluate("drops")
    assert "shown o" in drops and not any(d.startswith("landed") for d in drops), drops
    expect(page.locator("#status")).to_contain_text("Your turn")


def test_an_mnk_game_plays_on_the_same_page(page: Page) -> None:
    choose_game(page, "mnk:4,4,4")
    expect(page.locator("#board .cell")).to_have_count(16)
    cell(page, "b3").click()
    settle(page)
    assert count(page, "x") == 1 and count(page, "o") == 1
    expect(cell(page, "b3")).to_have_attribute("aria-label", re.compile(r"^b3 x, taken"))


# -- Explore and Learn -----------------------------------------------------------------


def test_explore_opens_the_tree_below_the_position(page: Page) -> None:
    cell(page, "b2").click()
    settle(page)
    page.get_by_role("button", name="Explore").click()
    tree = page.get_by_role("tree", name="Explore the tree below this position")
    expect(tree).to_be_visible()
    analysis = unbeatable.analyze(TTT, position(page))
    # Each item is named by exactly what it shows.
    root = tree.get_by_role("treeitem", name=re.compile(r"^This position: "))
    said = f"This position: {analysis.result} for {analysis.to_move.upper()}"
    expect(root).to_have_attribute("aria-label", said)
    expect(root.locator(".node")).to_have_text(said)
    for value in analysis.moves:
        words = "draw" if value.result == "draw" else f"{value.result} in {value.plies}"
        expect(
            tree.get_by_role("treeitem", name=re.compile(rf"^{value.move}: {words}"))
        ).to_have_count(1)
    first = tree.get_by_role("treeitem").nth(1)
    first.focus()
    page.keyboard.press("ArrowRight")
    expect(first).to_have_attribute("aria-expanded", "true")
    # A flat tree (as Learn's): the replies are the items a level deeper.
    replies = tree.locator('[role="treeitem"][aria-level="3"]')
    expect(replies.first).to_be_visible()
    assert replies.count() == len(analysis.moves) - 1
    assert any(
        (replies.nth(i).get_attribute("aria-label") or "").endswith(", best")
        for i in range(replies.count())
    )
    page.keyboard.press("ArrowDown")
    expect(page.locator(":focus")).to_have_attribute(
        "aria-label", replies.first.get_attribute("aria-label") or ""
    )
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(first).to_have_attribute("aria-expanded", "false")


def test_explore_opens_no_move_the_server_says_ends_the_game(page: Page) -> None:
    start_at(page, TTT, ["a3", "b3", "a2", "b2"])  # x to move: a1 wins at once
    page.get_by_role("button", name="Explore").click()
    tree = page.get_by_role("tree", name="Explore the tree below this position")
    win = tree.get_by_role("treeitem", name=re.compile(r"^a1: win in 1"))
    expect(win).to_have_count(1)
    assert win.get_attribute("aria-expanded") is None
    for move in ("c3", "c2", "b1", "c1"):
        item = tree.get_by_role("treeitem", name=re.compile(rf"^{move}: "))
        expect(item).to_have_attribute("aria-expanded", "false")
    win.focus()
    page.keyboard.press("ArrowRight")
    assert tree.locator('[role="treeitem"][aria-level="3"]').count() == 0


# The Learn view's own tests: tests/browser/test_browser_learn.py.


# -- failures, layout, contrast ------------------------------------------------------------


def fail_next_move(page: Page) -> None:
    """The page's next ``POST /api/move`` gets the answer of a busy server
    (503 with a JSON error); the ones after it go through."""
    failures = {"left": 1}

    def fail_once(route: Any) -> None:
        if failures["left"]:
            failures["left"] -= 1
            route.fulfill(status=503, body='{"error": "the engine is busy"}')
        else:
            route.continue_()

    page.route("**/api/move", fail_once)


def test_a_failed_request_never_freezes_the_game(page: Page) -> None:
    fail_next_move(page)
    cell(page, "b2").click()
    settle(page)
    expect(page.locator("#status")).to_contain_text("The AI could not answer: the engine is busy")
    retry = page.get_by_role("button", name="Retry")
    expect(retry).to_be_visible()
    # The page still answers: Undo works, and so does Retry.
    retry.click()
    settle(page)
    assert count(page, "o") == 1
    expect(retry).to_be_hidden()
    page.get_by_role("button", name="Hint", exact=True).click()
    settle(page)
    expect(page.locator("#legend")).to_be_visible()


def test_cells_and_the_status_line_keep_their_size(page: Page) -> None:
    def heights() -> list[float]:
        boxes = (c.bounding_box() for c in page.locator(".cell").all())
        return [box["height"] for box in boxes if box]

    def status_height() -> float:
        box = page.locator("#status").bounding_box()
        assert box is not None
        return box["height"]

    before, status_before = heights(), status_height()
    assert max(before) - min(before) < 1
    play_out(page, "x", hopeless)
    after = heights()
    assert max(after) - min(after) < 1 and abs(after[0] - before[0]) < 1
    assert abs(status_height() - status_before) < 1


@pytest.mark.parametrize(
    ("width", "height", "game"),
    [(390, 844, "tictactoe"), (390, 844, "connect4"), (844, 390, "connect4")],
)
def test_the_whole_board_fits_the_window(
    browser: sync_api.Browser, live_server: str, width: int, height: int, game: str
) -> None:
    ctx, tab = open_page(
        browser,
        live_server,
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
    )
    try:
        if game != "tictactoe":
            choose_game(tab, game)
        box = tab.locator("#board").bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert tab.locator("body").evaluate("b => b.scrollWidth") <= width
        expect(tab.locator("#keys")).to_be_hidden()  # no keyboard help on touch screens
    finally:
        ctx.close()


CONTRAST = """
([a, b]) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
"""


def test_graphics_contrast_at_least_3_to_1(page: Page) -> None:
    choose_game(page, "connect4")
    column(page, "4").click()
    settle(page)
    slot = page.locator('.column[data-col="0"] .slot').first
    empty = slot.evaluate("s => getComputedStyle(s).backgroundColor")
    for mark in "xo":
        disc = page.locator(f'.disc[data-mark="{mark}"]').first
        colour = disc.evaluate("d => getComputedStyle(d).backgroundColor")
        assert page.evaluate(CONTRAST, [colour, empty]) >= 3, (mark, colour, empty)
    board = page.locator("#board").evaluate("b => getComputedStyle(b).backgroundColor")
    column(page, "1").focus()
    page.keyboard.press("ArrowRight")
    focused = page.locator(":focus")
    ring = focused.evaluate("e => getComputedStyle(e).outlineColor")
    assert focused.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
    assert page.evaluate(CONTRAST, [ring, board]) >= 3


def test_controls_have_the_documented_names(page: Page) -> None:
    for name in ("Play Game", "New Game", "Undo", "Hint", "Explore", "Reset record"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
    expect(page.get_by_role("switch", name="Explain")).to_have_count(1)
    expect(page.get_by_role("tab", name="Play")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tab", name="Learn")).to_have_count(1)
    options = page.get_by_label("Game", exact=True).locator("option").all_inner_texts()
    assert options == [d.title for d in unbeatable.games.describe_all()]
    expect(page.locator("#status")).to_have_attribute("aria-live", "polite")


def test_docs_page_works_offline(page: Page, live_server: str) -> None:
    """The documentation page tries a request on this server; Swagger UI
    (offline, beside it) does too."""
    page.goto(f"{live_server}/docs")
    form = page.get_by_role("form", name="Try POST /api/move")
    form.get_by_role("button", name="Send").click()
    expect(form.locator("output")).to_contain_text("200 OK", timeout=15_000)
    expect(form.locator("output")).to_contain_text('"proven"')
    page.goto(f"{live_server}/docs/swagger")
    move = page.get_by_role("button", name="POST /api/move The AI's move", exact=True)
    expect(move).to_be_visible(timeout=15_000)
    move.click()
    page.get_by_role("button", name="Execute").click()
    # The live answer, below the request Swagger UI sent to this server.
    live = page.locator(".live-responses-table tbody .response-col_status")
    expect(live).to_contain_text("200", timeout=15_000)
