"""Learn as a course, in Debian's Chromium: alpha and beta defined where they
first appear; practice (predict each node's value, or tick the leaves
alpha-beta prunes; Check marks each answer and says why, with a score); leaves
edited on the tree itself; Learn's state in the address (a link opens the
lesson, tree, walk, order and step it was copied at); every node named by what
it shows first; axe-core, with its label-in-name rule on, finding nothing in
any Learn state on a desktop or a phone."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright import sync_api

from test_browser_axe import DESKTOP, PHONE, opened
from test_web_browser import open_page, page
from unbeatable import api

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["page"]  # the shared fixture, used here

expect = sync_api.expect
Page = sync_api.Page
ALPHA, BETA = "\N{GREEK SMALL LETTER ALPHA}", "\N{GREEK SMALL LETTER BETA}"
INF, MINUS = "\N{INFINITY}", "\N{MINUS SIGN}"
#: axe-core with its experimental label-in-name rule on: the spoken name of
#: every node must hold what the node shows.
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


def learn(page: Page) -> sync_api.Locator:
    page.get_by_role("tab", name="Learn").click()
    tree = page.get_by_role("tree", name="Game tree")
    expect(tree.get_by_role("treeitem", name=re.compile(r"^MAX A "))).to_be_visible()
    return tree


def status(page: Page) -> sync_api.Locator:
    return page.locator("#learn-status")


def button(page: Page, name: str) -> sync_api.Locator:
    return page.get_by_role("button", name=name, exact=True)


def practise(page: Page, kind: str) -> sync_api.Locator:
    if page.get_by_role("tab", name="Learn").get_attribute("aria-selected") != "true":
        learn(page)
    page.get_by_role("switch", name="Practice").check()
    page.get_by_label("Predict", exact=True).select_option(kind)
    return page.get_by_role("list", name=re.compile("^Practice tree"))


def test_alpha_and_beta_are_defined_where_they_first_appear(page: Page) -> None:
    learn(page)
    terms = page.locator("#learn-ab-terms")
    expect(terms).to_be_hidden()
    switch = page.get_by_role("checkbox", name="Alpha-beta")
    switch.check()
    expect(terms).to_be_visible()
    expect(terms.locator("dfn")).to_have_text([f"{ALPHA} (alpha)", f"{BETA} (beta)"])
    expect(switch).to_have_attribute("aria-describedby", "learn-ab-terms")
    # The pseudocode beside the tree uses them, and names the line it ran.
    expect(page.get_by_role("heading", name="Alpha-beta, line by line")).to_be_visible()


def test_practice_predicting_each_nodes_value(page: Page) -> None:
    """Right and wrong answers marked on the tree, each told why (MIN takes
    the lowest of its children: min(5, 9) = 5), a score for the tree and, on
    a new one, for the session."""
    tree = practise(page, "values")
    fields = tree.get_by_role("textbox")
    expect(fields).to_have_count(7)
    tree.get_by_role("textbox", name="MAX A: your value").fill("12")
    tree.get_by_role("textbox", name="MIN B: your value").fill("3")
    tree.get_by_role("textbox", name="MAX D: your value").fill("5")
    button(page, "Check").click()
    expect(page.locator("#learn-score")).to_have_text("Score: 2 of 7 right.")
    feedback = page.locator("#learn-feedback li")
    expect(feedback).to_have_count(7)
    expect(feedback.nth(0)).to_have_text(
        "✓ MAX A is 12: MAX takes the highest of its children's values: max(5, 12) = 12."
    )
    expect(feedback.nth(1)).to_have_text(
        "✗ MIN B: you said 3, but MIN takes the lowest of its children's values: min(5, 9) = 5."
    )
    expect(feedback.nth(4)).to_have_text(
        "✗ MAX E: no answer. MAX takes the highest of its children's values: max(2, 9) = 9."
    )
    wrong = tree.get_by_role("textbox", name="MIN B: your value")
    expect(wrong).to_have_attribute("aria-invalid", "true")
    expect(wrong).to_have_accessible_description(re.compile("^✗ MIN B: you said 3"))
    expect(tree.locator(".learn-wrong > .node .learn-mark")).to_have_count(5)
    # A new tree: answered right throughout, from the library's own values.
    button(page, "New tree").click()
    expect(page.locator("#learn-score")).to_have_text("")
    leaves = page.get_by_label("Leaves").input_value()
    traced = api.textbook_tree(leaves).root
    queue, letter = [traced], 0
    while queue:
        node = queue.pop(0)
        if node.children:
            name = f"{node.to_move} {chr(65 + letter)}: your value"
            tree.get_by_role("textbox", name=name).fill(str(int(node.score)))
            letter += 1
            queue.extend(node.children)
    button(page, "Check").click()
    expect(page.locator("#learn-score")).to_have_text("Score: 7 of 7 right. This session: 9 of 14.")
    expect(tree.locator(".learn-right > .node .learn-mark")).to_have_count(7)


def test_practice_ticking_the_leaves_alpha_beta_prunes(page: Page) -> None:
    tree = practise(page, "prunes")
    ticks = tree.get_by_role("checkbox")
    expect(ticks).to_have_count(8)
    tree.get_by_role("checkbox", name="pruned: leaf 9 under E").check()
    tree.get_by_role("checkbox", name="pruned: leaf 23 under G").nth(1).check()
    button(page, "Check").click()
    expect(page.locator("#learn-score")).to_have_text("Score: 7 of 8 right.")
    feedback = page.locator("#learn-feedback li")
    expect(feedback.nth(3)).to_have_text(
        f"✗ Leaf 9 under E is looked at, not pruned: alpha-beta reaches it with {ALPHA} = 2 < "
        f"{BETA} = 5, the window still open (nothing above it has been cut), so its value can "
        "still change the root's."
    )
    expect(feedback.nth(7)).to_have_text(
        f"✓ Leaf 23 under G is pruned: at MAX G, v = 23 ≥ {BETA} = 12: MIN above already has 12 "
        "elsewhere and never lets the game reach G, so the rest of G is skipped."
    )
    button(page, "Clear").click()
    expect(ticks.nth(7)).not_to_be_checked()
    button(page, "Check").click()
    expect(page.locator("#learn-score")).to_have_text("Score: 7 of 8 right.")
    expect(feedback.nth(7)).to_contain_text("✗ Leaf 23 under G is pruned, not looked at:")
    # Leaving practice brings the walk back.
    page.get_by_role("switch", name="Practice").uncheck()
    expect(page.get_by_role("tree", name="Game tree")).to_be_visible()
    expect(button(page, "Step")).to_be_enabled()


def test_leaves_are_edited_on_the_tree(page: Page) -> None:
    """A click on a leaf's score, or Enter on the leaf, opens a field in its
    box: Enter keeps the new score (the Leaves field follows, the walk stays
    at its step), Escape leaves it, a bad score is refused with the rule."""
    tree = learn(page)
    for _ in range(5):
        button(page, "Step").click()
    leaf = tree.get_by_role("treeitem", name=re.compile("^5, leaf under D"))
    leaf.locator(".num").click()
    field = tree.get_by_role("textbox", name="New score for the leaf 5 under D")
    expect(field).to_be_focused()
    field.fill("30")
    field.press("Enter")
    expect(page.get_by_label("Leaves")).to_have_value("3 30 2 9 12 5 23 23")
    expect(status(page)).to_contain_text("Step 5 of 37")
    edited = tree.get_by_role("treeitem", name=re.compile("^30, leaf under D"))
    expect(edited).to_be_focused()
    # By keyboard: Enter on the leaf, Escape to leave it as it was.
    page.keyboard.press("ArrowUp")
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile("^3, leaf under D"))
    page.keyboard.press("Enter")
    field = tree.get_by_role("textbox", name="New score for the leaf 3 under D")
    expect(field).to_be_focused()
    page.keyboard.type("7")
    page.keyboard.press("Escape")
    expect(page.get_by_label("Leaves")).to_have_value("3 30 2 9 12 5 23 23")
    page.keyboard.press("Enter")
    page.keyboard.type("x")
    page.keyboard.press("Enter")
    expect(status(page)).to_contain_text('Cannot change that leaf: "x" is not allowed')
    expect(page.get_by_label("Leaves")).to_have_value("3 30 2 9 12 5 23 23")
    page.get_by_label("Step of the walk").fill("37")
    expect(status(page)).to_contain_text("Done: the root's value is 12")


def test_learns_state_is_in_the_address(browser: sync_api.Browser, live_server: str) -> None:
    """A link copied on Learn opens the same lesson, tree, walk, order and step
    (and the game on Play, kept in the hash); leaving Learn takes Learn's part
    out of the address."""
    ctx, tab = open_page(browser, live_server)
    try:
        learn(tab)
        tab.get_by_role("checkbox", name="Alpha-beta").check()
        tab.get_by_label("Children's order").select_option("Best first")
        expect(tab.locator("#learn-leaves")).to_contain_text("Alpha-beta looks at 5 of the 8")
        for _ in range(10):
            button(tab, "Step").click()
        story = status(tab).inner_text()
        line = tab.locator("#learn-code-lines [aria-current=step] code").inner_text()
        link = tab.url
        assert "learn=textbook" in link and "walk=alphabeta" in link and "step=10" in link
        assert "order=best" in link and "#game=" in link
        tab.get_by_role("tab", name="Play").click()
        expect(tab).to_have_url(re.compile(r"/#game="))
    finally:
        ctx.close()
    ctx, tab = open_page(browser, live_server)
    try:
        tab.goto(link)
        expect(tab.get_by_role("tab", name="Learn")).to_have_attribute("aria-selected", "true")
        expect(status(tab)).to_have_text(story)
        expect(tab.locator("#learn-code-lines [aria-current=step] code")).to_have_text(line)
        expect(tab.get_by_role("checkbox", name="Alpha-beta")).to_be_checked()
        expect(tab.get_by_label("Children's order")).to_have_value("best")
        tab.get_by_label("Children's order").select_option("As drawn")
        expect(tab.get_by_label("Leaves")).to_have_value("3 5 2 9 12 5 23 23")
        # The depth lesson, with the depths tried, and a practice.
        position = "x.o/.x./... o"
        tab.goto(
            f"{live_server}/?learn=depth&game=tictactoe&position={position}&depth=2"
            "&tried=1,2&walk=minimax&step=5"
        )
        expect(tab.locator("#depth-table tbody tr")).to_have_count(2)
        expect(tab.get_by_label("Search depth")).to_have_value("2")
        expect(tab.get_by_role("textbox", name="Position", exact=True)).to_have_value(position)
        expect(status(tab)).to_contain_text("Step 5 of")
        tab.goto(f"{live_server}/?learn=textbook&practice=prunes")
        expect(tab.get_by_role("list", name=re.compile("^Practice tree"))).to_be_visible()
        expect(tab.get_by_label("Predict", exact=True)).to_have_value("prunes")
    finally:
        ctx.close()


#: Each treeitem's spoken name, and what its box shows (its text, spaced).
NAMES = """
tree => [...tree.querySelectorAll('[role=treeitem]')].map((item) => [
  item.getAttribute('aria-label'),
  [...item.querySelector('.box').children].map((p) => p.textContent.trim().replace(/\\s+/g, ' '))
    .filter(Boolean).join(' '),
])
"""


def test_every_node_is_named_by_what_it_shows_first(page: Page) -> None:
    tree = learn(page)
    page.get_by_role("checkbox", name="Alpha-beta").check()
    states: list[Any] = []
    for step in ("15", "48", "57"):
        page.get_by_label("Step of the walk").fill(step)
        expect(status(page)).to_contain_text("Done" if step == "57" else f"Step {step} of 57")
        states.append(tree.evaluate(NAMES))
    page.get_by_role("radio", name="Depth-limited search").check()
    expect(page.locator("#depth-table tbody tr")).to_have_count(1)
    page.get_by_label("Step of the walk").fill("99")
    expect(status(page)).to_contain_text("Done")
    states.append(tree.evaluate(NAMES))
    for names in states:
        assert names
        for name, shown in names:
            assert name.startswith(shown), (name, shown)


def axe(page: Page) -> list[str]:
    results = Axe().run(page, options=AXE_OPTIONS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"])
        for v in results.response["violations"]
    ]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_axe_finds_no_violation_in_any_learn_state(
    browser: sync_api.Browser, live_server: str, device: str
) -> None:
    """The walk mid-way, at its cut and done; a leaf being edited; the depth
    lesson done (ties flagged, the line beyond the horizon); both practices
    checked: axe-core finds nothing, label-in-name included."""
    found: dict[str, list[str]] = {}
    with opened(browser, live_server, **(DESKTOP if device == "desktop" else PHONE)) as tab:
        tree = learn(tab)
        tab.get_by_role("checkbox", name="Alpha-beta").check()
        for step in ("23", "48", "57"):
            tab.get_by_label("Step of the walk").fill(step)
            expect(status(tab)).to_contain_text("Done" if step == "57" else f"Step {step} of")
            found[f"walk at {step}"] = axe(tab)
        tree.get_by_role("treeitem", name=re.compile("^3, leaf under D")).locator(".num").click()
        expect(tree.get_by_role("textbox")).to_be_focused()
        found["a leaf edited"] = axe(tab)
        tab.keyboard.press("Escape")
        for kind, answer in (("values", "12"), ("prunes", None)):
            practice = practise(tab, kind)
            if answer:
                practice.get_by_role("textbox").first.fill(answer)
            else:
                practice.get_by_role("checkbox").last.check()
            button(tab, "Check").click()
            expect(tab.locator("#learn-score")).to_contain_text("Score:")
            found[f"practice {kind}"] = axe(tab)
        tab.get_by_role("switch", name="Practice").uncheck()
        tab.get_by_role("radio", name="Depth-limited search").check()
        expect(tab.locator("#depth-table tbody tr")).to_have_count(1)
        tab.get_by_label("Step of the walk").fill("99")
        expect(tree.locator(".learn-tie")).to_have_count(4)
        found["depth lesson done"] = axe(tab)
    problems = {state: issues for state, issues in found.items() if issues}
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
