"""The Learn view in Debian's Chromium: the textbook tree walked step by step
with a narrative that says what each step changed (alpha and beta along the
whole path, cuts and why), step back, a scrubber and auto-play; a bad tree
leaves nothing stale behind; pruned nodes readable; the current node and a
huge tree's root in view on a phone. Screenshots go to LEARN_SHOTS (a folder)
when it is set."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright import sync_api

from test_web_browser import CONTRAST, browser, open_page, page

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["browser", "page"]  # the shared fixtures, used here

expect = sync_api.expect
Page = sync_api.Page
ALPHA, BETA = "\N{GREEK SMALL LETTER ALPHA}", "\N{GREEK SMALL LETTER BETA}"
INF, MINUS = "\N{INFINITY}", "\N{MINUS SIGN}"
THEN = "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"


def learn(page: Page, alphabeta: bool = False) -> sync_api.Locator:
    page.get_by_role("tab", name="Learn").click()
    tree = page.get_by_role("tree", name="Game tree")
    expect(tree.get_by_role("treeitem", name=re.compile(r"^root: MAX"))).to_be_visible()
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
    page.get_by_label("Step of the walk").fill("16")
    expect(tree.get_by_role("treeitem", name="root: MAX, value 12")).to_be_visible()
    assert tree.get_by_role("treeitem", name=re.compile("pruned")).count() == 0
    page.get_by_role("checkbox", name="Alpha-beta").check()
    page.get_by_label("Step of the walk").fill("15")
    expect(status(page)).to_contain_text("Done: the root's value is 12")
    pruned = tree.get_by_role("treeitem", name=re.compile("pruned"))
    expect(pruned).to_have_count(1)
    expect(pruned).to_have_attribute("aria-label", "leaf 23 under G, pruned")


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
    page.get_by_label("Step of the walk").fill("14")
    expect(tree.get_by_role("treeitem", name="root: MAX, value 3")).to_be_visible()


def test_step_draws_the_edited_leaves_first(page: Page) -> None:
    tree = learn(page)
    page.get_by_label("Leaves").fill("1 2 3 4")
    steps(page, 1)
    expect(tree.get_by_role("treeitem", name=re.compile(r"^leaf "))).to_have_count(4)
    expect(status(page)).to_contain_text("Step 1 of 7")
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


def test_the_walk_tells_each_step_with_alpha_and_beta_on_the_path(page: Page) -> None:
    tree = learn(page, alphabeta=True)
    current = tree.locator('[aria-current="step"]')
    steps(page, 1)
    expect(current).to_have_attribute("aria-label", "root: MAX, value not known yet")
    expect(status(page)).to_have_text(
        f"Step 1 of 14: Enter the root A (MAX) with {ALPHA} = {MINUS}{INF} and {BETA} = +{INF}."
    )
    expect(status(page)).to_have_attribute("aria-live", "polite")
    steps(page, 4)  # the leaf 5: node D is 5, and beta at B becomes 5
    expect(current).to_have_attribute("aria-label", "leaf 5 under D")
    expect(status(page)).to_have_text(
        "Step 5 of 14: Look at leaf 5 under D. \N{GREEK SMALL LETTER ALPHA} at D becomes 5. "
        f"Node D (MAX) is 5. {BETA} at B becomes 5."
    )
    expect(page.locator("#learn-path")).to_have_text(
        f"Path: the root A {ALPHA} {MINUS}{INF} {BETA} +{INF}"
        f" {THEN} B {ALPHA} {MINUS}{INF} {BETA} 5 {THEN} D {ALPHA} 5 {BETA} +{INF}"
    )
    # Every node on the path shows its alpha and beta now, not only the current one.
    root = tree.get_by_role("treeitem", name=re.compile(r"^root: "))
    expect(root.locator(":scope > .node .ab")).to_have_text(f"{ALPHA} {MINUS}{INF} {BETA} +{INF}")
    steps(page, 3)  # the 9 under E: E saw both its leaves, so its value is 9, not "at least 9"
    expect(status(page)).to_contain_text(f"9 ≥ {BETA} = 5: MIN above will avoid E.")
    expect(tree.get_by_role("treeitem", name="E: MAX, value 9")).to_be_visible()
    at_least = tree.get_by_role("treeitem", name=re.compile(r"^E: MAX, value at least"))
    expect(at_least).to_have_count(0)
    steps(page, 6)  # the left 23 under G cuts: its sibling cannot matter
    expect(status(page)).to_contain_text(
        f"Step 14 of 14: Look at leaf 23 under G. Cut: 23 ≥ {BETA} = 12, so MIN above "
        "avoids G: the rest of G cannot matter. Node G (MAX) is at least 23."
    )
    shoot(page, "learn-desktop.png")


def test_the_last_step_shows_the_last_leaf_then_done(page: Page) -> None:
    tree = learn(page)
    current = tree.locator('[aria-current="step"]')
    steps(page, 12)  # minimax tells what each value does to the node above too
    expect(status(page)).to_have_text(
        "Step 12 of 15: Look at leaf 5 under F. F keeps 12, higher than 5. "
        "Node F (MAX) is 12. Lowest so far at C: 12."
    )
    steps(page, 3)
    expect(current).to_have_attribute("aria-label", "leaf 23 under G")
    expect(status(page)).to_contain_text("Step 15 of 15")
    steps(page, 1)
    expect(status(page)).to_contain_text("Done: the root's value is 12")
    expect(current).to_have_count(0)
    # After Done, Step is plainly off (the keyboard's focus moves to Back);
    # Back and Run still work.
    expect(button(page, "Step")).to_be_disabled()
    expect(button(page, "Back")).to_be_focused()
    button(page, "Back").click()
    expect(status(page)).to_contain_text("Step 15 of 15")


def test_back_scrub_and_switching_the_walk(page: Page) -> None:
    tree = learn(page, alphabeta=True)
    current = tree.locator('[aria-current="step"]')
    steps(page, 6)
    button(page, "Back").click()
    expect(status(page)).to_contain_text("Step 5 of 14")
    expect(current).to_have_attribute("aria-label", "leaf 5 under D")
    page.get_by_label("Step of the walk").fill("2")
    expect(current).to_have_attribute("aria-label", "B: MIN, value not known yet")
    page.get_by_role("checkbox", name="Alpha-beta").uncheck()  # another walk: start again
    expect(current).to_have_count(0)
    expect(status(page)).to_contain_text("Press Step")
    expect(page.get_by_label("Step of the walk")).to_have_value("0")


def test_run_plays_the_walk_and_pauses(page: Page) -> None:
    learn(page, alphabeta=True)
    page.get_by_label("Speed").select_option("Fast")
    button(page, "Run").click()
    expect(button(page, "Pause")).to_be_visible()
    expect(status(page)).to_contain_text("Done: the root's value is 12", timeout=15_000)
    expect(button(page, "Run")).to_be_visible()
    page.get_by_label("Speed").select_option("Slow")
    button(page, "Run").click()  # from the start again
    expect(status(page)).to_contain_text("Step 1 of 14")
    button(page, "Pause").click()
    expect(button(page, "Run")).to_be_visible()
    page.wait_for_timeout(2000)
    expect(status(page)).to_contain_text("Step 1 of 14")


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
        assert "pruned" in (item.get_attribute("aria-label") or "")
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
    leaf = tree.get_by_role("treeitem", name="leaf 12 under F")

    def where() -> tuple[float, float]:
        box = leaf.bounding_box()
        assert box is not None
        return box["x"], box["y"]

    steps(page, 1)
    start = where()
    for _ in range(12):
        steps(page, 1)
        assert where() == start


def test_on_a_phone_the_current_node_and_a_big_root_are_in_view(
    browser: sync_api.Browser, live_server: str
) -> None:
    ctx, tab = open_page(
        browser, live_server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        tree = learn(tab, alphabeta=True)
        tab.get_by_label("Leaves").fill(" ".join(str((i * 37) % 101) for i in range(32)))
        for _ in range(25):
            button(tab, "Step").click()
        current = tree.locator('[aria-current="step"] > .node .box')
        expect(current).to_be_in_viewport()
        assert tab.locator("body").evaluate("b => b.scrollWidth") <= 390
        shoot(tab, "learn-phone.png")
        tab.get_by_label("Leaves").fill(" ".join(str(i % 10) for i in range(1024)))
        tab.get_by_label("Leaves").press("Enter")
        expect(tab.locator("#learn-counts")).to_contain_text("Minimax visits 2047 nodes")
        expect(tree.locator("li").first.locator(":scope > .node .box")).to_be_in_viewport()
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
    expect(tree.get_by_role("treeitem", name=re.compile(r"^root: MAX"))).to_have_count(1)
    page.get_by_label("Children's order").select_option("As drawn")
    expect(page.get_by_label("Leaves")).to_have_value("3 5 2 9 12 5 23 23")
    expect(leaves_note).to_contain_text("Alpha-beta looks at 7 of the 8 leaves")
    # A random tree of depth 4, branching 3: 81 leaves, and the bound 3^2 + 3^2 - 1.
    page.get_by_label("Depth", exact=True).select_option("4")
    page.get_by_label("Branching").select_option("3")
    button(page, "Random tree").click()
    expect(tree.get_by_role("treeitem", name=re.compile(r"^leaf "))).to_have_count(81)
    expect(leaves_note).to_contain_text("it would look at 17")
    page.get_by_label("Children's order").select_option("Best first")
    expect(leaves_note).to_contain_text("Alpha-beta looks at 17 of the 81 leaves")
    page.get_by_label("Children's order").select_option("Shuffled")
    expect(leaves_note).to_contain_text("of the 81 leaves")
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
    expect(tree.get_by_role("treeitem", name=re.compile(r"^root: MAX"))).to_be_visible()
    return tree


def test_depth_limited_search_and_the_horizon_effect(page: Page) -> None:
    """'Block or lose': at depth 1 o counts open lines and misses x's threat
    (the estimates marked, the move a loss); at depth 2 it sees x's win and
    blocks. The table keeps both depths against the exact values."""
    tree = depth_lesson(page)
    expect(page.get_by_role("textbox", name="Position", exact=True)).to_have_value("x.o/.x./... o")
    expect(page.locator("#depth-rule")).to_contain_text("lines still open for x (no o in them)")
    table = page.get_by_role("table", name=re.compile("The move chosen at each depth"))
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_have_text(f"1a2estimate {MINUS}1loses in 2 plies: worse than c1")
    leaves = tree.get_by_role("treeitem", name=re.compile(r"under A \(estimate "))
    expect(leaves).to_have_count(6)
    expect(tree.locator(".estimate")).to_have_count(6)
    expect(page.locator("#depth-summary")).to_contain_text("beyond the search's horizon")
    page.get_by_label("Search depth").select_option("2")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_have_text(re.compile(r"^2c1estimate .*draws$"))
    expect(rows.nth(1)).to_have_attribute("aria-current", "true")
    # x's win at c1 under a2 is a finished game: its real result, not an estimate.
    win = tree.get_by_role("treeitem", name="c1 under C (game over: loss for MAX)")
    expect(win).to_have_count(1)
    expect(page.locator("#depth-summary")).to_contain_text(
        "At depth 1 the search chose a2 instead: the danger was past its horizon."
    )
    # The walk steps through this tree too, and ends on the choice.
    page.get_by_label("Step of the walk").fill("99")
    expect(status(page)).to_contain_text("Done: at depth 2, O plays c1")
    # Deeper choices are offered only while the tree stays under 5,000 nodes.
    depths = page.get_by_label("Search depth").locator("option")
    expect(depths).to_have_count(6)
    page.locator("#depth-form").get_by_label("Game").select_option("Connect Four")
    expect(page.get_by_role("textbox", name="Position", exact=True)).to_have_value("444145167325")
    # The first Connect Four search may compile the board's solver in the server.
    expect(rows).to_have_count(1, timeout=60_000)
    expect(rows.nth(0)).to_contain_text("column 5")
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


def test_on_a_phone_the_narrative_keeps_the_tree_in_place(
    browser: sync_api.Browser, live_server: str
) -> None:
    """The narrative's lines vary from step to step; on a narrow screen they
    wrap, and the tree below must not move."""
    ctx, tab = open_page(
        browser, live_server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        learn(tab, alphabeta=True)
        box = tab.locator(".tree-box")
        heights = set()
        tops = set()
        for _ in range(15):
            button(tab, "Step").click()
            heights.add(status(tab).evaluate("s => s.getBoundingClientRect().height"))
            tops.add(box.evaluate("b => b.getBoundingClientRect().top + window.scrollY"))
        assert len(heights) == 1 and len(tops) == 1, (heights, tops)
        tab.get_by_role("radio", name="Depth-limited search").check()
        expect(tab.locator("#depth-table tbody tr")).to_have_count(1)
        assert tab.locator("body").evaluate("b => b.scrollWidth") <= 390
        shoot(tab, "learn-depth-phone.png")
    finally:
        ctx.close()
