// The tree on show, drawn as the textbook draws it (levels top to bottom,
// MAX boxes square, MIN boxes round): during the walk an ARIA tree whose
// every node is named by what it shows first, then what it means; in
// practice a plain nested list with a field or a box to tick on the tree
// itself. It fits a phone's width (a compact layout, then zoomed to fit or
// scrolled within its frame), and the node the walk is on stays in view.

import {
  alphabetaOn, estimated, leafShown, learn, moveLabel, num, valueText,
} from "./learn-core.js";
import { activePath, windowAt } from "./learn-walk.js";
import { $ } from "./state.js";

/** The smallest zoom "Fit the width" uses: below it the numbers are too
 * small to read, so a wider tree scrolls in its frame. In practice the
 * fields and boxes to tick keep 24 px at least (1.75rem at 0.86). */
const LEAST_ZOOM = 0.75;
const LEAST_PRACTICE_ZOOM = 0.86;

/** A node's box: its level line ("MAX A", "b2 MIN C", "c1"), its value and
 * a line for alpha and beta (or "pruned", "tie"). */
export function makeBox(node, game) {
  const box = document.createElement("span");
  box.className = "box";
  // Spaces between the parts (a flex box does not show them): read as one
  // text, the box says "MAX A 12", not "MAX A12".
  box.innerHTML = '<span class="level"></span> <span class="num"></span> <span class="ab"></span>';
  const move = game && node.parent ? `${moveLabel(node.move, true)} ` : "";
  box.querySelector(".level").textContent = node.leaf ? move.trim() : `${move}${node.level} ${node.letter}`;
  return box;
}

/** The box's text as it reads on screen, in order. */
export function visibleText(box) {
  return [...box.children].map((part) => part.textContent.trim().replace(/\s+/g, " ")).filter(Boolean).join(" ");
}

/** The nested list of the tree: ``item(node)`` makes each node's list item
 * (its children's list is added to it). In an ARIA tree (``aria``) the lists
 * are only the picture's layout (role=none): the tree's items are the boxes,
 * their hierarchy told by aria-level, so that an item's name is what its box
 * shows and never its children's text. */
export function skeleton(trace, item, aria = true) {
  const build = (node) => {
    const li = item(node);
    if (aria) li.setAttribute("role", "none");
    if (!node.leaf) {
      const group = document.createElement("ul");
      if (aria) group.setAttribute("role", "none");
      for (const child of node.children) group.append(build(child));
      li.append(group);
    }
    return li;
  };
  return build(trace.root);
}

/** Where a node sits, in words, after what its box shows: "the root",
 * "leaf under D", "under A, an estimate at the depth limit". */
function placeWords(node) {
  if (!node.parent) return "the root";
  if (!node.leaf) return "";
  if (node.result == null) return `leaf under ${node.parent.letter}`;
  if (estimated(node)) return `under ${node.parent.letter}, an estimate at the depth limit`;
  const result = node.score === 0 ? "a draw" : `${node.score > 0 ? "a win" : "a loss"} for MAX`;
  return `under ${node.parent.letter}, the game is over: ${result}`;
}

/** The root's children that tie with the chosen one (the depth lesson flags
 * them once the walk is done). */
export function tiedAtRoot(trace) {
  const tied = trace.root.children.filter((child) => child.score === trace.root.score);
  return tied.length > 1 ? new Set(tied) : new Set();
}

/** Draw the walk after ``k`` steps as an ARIA tree; the node the last step
 * ran in is the current one. ``edit(item, node)``, if given, lets a leaf be
 * edited on the tree (the textbook lesson); ``ties`` flags the root's tied
 * children when the walk is done. Returns the current item. */
export function drawWalk(trace, k, { edit = null, ties = false } = {}) {
  const tree = $("learn-tree");
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#learn-tree [role=treeitem]");
  const focusKey = focused ? focused.dataset.key : null;
  tree.replaceChildren();
  tree.setAttribute("role", "tree");
  tree.setAttribute("aria-label", "Game tree");
  tree.classList.remove("learn-practising");
  const ab = alphabetaOn();
  tree.classList.toggle("ab-on", ab);
  const game = Boolean(trace.game);
  const last = trace.steps.length;
  const done = k >= last;
  const path = activePath(trace, k);
  const onPath = new Set(path);
  const here = path.length ? path[path.length - 1] : null;
  const tied = done && ties ? tiedAtRoot(trace) : new Set();
  let current = null;
  let key = 0;
  let leafIndex = 0;
  const pruned = (node) => ab && node.order === null && node.parent !== null
    && ((node.parent.knownAt !== null && node.parent.knownAt <= k) || pruned(node.parent));
  tree.append(skeleton(trace, (node) => {
    const known = node.knownAt !== null && node.knownAt <= k;
    const visited = node.enteredAt !== null && node.enteredAt <= k;
    const box = makeBox(node, game);
    const shown = node.leaf ? leafShown(node) : known ? (node.bound === "lower" ? "≥ " : node.bound === "upper" ? "≤ " : "") + num(node.value) : "?";
    box.querySelector(".num").textContent = shown;
    const abLine = box.querySelector(".ab");
    const cut = pruned(node);
    const classes = [node.leaf ? "leaf" : node.level === "MAX" ? "max" : "min"];
    if (game && node.leaf) classes.push(estimated(node) ? "estimate" : "final");
    if (cut) {
      classes.push("pruned");
      abLine.textContent = "pruned";
    } else if (onPath.has(node) && ab && !node.leaf) {
      const [a, b] = windowAt(trace, node, k);
      abLine.innerHTML = '<span class="learn-a"></span> <span class="learn-b"></span>';
      abLine.children[0].textContent = `α ${num(a)}`;
      abLine.children[1].textContent = `β ${num(b)}`;
      classes.push("on-path");
    } else if (tied.has(node)) {
      abLine.textContent = "tie";
      classes.push("learn-tie");
    }
    if (visited) classes.push("visited");
    if (done && node.best) classes.push("best");
    // The name starts with what the box shows; then where the node is and
    // what is not shown (a value not known yet, a bound in words).
    const extras = [placeWords(node)];
    if (!node.leaf) extras.push(known ? (node.bound ? `value ${valueText(node)}` : "") : "value not known yet");
    if (tied.has(node)) extras.push(`tied with the chosen move at ${num(node.score)}`);
    if (done && node.best) extras.push("on the line of best play");
    const name = [visibleText(box), ...extras.filter(Boolean)].join(", ");
    const li = document.createElement("li");
    li.classList.add(...classes);
    const item = document.createElement("span");
    item.className = "node";
    item.setAttribute("role", "treeitem");
    item.tabIndex = -1;
    item.setAttribute("aria-label", name);
    item.setAttribute("aria-level", String(node.depth + 1));
    const siblings = node.parent ? node.parent.children : [node];
    item.setAttribute("aria-setsize", String(siblings.length));
    item.setAttribute("aria-posinset", String(siblings.indexOf(node) + 1));
    item.dataset.key = String(key++);
    item.append(box);
    li.append(item);
    if (node === here) {
      current = item;
      li.classList.add("current");
      item.setAttribute("aria-current", "step");
    }
    if (!node.leaf) {
      item.setAttribute("aria-expanded", "true");
      item.addEventListener("click", () => toggle(item));
    } else if (edit && !game) {
      item.dataset.leaf = String(leafIndex++);
      li.classList.add("learn-editable");
      item.setAttribute("aria-description", "Enter changes its score");
      box.querySelector(".num").addEventListener("click", () => edit(item, node));
    }
    return li;
  }));
  const target = (focusKey && tree.querySelector(`[data-key="${focusKey}"]`)) || tree.querySelector('[role="treeitem"]');
  target.tabIndex = 0;
  if (focused && target) target.focus();
  return current;
}

export function toggle(item) {
  item.setAttribute("aria-expanded", item.getAttribute("aria-expanded") === "true" ? "false" : "true");
}

/** The tree as big as its frame allows: with "Fit the width", zoomed out
 * (no further than LEAST_ZOOM) until it fits; at full size, or beyond that
 * zoom, it scrolls within its frame. */
export function fitTree() {
  const tree = $("learn-tree");
  const frame = tree.closest(".tree-box");
  tree.style.zoom = "";
  const root = tree.firstElementChild;
  if (!root || frame.offsetParent === null) return;
  let zoom = 1;
  if ($("learn-zoom").value === "fit") {
    const style = getComputedStyle(frame);
    const room = frame.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const natural = root.getBoundingClientRect().width;
    const least = learn.practice ? LEAST_PRACTICE_ZOOM : LEAST_ZOOM;
    if (natural > room) zoom = Math.max(least, Math.floor((room / natural) * 100) / 100);
  }
  if (zoom < 1) tree.style.zoom = String(zoom);
  tree.dataset.zoom = String(zoom);
}

/** The root in the middle of the frame's width, however wide the tree. */
export function centreRoot() {
  const root = $("learn-tree").querySelector(".box");
  const frame = $("learn-tree").closest(".tree-box");
  if (!root || !frame) return;
  const box = root.getBoundingClientRect();
  const outer = frame.getBoundingClientRect();
  frame.scrollLeft += box.left + box.width / 2 - (outer.left + outer.width / 2);
}

/** The node the walk is on, in view: scrolled to within the tree's frame
 * and, if need be, the page. */
export function keepInView(item) {
  if (!item) return;
  const box = item.querySelector(".box");
  const frame = $("learn-tree").closest(".tree-box");
  const inner = box.getBoundingClientRect();
  const outer = frame.getBoundingClientRect();
  if (inner.left < outer.left || inner.right > outer.right) {
    frame.scrollLeft += inner.left + inner.width / 2 - (outer.left + outer.width / 2);
  }
  box.scrollIntoView({ block: "nearest", inline: "nearest" });
}
