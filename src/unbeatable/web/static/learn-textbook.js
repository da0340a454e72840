// The first lesson: minimax and alpha-beta on the textbook tree of leaf
// scores. The leaves are typed, made at random, reordered (best first meets
// Knuth and Moore's minimum) or edited on the tree itself.

import * as api from "./api.js";
import { RequestError } from "./api.js";
import {
  MAX_NODES, annotate, countLeaves, failed, hooks, learn, learnTrace, stopPlay,
} from "./learn-core.js";
import { $ } from "./state.js";

export const textbook = {
  /** The leaves as typed or made at random, before any reordering. */
  given: null,
};

/** Leaf scores are whole numbers of at most this many digits: exact in
 * JavaScript and in JSON, and short enough to read in a box. */
const MAX_DIGITS = 15;
const WHOLE = new RegExp(`^-?\\d{1,${MAX_DIGITS}}$`);
const RULE = `leaf scores are whole numbers of at most ${MAX_DIGITS} digits, like 3 or -12`;

function checkNumber(token) {
  if (!WHOLE.test(token)) throw new RequestError(`leaves: ${JSON.stringify(token)} is not allowed: ${RULE}`);
}

/** The leaves typed: whole numbers separated by spaces or commas, or nested
 * lists of them in JSON. */
export function parseLeaves(text) {
  const trimmed = text.trim().replaceAll("\u2212", "-");
  if (!trimmed) throw new RequestError(`leaves: none given; ${RULE}`);
  if (trimmed.startsWith("[")) {
    let data;
    try {
      data = JSON.parse(trimmed);
    } catch (err) {
      throw new RequestError("leaves: not a valid nested list like [[3,12,8],[2,4,6]]");
    }
    for (const token of trimmed.match(/[-+]?[\d.][\d.eE+-]*/g) || []) checkNumber(token);
    return data;
  }
  const parts = trimmed.split(/[\s,]+/).filter(Boolean);
  for (const part of parts) checkNumber(part);
  return parts.map(Number);
}

/** Draw the tree of the leaves typed. ``keepOrder``: the leaves are a
 * reordering of the tree as given (kept to go back to). Keeps the step on
 * show when ``keepStep`` (a leaf edited mid-walk), else starts the walk. */
export async function drawTextbook({ keepOrder = false, keepStep = false } = {}) {
  stopPlay();
  const text = $("leaves").value;
  if (!keepOrder) {
    textbook.given = text;
    $("child-order").value = "given";
  }
  const mine = ++learn.generation;
  try {
    const leaves = parseLeaves(text);
    const [minimax, alphabeta] = await Promise.all([
      api.textbookTree(leaves, "minimax"),
      api.textbookTree(leaves, "alphabeta"),
    ]);
    if (mine !== learn.generation) return false;
    learn.traces = { minimax: annotate(minimax), alphabeta: annotate(alphabeta) };
    learn.drawn = text;
    learn.step = keepStep ? Math.min(learn.step, learnTrace().steps.length) : 0;
    $("learn-status").classList.remove("error");
    $("leaves").removeAttribute("aria-invalid");
    const pruned = alphabeta.nodes - alphabeta.visited;
    $("learn-counts").textContent = `Minimax visits ${minimax.visited} nodes; alpha-beta visits ${alphabeta.visited} and prunes ${pruned}.`;
    $("learn-leaves").textContent = leafCounts(learn.traces.alphabeta);
    hooks.render({ drawn: true });
    return true;
  } catch (err) {
    if (mine !== learn.generation) return false;
    $("leaves").setAttribute("aria-invalid", "true");
    failed(err);
    hooks.save();
    return false;
  }
}

/** Leaves alpha-beta looked at, against minimax (all of them) and, on a
 * uniform tree (every inner node with b children, every leaf d deep),
 * against the fewest any order allows: b^ceil(d/2) + b^floor(d/2) - 1
 * (Knuth and Moore, 1975). */
function leafCounts(trace) {
  const { seen, all } = countLeaves(trace.root);
  let text = `Alpha-beta looks at ${seen} of the ${all} leaves; minimax looks at all ${all}.`;
  const widths = new Set();
  const depths = new Set();
  const walk = (node, depth) => {
    if (!node.children.length) {
      depths.add(depth);
      return;
    }
    widths.add(node.children.length);
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(trace.root, 0);
  if (widths.size === 1 && depths.size === 1) {
    const [b] = widths;
    const [d] = depths;
    const fewest = b ** Math.ceil(d / 2) + b ** Math.floor(d / 2) - 1;
    text += ` With the best order of children it would look at ${fewest}: b^⌈d/2⌉ + b^⌊d/2⌋ − 1 = ${b}^${Math.ceil(d / 2)} + ${b}^${Math.floor(d / 2)} − 1 for branching b = ${b} and depth d = ${d} (Knuth and Moore).`;
  }
  return text;
}

/** The tree on show as nested lists, each node's children put in ``order``:
 * best first (MAX's highest value first, MIN's lowest), worst first, or
 * shuffled; values are the minimax ones the server traced. */
function reordered(node, order) {
  if (!node.children.length) return node.score;
  const children = [...node.children];
  if (order === "shuffled") {
    for (let i = children.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [children[i], children[j]] = [children[j], children[i]];
    }
  } else {
    const sign = (node.level === "MAX" ? -1 : 1) * (order === "best" ? 1 : -1);
    children.sort((a, b) => sign * (a.score - b.score));
  }
  return children.map((child) => reordered(child, order));
}

/** The children's order chosen: the tree drawn again in that order. */
export async function reorder(ready) {
  const order = $("child-order").value;
  if (!(await ready())) return;
  $("child-order").value = order;
  if (order === "given") {
    if (textbook.given !== null) $("leaves").value = textbook.given;
  } else {
    $("leaves").value = JSON.stringify(reordered(learn.traces.minimax.root, order));
  }
  await drawTextbook({ keepOrder: true });
}

/** Leaves at random (each of 1 to their number once) for a tree of the depth
 * and branching chosen; too big a tree is refused before asking the server. */
export function randomTree() {
  const depth = Number($("random-depth").value);
  const width = Number($("random-width").value);
  let nodes = 0;
  for (let level = 0; level <= depth; level++) nodes += width ** level;
  if (nodes > MAX_NODES) {
    learn.generation++;
    const status = $("learn-status");
    status.classList.add("error");
    status.textContent = `Cannot draw that tree: depth ${depth} with branching ${width} has ${nodes.toLocaleString("en")} nodes; at most ${MAX_NODES.toLocaleString("en")} are drawn. Choose less depth or branching.`;
    return Promise.resolve(false);
  }
  // Distinct scores (1 to the number of leaves, shuffled): no ties, so best
  // first meets Knuth and Moore's count exactly.
  const scores = Array.from({ length: width ** depth }, (_, i) => i + 1);
  for (let i = scores.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [scores[i], scores[j]] = [scores[j], scores[i]];
  }
  const grow = (level) => level === depth
    ? scores.pop()
    : Array.from({ length: width }, () => grow(level + 1));
  $("leaves").value = JSON.stringify(grow(0));
  return drawTextbook();
}

/** The leaves field with leaf ``index`` (left to right) set to ``score``:
 * the same text with that number replaced, so a flat list stays flat. */
function withLeaf(text, index, score) {
  let seen = -1;
  return text.replace(/[-\u2212]?\d+/g, (token) => (++seen === index ? String(score) : token));
}

/** Edit a leaf on the tree: its box becomes a field; Enter (or leaving it)
 * keeps the new score and draws the tree again at the same step, Escape
 * leaves it as it was. */
export function editLeaf(item, node) {
  const number = item.querySelector(".num");
  if (!number || number.querySelector("input")) return;
  const field = document.createElement("input");
  field.type = "text";
  field.inputMode = "numeric";
  field.className = "learn-leaf-field";
  field.value = String(node.score);
  field.setAttribute("aria-label", `New score for the leaf ${node.score} under ${node.parent ? node.parent.letter : "the root"}`);
  field.size = Math.max(2, String(node.score).length + 1);
  number.replaceChildren(field);
  field.focus();
  field.select();
  let finished = false;
  const finish = async (keep) => {
    if (finished) return;
    finished = true;
    const typed = field.value.trim().replace("\u2212", "-");
    const index = Number(item.dataset.leaf);
    item.focus();
    if (!keep || typed === String(node.score)) {
      hooks.render({});
      return;
    }
    if (!WHOLE.test(typed)) {
      const status = $("learn-status");
      status.classList.add("error");
      status.textContent = `Cannot change that leaf: ${JSON.stringify(typed)} is not allowed: ${RULE}.`;
      hooks.render({ keepStatus: true });
      return;
    }
    const text = withLeaf($("leaves").value, index, Number(typed));
    $("leaves").value = text;
    await drawTextbook({ keepStep: true });
    const again = $("learn-tree").querySelector(`[data-leaf="${index}"]`);
    if (again) {
      for (const other of $("learn-tree").querySelectorAll('[role="treeitem"]')) other.tabIndex = -1;
      again.tabIndex = 0;
      again.focus();
    }
  };
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      finish(true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      finish(false);
    }
  });
  field.addEventListener("blur", () => finish(true));
  field.addEventListener("click", (event) => event.stopPropagation());
}
