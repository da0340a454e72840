// Learn: minimax and alpha-beta on the textbook tree. The server traces both
// walks over the leaves given (when each node was entered, alpha and beta
// then, when its value was known); the page replays them one node entry at a
// time and tells, from that trace alone, what each step changed and why.

import * as api from "./api.js";
import { RequestError } from "./api.js";
import { $ } from "./state.js";
import { treeItem, treeKeys } from "./trees.js";

const learn = {
  /** The traced trees for the leaves on show: {minimax, alphabeta}. */
  traces: null,
  /** The leaves' text those traces were drawn from. */
  drawn: null,
  /** Steps shown: 0 before the walk, 1..last a node entry each, last + 1 done. */
  step: 0,
  /** The auto-play timer while Run plays. */
  timer: null,
  /** The leaves as typed or made at random, before any reordering. */
  given: null,
};

/** The largest random tree offered: the server traces at most 5,000 nodes. */
const MAX_RANDOM_NODES = 5000;

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

function buttons(enabled) {
  const last = learnLast();
  const done = learn.step > last;
  // A button disabled under the keyboard would drop focus to the page: it
  // goes to the other way through the walk instead.
  const focus = document.activeElement;
  $("step").disabled = !enabled || done;
  $("step-back").disabled = !enabled || learn.step === 0;
  if (enabled && focus === $("step") && done) $("step-back").focus();
  if (enabled && focus === $("step-back") && learn.step === 0) $("step").focus();
  $("run").disabled = !enabled;
  $("run").textContent = learn.timer ? "Pause" : "Run";
  const scrub = $("learn-scrub");
  scrub.disabled = !enabled;
  scrub.max = String(last + 1);
  scrub.value = String(learn.step);
  scrub.setAttribute("aria-valuetext", !enabled ? "no tree" : learn.step === 0 ? "start" : done ? "done" : `step ${learn.step} of ${last}`);
}

function stopPlay() {
  if (learn.timer) clearInterval(learn.timer);
  learn.timer = null;
}

async function drawLearn(keepOrder = false) {
  stopPlay();
  const text = $("leaves").value;
  if (!keepOrder) {
    learn.given = text;
    $("child-order").value = "given";
  }
  const status = $("learn-status");
  try {
    const leaves = parseLeaves(text);
    const [minimax, alphabeta] = await Promise.all([
      api.textbookTree(leaves, "minimax"),
      api.textbookTree(leaves, "alphabeta"),
    ]);
    learn.traces = { minimax: annotate(minimax), alphabeta: annotate(alphabeta) };
    learn.drawn = text;
    learn.step = 0;
    status.classList.remove("error");
    $("leaves").removeAttribute("aria-invalid");
    const pruned = alphabeta.nodes - alphabeta.visited;
    $("learn-counts").textContent = `Minimax visits ${minimax.visited} nodes; alpha-beta visits ${alphabeta.visited} and prunes ${pruned}.`;
    $("learn-leaves").textContent = leafCounts(learn.traces.alphabeta);
    renderLearn();
    centreRoot();
    return true;
  } catch (err) {
    // The old tree no longer matches the field: nothing of it stays to be stepped.
    learn.traces = null;
    learn.drawn = null;
    learn.step = 0;
    $("learn-tree").replaceChildren();
    $("learn-counts").textContent = "";
    $("learn-leaves").textContent = "";
    $("learn-path").textContent = "";
    $("leaves").setAttribute("aria-invalid", "true");
    status.classList.add("error");
    status.textContent = `Cannot draw that tree: ${err.message}.`;
    buttons(false);
    return false;
  }
}

/** The tree on show matches the field (drawn again if it was edited). */
async function ready() {
  if (learn.traces && $("leaves").value === learn.drawn) return true;
  return drawLearn();
}

/** Letter names, breadth first (A the root, then B, C, ... AA after Z), and
 * parent links: a node is named in words, not by its path. */
function annotate(trace) {
  let count = 0;
  const letters = (n) => {
    let name = "";
    for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) name = String.fromCharCode(65 + ((k - 1) % 26)) + name;
    return name;
  };
  const byOrder = new Map();
  const queue = [[trace.root, null, 0]];
  while (queue.length) {
    const [node, parent, depth] = queue.shift();
    node.parent = parent;
    node.depth = depth;
    node.leaf = node.children.length === 0;
    if (!node.leaf) node.letter = letters(count++);
    if (node.order !== null) byOrder.set(node.order, node);
    for (const child of node.children) queue.push([child, node, depth + 1]);
  }
  trace.byOrder = byOrder;
  return trace;
}

function learnTrace() {
  return learn.traces && ($("alphabeta").checked ? learn.traces.alphabeta : learn.traces.minimax);
}

function learnLast() {
  const trace = learnTrace();
  return trace ? trace.visited : 0;
}

function num(value) {
  if (value === "inf") return "+∞";
  if (value === "-inf") return "−∞";
  return String(value).replace("-", "−");
}

function asNumber(value) {
  if (value === "inf") return Infinity;
  if (value === "-inf") return -Infinity;
  return value;
}

/** "node C (MIN)", "the root (MAX)", "leaf 5 under D". */
function nodeName(node) {
  if (node.leaf) return `leaf ${num(node.score)}${node.parent ? ` under ${node.parent.letter}` : ""}`;
  return node.parent ? `node ${node.letter} (${node.to_move})` : `the root ${node.letter} (${node.to_move})`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function shortName(node) {
  return node.leaf ? `leaf ${num(node.score)}` : node.parent ? node.letter : `the root ${node.letter}`;
}

function valueText(node) {
  const bound = node.bound === "lower" ? "at least " : node.bound === "upper" ? "at most " : "";
  return `${bound}${num(node.value)}`;
}

/** Alpha and beta at an inner node after ``step``: as it was entered, then
 * raised (MAX) or lowered (MIN) by each child whose value is known. */
function windowAt(node, step) {
  let alpha = asNumber(node.alpha);
  let beta = asNumber(node.beta);
  for (const child of node.children) {
    if (child.known_at === null || child.known_at > step) continue;
    const v = asNumber(child.value);
    if (node.to_move === "MAX") alpha = Math.max(alpha, v);
    else beta = Math.min(beta, v);
  }
  return [alpha, beta];
}

function show(x) {
  return x === Infinity ? "+∞" : x === -Infinity ? "−∞" : num(x);
}

/** The nodes being searched after ``step``: the root down to the node
 * entered, without those already finished. */
function activePath(trace, step) {
  const entered = trace.byOrder.get(step);
  if (!entered) return [];
  const path = [];
  for (let node = entered; node; node = node.parent) path.unshift(node);
  return path;
}

/** What step ``step`` did, in words, from the trace alone. */
function narrate(trace, step, alphabeta) {
  const node = trace.byOrder.get(step);
  const parts = [];
  if (node.leaf) {
    parts.push(`Look at ${nodeName(node)}.`);
  } else {
    let line = `Enter ${nodeName(node)}`;
    if (alphabeta) line += ` with α = ${num(node.alpha)} and β = ${num(node.beta)}`;
    parts.push(`${line}.`);
  }
  // Everything finished before the next entry, deepest first.
  const finished = [...trace.byOrder.values()]
    .filter((n) => n.known_at === step)
    .sort((a, b) => b.depth - a.depth);
  for (const done of finished) {
    if (!done.leaf) parts.push(`${capital(nodeName(done))} is ${valueText(done)}.`);
    const parent = done.parent;
    if (!parent) continue;
    const v = asNumber(done.value);
    const later = parent.children.slice(parent.children.indexOf(done) + 1).some((c) => c.order === null);
    const up = parent.to_move === "MAX";
    if (!alphabeta) {
      const best = parent.children.filter((c) => c.known_at !== null && c.known_at <= step).map((c) => asNumber(c.value));
      const top = up ? Math.max(...best) : Math.min(...best);
      if (top === v) parts.push(`${up ? "Highest" : "Lowest"} so far at ${shortName(parent)}: ${num(done.value)}.`);
      else parts.push(`${capital(shortName(parent))} keeps ${show(top)}, ${up ? "higher" : "lower"} than ${num(done.value)}.`);
      continue;
    }
    const alpha = asNumber(done.alpha);
    const beta = asNumber(done.beta);
    if (up && v >= beta) {
      parts.push(later
        ? `Cut: ${num(done.value)} ≥ β = ${show(beta)}, so MIN above avoids ${shortName(parent)}: the rest of ${shortName(parent)} cannot matter.`
        : `${num(done.value)} ≥ β = ${show(beta)}: MIN above will avoid ${shortName(parent)}.`);
    } else if (!up && v <= alpha) {
      parts.push(later
        ? `Cut: ${num(done.value)} ≤ α = ${show(alpha)}, so MAX above avoids ${shortName(parent)}: the rest of ${shortName(parent)} cannot matter.`
        : `${num(done.value)} ≤ α = ${show(alpha)}: MAX above will avoid ${shortName(parent)}.`);
    } else if (up && v > alpha) {
      parts.push(`α at ${shortName(parent)} becomes ${num(done.value)}.`);
    } else if (!up && v < beta) {
      parts.push(`β at ${shortName(parent)} becomes ${num(done.value)}.`);
    } else {
      parts.push(`${capital(shortName(parent))} keeps ${up ? `α = ${show(alpha)}` : `β = ${show(beta)}`}.`);
    }
  }
  return parts.join(" ");
}

function pathText(trace, step, alphabeta) {
  const path = activePath(trace, step).filter((n) => !n.leaf);
  if (!alphabeta || !path.length) return "";
  return "Path: " + path.map((n) => {
    const [a, b] = windowAt(n, step);
    return `${shortName(n)} α ${show(a)} β ${show(b)}`;
  }).join(" › ");
}

function renderLearn() {
  const trace = learnTrace();
  const tree = $("learn-tree");
  if (!trace) return;
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#learn-tree [role=treeitem]");
  const focusKey = focused ? focused.dataset.key : null;
  tree.replaceChildren();
  tree.classList.toggle("ab-on", $("alphabeta").checked);
  const alphabeta = $("alphabeta").checked;
  const last = learnLast();
  const step = learn.step;
  const seen = Math.min(step, last);
  const done = step > last;
  const onPath = new Set(done ? [] : activePath(trace, step));
  let current = null;
  let key = 0;
  // A pruned node shows as pruned, with everything below it, once its
  // parent has given up on it.
  const build = (node, parentKnown, parentPruned) => {
    const visited = node.order !== null && node.order <= seen;
    const known = node.known_at !== null && node.known_at <= seen;
    const level = node.leaf ? "leaf" : node.to_move;
    const shown = node.leaf ? num(node.score) : known ? (node.bound === "lower" ? "≥ " : node.bound === "upper" ? "≤ " : "") + num(node.value) : "?";
    const pruned = alphabeta && node.order === null && (parentKnown || parentPruned);
    let name = node.leaf ? nodeName(node) : `${node.parent ? node.letter : "root"}: ${level}, value ${known ? valueText(node) : "not known yet"}`;
    if (pruned) name += ", pruned";
    const box = document.createElement("span");
    box.className = "box";
    box.innerHTML = '<span class="level"></span><span class="num"></span><span class="ab"></span>';
    box.querySelector(".level").textContent = node.leaf ? "" : `${level} ${node.letter}`;
    box.querySelector(".num").textContent = shown;
    const item = treeItem(name, box);
    item.dataset.key = String(key++);
    item.classList.add(node.leaf ? "leaf" : level === "MAX" ? "max" : "min");
    const ab = box.querySelector(".ab");
    if (pruned) {
      item.classList.add("pruned");
      ab.textContent = "pruned";
    }
    if (visited) item.classList.add("visited");
    if (onPath.has(node) && alphabeta && !node.leaf) {
      const [a, b] = windowAt(node, seen);
      ab.textContent = `α ${show(a)} β ${show(b)}`;
      item.classList.add("on-path");
    }
    if (!done && node.order === step && step > 0) {
      current = item;
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
    }
    if (done && node.best) item.classList.add("best");
    if (!node.leaf) {
      item.setAttribute("aria-expanded", "true");
      const group = document.createElement("ul");
      group.setAttribute("role", "group");
      for (const child of node.children) group.append(build(child, known, pruned));
      item.append(group);
    }
    item.querySelector(".node").addEventListener("click", () => {
      if (item.hasAttribute("aria-expanded")) toggleLearn(item);
    });
    return item;
  };
  tree.append(build(trace.root, false, false));
  const target = (focusKey && tree.querySelector(`[data-key="${focusKey}"]`)) || tree.firstChild;
  target.tabIndex = 0;
  if (focused && target) target.focus();
  buttons(true);
  const status = $("learn-status");
  status.classList.remove("error");
  if (step === 0) {
    status.textContent = "Press Step to walk the tree one node at a time, or Run to play the walk.";
    $("learn-path").textContent = "";
  } else if (done) {
    const leaves = countLeaves(trace.root);
    status.textContent = `Done: the root's value is ${num(trace.root.value)}; ${alphabeta ? "alpha-beta" : "minimax"} looked at ${leaves.seen} of ${leaves.all} leaves. The line of best play is marked.`;
    $("learn-path").textContent = "";
  } else {
    status.textContent = `Step ${step} of ${last}: ${narrate(trace, step, alphabeta)}`;
    $("learn-path").textContent = pathText(trace, step, alphabeta);
  }
  if (current) current.querySelector(".box").scrollIntoView({ block: "nearest", inline: "center" });
}

function countLeaves(node) {
  if (!node.children.length) return { seen: node.order === null ? 0 : 1, all: 1 };
  return node.children.map(countLeaves).reduce((a, b) => ({ seen: a.seen + b.seen, all: a.all + b.all }));
}

/** The root in the middle of the box's width, however wide the tree. */
function centreRoot() {
  const root = $("learn-tree").querySelector(".box");
  const holder = $("learn-tree").closest(".tree-box");
  if (!root || !holder) return;
  const box = root.getBoundingClientRect();
  const outer = holder.getBoundingClientRect();
  holder.scrollLeft += box.left + box.width / 2 - (outer.left + outer.width / 2);
}

function toggleLearn(item) {
  item.setAttribute("aria-expanded", item.getAttribute("aria-expanded") === "true" ? "false" : "true");
}

function goTo(step) {
  learn.step = Math.max(0, Math.min(step, learnLast() + 1));
  renderLearn();
}

function speed() {
  return Number($("learn-speed").value) || 800;
}

async function togglePlay() {
  if (learn.timer) {
    stopPlay();
    buttons(true);
    return;
  }
  if (!(await ready())) return;
  if (learn.step > learnLast()) learn.step = 0;
  const tick = () => {
    goTo(learn.step + 1);
    if (learn.step > learnLast()) {
      stopPlay();
      buttons(true);
    }
  };
  learn.timer = setInterval(tick, speed());
  tick();
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
    const sign = (node.to_move === "MAX" ? -1 : 1) * (order === "best" ? 1 : -1);
    children.sort((a, b) => sign * (a.score - b.score));
  }
  return children.map((child) => reordered(child, order));
}

async function reorder() {
  const order = $("child-order").value;
  if (!(await ready())) return;
  $("child-order").value = order;
  if (order === "given") {
    if (learn.given !== null) $("leaves").value = learn.given;
  } else {
    $("leaves").value = JSON.stringify(reordered(learn.traces.minimax.root, order));
  }
  await drawLearn(true);
}

/** Leaves at random (each of 1 to their number once) for a tree of the depth and
 * branching chosen; too big a tree is refused before asking the server. */
function randomTree() {
  const depth = Number($("random-depth").value);
  const width = Number($("random-width").value);
  let nodes = 0;
  for (let level = 0; level <= depth; level++) nodes += width ** level;
  if (nodes > MAX_RANDOM_NODES) {
    const status = $("learn-status");
    status.classList.add("error");
    status.textContent = `Cannot draw that tree: depth ${depth} with branching ${width} has ${nodes.toLocaleString("en")} nodes; at most ${MAX_RANDOM_NODES.toLocaleString("en")} are drawn. Choose less depth or branching.`;
    return;
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
  const tree = grow(0);
  $("leaves").value = JSON.stringify(tree);
  drawLearn();
}

/** Draw the textbook tree the first time the Learn view is shown. */
export function showLearn() {
  if (!learn.traces) drawLearn();
}

export function initLearn() {
  treeKeys($("learn-tree"), toggleLearn);
  buttons(false);
  $("learn-form").addEventListener("submit", (e) => {
    e.preventDefault();
    drawLearn();
  });
  $("alphabeta").addEventListener("change", () => {
    // Another walk: its steps are not the same, so it starts again.
    stopPlay();
    learn.step = 0;
    renderLearn();
  });
  $("step").addEventListener("click", async () => {
    stopPlay();
    if (!(await ready())) return;
    goTo(learn.step + 1);
  });
  $("step-back").addEventListener("click", async () => {
    stopPlay();
    if (!(await ready())) return;
    goTo(learn.step - 1);
  });
  $("learn-scrub").addEventListener("input", async () => {
    stopPlay();
    const wanted = Number($("learn-scrub").value);
    if (!(await ready())) return;
    goTo(wanted);
  });
  $("learn-speed").addEventListener("change", () => {
    if (!learn.timer) return;
    stopPlay();
    togglePlay();
  });
  $("run").addEventListener("click", togglePlay);
  $("random-form").addEventListener("submit", (e) => {
    e.preventDefault();
    randomTree();
  });
  $("child-order").addEventListener("change", reorder);
}
