"""The Learn view in Debian's Chromium: the textbook tree walked one line of
pseudocode at a time, with a narrative that says what each step did and why
(alpha and beta along the whole path, cuts), the line highlighted in the
pseudocode panel exactly as the server's trace ran it, step back, a scrubber
and auto-play; a bad tree leaves nothing stale behind; pruned nodes readable;
the depth lesson's horizon, ties and the line beyond the horizon; the tree
fitted to a phone with the current node in view. Practice, leaves edited on
the tree, the address and axe-core: tests/browser/test_browser_learn_course.py.
Screenshots go to LEARN_SHOTS (a folder) when it is set."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright import sync_api

from test_web_browser import CONTRAST, open_page, page

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["page"]  # the shared fixture, used here

expect = sync_api.expect
Page = sync_api.Page
ALPHA, BETA = "\N{GREEK SMALL LETTER ALPHA}", "\N{GREEK SMALL LETTER BETA}"
INF, MINUS = "\N{INFINITY}", "\N{MINUS SIGN}"
THEN = "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"


def learn(page: Page, alphabeta: bool = False) -> sync_api.Locator:
    page.get_by_role("tab", name="Learn").click()
    tree = page.get_by_role("tree", name="Game tree")
    expect(tree.get_by_role("treeitem", name=re.compile(r"^MAX A .*the root"))).to_be_visible()
    if alphabeta:
        page.get_by_role("checkbox", name="Alpha-beta").check()
    return tree


def button(page: Page, name: str) -> sync_api.Locator:
    return page.get_by_role("button", name=name, exact=True)


def status(page: Page) -> sync_api.Locator:
    return page.locator("#learn-status")


def steps(page: Page, n: int) -> None:
    for _ in range(n):
        button(page, "Step").click()


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("LEARN_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True, animations="disabled")


def test_minimax_and_alphabeta_on_the_textbook_tree(page: Page) -> None:
    tree = learn(page)
    expect(page.locator("#learn-counts")).to_have_text(
        "Minimax visits 15 nodes; alpha-beta visits 14 and prunes 1."
    )
    page.get_by_label("Step of the walk").fill("37")  # minimax: 37 lines run
    expect(status(page)).to_contain_text("Done: the root's value is 12")
    root = tree.get_by_role("treeitem", name=re.compile("^MAX A 12, the root"))
    expect(root).to_have_attribute("aria-label", "MAX A 12, the root, on the line of best play")
    assert tree.get_by_role("treeitem", name=re.compile("pruned")).count() == 0
    page.get_by_role("checkbox", name="Alpha-beta").check()
    page.get_by_label("Step of the walk").fill("57")
    expect(status(page)).to_contain_text("Done: the root's value is 12")
    pruned = tree.get_by_role("treeitem", name=re.compile("pruned"))
    expect(pruned).to_have_count(1)
    expect(pruned).to_have_attribute("aria-label", "23 pruned, leaf under G")


def test_an_error_leaves_no_stale_tree(page: Page) -> None:
    """Leaves "3 5 2": the old tree, counts and steps go; Run and Step keep the
    error instead of walking the old tree."""
    tree = learn(page)
    leaves = page.get_by_label("Leaves")
    leaves.fill("3 5 2")
    leaves.press("Enter")
    expect(status(page)).to_have_text(
        "Cannot draw that tree: leaves: got 3, but a binary tree needs a power of two "
        "(2, 4, 8, 16, ...) of them; use a nested JSON list for other shapes."
    )
    expect(tree.get_by_role("treeitem")).to_have_count(0)
    expect(page.locator("#learn-counts")).to_have_text("")
    expect(button(page, "Step")).to_be_disabled()
    expect(button(page, "Run")).to_be_disabled()
    expect(leaves).to_have_attribute("aria-invalid", "true")
    leaves.fill("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    leaves.press("Enter")
    expect(page.locator("#learn-counts")).to_contain_text("Minimax visits 13 nodes")
    page.get_by_label("Step of the walk").fill("99")
    expect(tree.get_by_role("treeitem", name=re.compile("^MAX A 3, the root"))).to_be_visible()


def test_step_draws_the_edited_leaves_first(page: Page) -> None:
    tree = learn(page)
    page.get_by_label("Leaves").fill("1 2 3 4")
    steps(page, 1)
    expect(tree.get_by_role("treeitem", name=re.compile(r"leaf under"))).to_have_count(4)
    expect(status(page)).to_contain_text("Step 1 of 17")
    page.get_by_label("Leaves").fill("1 2 x 4")
    button(page, "Run").click()
    expect(status(page)).to_contain_text('"x" is not allowed')
    expect(tree.get_by_role("treeitem")).to_have_count(0)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("99999999999999999999", '"99999999999999999999" is not allowed'),
        ("1e3 2", '"1e3" is not allowed'),
        ("Infinity 2", '"Infinity" is not allowed'),
        ("[[1, 2.5], [3, 4]]", '"2.5" is not allowed'),
    ],
)
def test_leaves_are_whole_numbers_in_a_safe_range(page: Page, text: str, shown: str) -> None:
    learn(page)
    page.get_by_label("Leaves").fill(text)
    page.get_by_label("Leaves").press("Enter")
    expect(status(page)).to_contain_text(shown)
    expect(status(page)).to_contain_text("whole numbers of at most 15 digits")


def code_line(page: Page) -> str:
    return page.locator("#learn-code-lines [aria-current=step] code").inner_text()


def test_the_walk_tells_each_step_with_alpha_and_beta_on_the_path(page: Page) -> None:
    tree = learn(page, alphabeta=True)
    current = tree.locator('[aria-current="step"]')
    steps(page, 1)
    expect(current).to_have_attribute(
        "aria-label", f"MAX A ? {ALPHA} {MINUS}{INF} {BETA} +{INF}, the root, value not known yet"
    )
    expect(status(page)).to_have_text(
        f"Step 1 of 57: Enter the root A (MAX) with {ALPHA} = {MINUS}{INF} and {BETA} = +{INF};"
        f" v starts at {MINUS}{INF}."
    )
    assert code_line(page) == f"v ← {MINUS}{INF}"
    expect(status(page)).to_have_attribute("aria-live", "polite")
    steps(page, 10)  # leaf 5 came back to D: v 5, then alpha at D rises to 5
    expect(current).to_have_attribute(
        "aria-label", f"MAX D ? {ALPHA} 5 {BETA} +{INF}, value not known yet"
    )
    expect(status(page)).to_have_text(f"Step 11 of 57: {ALPHA} at D ← max(3, 5) = 5.")
    assert code_line(page) == f"{ALPHA} ← MAX({ALPHA}, v)"
    expect(page.locator("#learn-code-frame")).to_have_text(
        f"Line 9 ran last, in MAX-VALUE of node D: v = 5, {ALPHA} = 5, {BETA} = +{INF}."
    )
    steps(page, 4)  # D returned 5 to B, whose beta falls to 5
    expect(page.locator("#learn-path")).to_have_text(
        f"Path: the root A {ALPHA} {MINUS}{INF} {BETA} +{INF}"
        f" {THEN} B {ALPHA} {MINUS}{INF} {BETA} 5"
    )
    # Every node on the path shows its alpha and beta, not only the current one.
    root = tree.get_by_role("treeitem", name=re.compile(r"^MAX A "))
    expect(root.locator(".ab")).to_have_text(f"{ALPHA} {MINUS}{INF} {BETA} +{INF}")
    steps(page, 8)  # the 9 under E: E saw both its leaves, so it is 9, not "at least 9"
    expect(status(page)).to_have_text(
        f"Step 23 of 57: 9 ≥ {BETA} = 5: MIN above will avoid E. E returns 9."
    )
    assert code_line(page) == f"if v ≥ {BETA} then return v"
    expect(tree.get_by_role("treeitem", name=re.compile("^MAX E 9"))).to_have_count(1)
    page.get_by_label("Step of the walk").fill("48")  # the left 23 under G cuts
    expect(status(page)).to_have_text(
        f"Step 48 of 57: Cut: 23 ≥ {BETA} = 12, so MIN above avoids G: the rest of G cannot matter."
        " G returns at least 23."
    )
    expect(tree.get_by_role("treeitem", name=re.compile("pruned"))).to_have_count(1)
    shoot(page, "learn-desktop.png")


#: Step through the whole walk in the page, as the Step button does, and
#: read the line highlighted after each step (one call: no round trip a step).
WALK_LINES = """
async (count) => {
  const shown = [];
  const lines = [...document.querySelectorAll('#learn-code-lines li')];
  for (let i = 0; i < count; i++) {
    document.getElementById('step').click();
    await new Promise((done) => setTimeout(done, 0));
    shown.push(lines.findIndex((li) => li.getAttribute('aria-current') === 'step') + 1);
  }
  return shown;
}
"""


def test_the_pseudocode_highlights_the_line_the_server_ran(page: Page, live_server: str) -> None:
    """Every step of both walks, stepped through: the line highlighted is the
    line the server's trace says the step ran, and the panel's text is the
    trace's pseudocode."""
    learn(page)
    leaves = [3, 5, 2, 9, 12, 5, 23, 23]
    for algorithm in ("minimax", "alphabeta"):
        trace = page.request.post(
            f"{live_server}/api/tree", data={"leaves": leaves, "algorithm": algorithm}
        ).json()
        page.get_by_role("checkbox", name="Alpha-beta").set_checked(algorithm == "alphabeta")
        lines = page.locator("#learn-code-lines code")
        expect(lines).to_have_count(len(trace["pseudocode"]))
        assert [text.strip() for text in trace["pseudocode"]] == lines.all_inner_texts()
        shown = page.evaluate(WALK_LINES, len(trace["steps"]))
        assert shown == [step["line"] for step in trace["steps"]]
        expect(button(page, "Step")).to_be_disabled()


def test_the_last_step_shows_the_last_leaf_then_done(page: Page) -> None:
    tree = learn(page)
    current = tree.locator('[aria-current="step"]')
    page.get_by_label("Step of the walk").fill("33")  # minimax tells the value coming back
    expect(status(page)).to_have_text("Step 33 of 37: Back at C (MIN): v ← min(12, 23) = 12.")
    steps(page, 2)
    expect(current).to_have_attribute("aria-label", "MAX A ?, the root, value not known yet")
    expect(status(page)).to_contain_text("Step 35 of 37")
    steps(page, 2)
    expect(status(page)).to_contain_text("Done: the root's value is 12")
    expect(current).to_have_count(0)
    # After Done, Step is plainly off (the keyboard's focus moves to Back);
    # Back and Run still work.
    expect(button(page, "Step")).to_be_disabled()
    expect(button(page, "Back")).to_be_focused()
    button(page, "Back").click()
    expect(status(page)).to_contain_text("Step 36 of 37")


def test_back_scrub_and_switching_the_walk(page: Page) -> None:
    tree = learn(page, alphabeta=True)
    current = tree.locator('[aria-current="step"]')
    steps(page, 9)
    button(page, "Back").click()
    expect(status(page)).to_contain_text("Step 8 of 57")
    expect(current).to_have_attribute("aria-label", "5, leaf under D")
    page.get_by_label("Step of the walk").fill("2")
    expect(current).to_have_attribute("aria-label", re.compile("^MIN B ? "))
    page.get_by_role("checkbox", name="Alpha-beta").uncheck()  # another walk: start again
    expect(current).to_have_count(0)
    expect(status(page)).to_contain_text("Press Step")
    expect(page.get_by_label("Step of the walk")).to_have_value("0")


def test_run_plays_the_walk_and_pauses(page: Page) -> None:
    learn(page, alphabeta=True)
    page.get_by_label("Leaves").fill("4 8")
    page.get_by_label("Speed").select_option("Fast")
    button(page, "Run").click()
    expect(button(page, "Pause")).to_be_visible()
    expect(status(page)).to_contain_text("Done: the root's value is 8", timeout=15_000)
    expect(button(page, "Run")).to_be_visible()
    page.get_by_label("Speed").select_option("Slow")
    button(page, "Run").click()  # from the start again
    expect(status(page)).to_contain_text("Step 1 of 11")
    button(page, "Pause").click()
    expect(button(page, "Run")).to_be_visible()
    page.wait_for_timeout(1500)
    expect(status(page)).to_contain_text("Step 1 of 11")


def test_pruned_nodes_are_readable_and_faded_together(page: Page) -> None:
    tree = learn(page, alphabeta=True)
    page.get_by_label("Leaves").fill("9 8 7 6 5 4 3 2 1 0 1 2 3 4 5 6")
    page.get_by_label("Leaves").press("Enter")
    expect(page.locator("#learn-counts")).to_contain_text("Minimax visits 31 nodes")
    page.get_by_label("Step of the walk").fill("99")
    expect(status(page)).to_contain_text("Done")
    pruned = tree.locator(".pruned")
    assert pruned.count() >= 3
    # Below a pruned node everything is pruned too, and looks it.
    for item in pruned.all():
        assert "pruned" in (item.locator(":scope > .node").get_attribute("aria-label") or "")
        box = item.locator(":scope > .node .box")
        ink, bg, opacity = box.evaluate(
            "b => { const s = getComputedStyle(b); "
            "return [s.color, s.backgroundColor, s.opacity]; }"
        )
        assert opacity == "1"
        assert page.evaluate(CONTRAST, [ink, bg]) >= 4.5, (ink, bg)
        assert bg != "rgb(255, 255, 255)"


def test_the_boxes_keep_their_place_while_stepping(page: Page) -> None:
    tree = learn(page, alphabeta=True)
    leaf = tree.get_by_role("treeitem", name=re.compile("^12, leaf under F"))

    def where() -> tuple[float, float]:
        """Where the leaf is on the page (the walk may scroll it into view)."""
        box = leaf.bounding_box()
        assert box is not None
        return box["x"], box["y"] + page.evaluate("window.scrollY")

    steps(page, 1)
    start = where()
    for _ in range(20):
        steps(page, 1)
        assert where() == start


FITS = "b => b.scrollWidth <= b.clientWidth"


def test_on_a_phone_every_tree_fits_or_scrolls_in_its_frame(
    browser: sync_api.Browser, live_server: str
) -> None:
    """At 390 px: the textbook tree and the depth lesson's first tree fit their
    frame (the compact layout, zoomed to fit if need be); the narrative keeps
    the tree in place while it wraps to more or fewer lines; a tree too wide
    for the least zoom scrolls in its frame with the current node in view, and
    the page itself never scrolls sideways."""
    ctx, tab = open_page(
        browser, live_server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        tree = learn(tab, alphabeta=True)
        frame = tab.locator(".tree-box")
        assert frame.evaluate(FITS)
        heights = set()
        tops = set()
        for _ in range(20):
            button(tab, "Step").click()
            heights.add(status(tab).evaluate("s => s.getBoundingClientRect().height"))
            tops.add(frame.evaluate("b => b.getBoundingClientRect().top + window.scrollY"))
        assert len(heights) == 1 and len(tops) == 1, (heights, tops)
        for box in tree.locator(".box").all():
            expect(box).to_be_in_viewport(ratio=1)  # none cut off at the frame's sides
        shoot(tab, "learn-phone.png")
        tab.get_by_label("Leaves").fill(" ".join(str((i * 37) % 101) for i in range(32)))
        for _ in range(40):
            button(tab, "Step").click()
        assert not frame.evaluate(FITS)  # 32 leaves: wider than the least zoom allows
        expect(tree.locator('[aria-current="step"] .box')).to_be_in_viewport()
        assert tab.locator("body").evaluate("b => b.scrollWidth") <= 390
        tab.get_by_role("radio", name="Depth-limited search").check()
        expect(tab.locator("#depth-table tbody tr")).to_have_count(1)
        expect(tree.get_by_role("treeitem", name=re.compile(r"^MAX A "))).to_be_visible()
        assert frame.evaluate(FITS)
        assert tab.locator("body").evaluate("b => b.scrollWidth") <= 390
        shoot(tab, "learn-depth-phone.png")
    finally:
        ctx.close()


def test_random_trees_and_the_order_of_children(page: Page) -> None:
    """Best first, alpha-beta looks at the fewest leaves Knuth and Moore allow
    (2^2 + 2^1 - 1 = 5 of 8 here); worst first, at all of them."""
    tree = learn(page)
    leaves_note = page.locator("#learn-leaves")
    expect(leaves_note).to_contain_text("Alpha-beta looks at 7 of the 8 leaves")
    page.get_by_label("Children's order").select_option("Best first")
    expect(leaves_note).to_contain_text("Alpha-beta looks at 5 of the 8 leaves")
    expect(leaves_note).to_contain_text("it would look at 5")
    page.get_by_label("Children's order").select_option("Worst first")
    expect(leaves_note).to_contain_text("Alpha-beta looks at 8 of the 8 leaves")
    expect(tree.get_by_role("treeitem", name=re.compile(r"^MAX A "))).to_have_count(1)
    page.get_by_label("Children's order").select_option("As drawn")
    expect(page.get_by_label("Leaves")).to_have_value("3 5 2 9 12 5 23 23")
    expect(leaves_note).to_contain_text("Alpha-beta looks at 7 of the 8 leaves")
    # A random tree of depth 4, branching 3: 81 leaves, and the bound 3^2 + 3^2 - 1.
    page.get_by_label("Depth", exact=True).select_option("4")
    page.get_by_label("Branching").select_option("3")
    button(page, "Random tree").click()
    expect(tree.get_by_role("treeitem", name=re.compile(r"leaf under"))).to_have_count(81)
    expect(leaves_note).to_contain_text("it would look at 17")
    page.get_by_label("Children's order").select_option("Best first")
    expect(leaves_note).to_contain_text("Alpha-beta looks at 17 of the 81 leaves")
    # The shuffled tree's traces are followed to their answers, so that none
    # of them is taken below for one of the requests held there.
    tracing: list[sync_api.Request] = []
    page.on("request", lambda r: tracing.append(r) if "/api/tree" in r.url else None)
    page.on("requestfinished", lambda r: tracing.remove(r) if r in tracing else None)
    page.get_by_label("Children's order").select_option("Shuffled")
    expect(leaves_note).to_contain_text("of the 81 leaves")
    for _ in range(200):
        if not tracing:
            break
        page.wait_for_timeout(50)
    assert not tracing, "the shuffled tree's traces were answered"
    # Too big a tree is refused before asking the server, and an answer still
    # on its way (held here, as a busy server would) does not draw over that.
    held: list[sync_api.Route] = []

    def hold(route: sync_api.Route) -> None:
        held.append(route)

    page.route("**/api/tree", hold)
    page.get_by_label("Children's order").select_option("Best first")
    for _ in range(100):  # the two requests reach the route
        if len(held) == 2:
            break
        page.wait_for_timeout(50)
    page.get_by_label("Depth", exact=True).select_option("6")
    page.get_by_label("Branching").select_option("5")
    button(page, "Random tree").click()
    refusal = "has 19,531 nodes; at most 5,000 are drawn"
    expect(status(page)).to_contain_text(refusal)
    assert len(held) == 2, "the reordered tree's two traces are on their way"
    for route in held:
        with page.expect_response("**/api/tree"):
            route.continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    expect(status(page)).to_contain_text(refusal)
    page.unroute("**/api/tree")


def depth_lesson(page: Page) -> sync_api.Locator:
    learn(page)
    page.get_by_role("radio", name="Depth-limited search").check()
    tree = page.get_by_role("tree", name="Game tree")
    expect(tree.get_by_role("treeitem", name=re.compile(r"^MAX A .*the root"))).to_be_visible()
    return tree


def test_depth_limited_search_and_the_horizon_effect(page: Page) -> None:
    """'Block or lose': at depth 1 o counts open lines and four moves tie at
    -1; the tie is flagged and said broken by the game's order (a2 first),
    a2 loses beyond the horizon (the line a2 c1 shown beside the one the
    search expects), while c1, tied with it, draws. At depth 2 o sees x's win
    and blocks. The evaluation is stated from o's side (MAX here)."""
    tree = depth_lesson(page)
    expect(page.get_by_role("textbox", name="Position", exact=True)).to_have_value("x.o/.x./... o")
    expect(page.locator("#depth-rule")).to_have_text(
        "MAX is O, to move; every value is for MAX. The evaluation function, from o's side: "
        f"{MINUS}(lines still open for x (no o in them) minus lines still open for o), "
        "the negative of x's count."
    )
    table = page.get_by_role("table", name=re.compile("The move chosen at each depth"))
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_have_text(
        f"1a2 (tied with a1, b1 and c1)estimate {MINUS}1loses in 2 plies: worse than c1"
    )
    leaves = tree.get_by_role("treeitem", name=re.compile(r"an estimate at the depth limit"))
    expect(leaves).to_have_count(6)
    expect(tree.locator(".estimate")).to_have_count(6)
    summary = page.locator("#depth-summary")
    expect(summary).to_contain_text(
        f"At depth 1, a2, a1, b1 and c1 all score {MINUS}1 for O: a tie, broken by the game's "
        "tie-break order, which puts a2 first. They only look equal: a2 loses in 2 plies, "
        "while c1 draws; what separates them lies more than 1 ply ahead, beyond the horizon"
    )
    expect(page.locator("#depth-line-seen")).to_have_text(
        f"a2, then the horizon: estimate {MINUS}1"
    )
    expect(page.locator("#depth-line-real-title")).to_have_text(
        "Beyond the horizon, the line that refutes it"
    )
    expect(page.locator("#depth-line-real")).to_have_text("a2 ┊ c1: O loses in 2 plies.")
    # Once the walk is done the tied moves are flagged on the tree.
    page.get_by_label("Step of the walk").fill("99")
    tied = tree.get_by_role("treeitem", name=re.compile(r"tied with the chosen move"))
    expect(tied).to_have_count(4)
    expect(tree.locator(".learn-tie .ab")).to_have_text(["tie"] * 4)
    page.get_by_label("Search depth").select_option("2")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_have_text(re.compile(r"^2c1estimate .*draws$"))
    expect(rows.nth(1)).to_have_attribute("aria-current", "true")
    # x's win at c1 under a2 is a finished game: its real result, not an estimate.
    win = tree.get_by_role("treeitem", name=re.compile(r"^c1 loss, under C, the game is over"))
    expect(win).to_have_count(1)
    expect(summary).to_contain_text(
        "At depth 1 the search chose a2 instead: the danger was past its horizon."
    )
    expect(page.locator("#depth-line-real-title")).to_have_text(
        "Beyond the horizon, with best play"
    )
    # The walk steps through this tree too, and ends on the choice.
    page.get_by_label("Step of the walk").fill("999")
    expect(status(page)).to_contain_text("Done: at depth 2, O plays c1")
    # Deeper choices are offered only while the tree stays under 5,000 nodes.
    depths = page.get_by_label("Search depth").locator("option")
    expect(depths).to_have_count(6)
    page.locator("#depth-form").get_by_label("Game").select_option("Connect Four")
    expect(page.get_by_role("textbox", name="Position", exact=True)).to_have_value("444145167325")
    # The first Connect Four search may compile the board's solver in the server.
    expect(rows).to_have_count(1, timeout=60_000)
    expect(rows.nth(0)).to_contain_text("column 5")
    expect(page.locator("#depth-rule")).to_contain_text("from x's side: each line of four")
    expect(depths).to_have_count(4)
    shoot(page, "learn-depth-desktop.png")


def test_a_bad_position_in_the_depth_lesson(page: Page) -> None:
    tree = depth_lesson(page)
    field = page.get_by_role("textbox", name="Position", exact=True)
    field.fill("xxx/oo./... o")
    expect(page.get_by_role("combobox", name="Example")).to_have_value("")
    field.press("Enter")
    expect(status(page)).to_contain_text("Cannot draw that tree: the game is over")
    expect(tree.get_by_role("treeitem")).to_have_count(0)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#depth-table tbody tr")).to_have_count(0)
    page.get_by_role("combobox", name="Example").select_option("A fork four plies deep")
    expect(page.locator("#depth-table tbody tr")).to_have_count(1)
    expect(field).not_to_have_attribute("aria-invalid", "true")
