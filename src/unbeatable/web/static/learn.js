// Learn: minimax and alpha-beta on the textbook tree, and (the second
// lesson) depth-limited search with an evaluation function below a real
// game position. The server traces both walks (when each node was entered,
// alpha and beta then, when its value was known); the page replays them one
// node entry at a time and tells, from that trace alone, what each step
// changed and why.

import * as api from "./api.js";
import { RequestError } from "./api.js";
import { $, state } from "./state.js";
import { treeItem, treeKeys } from "./trees.js";

const learn = {
  /** The lesson on show: "textbook" or "depth". */
  lesson: "textbook",
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
  /** Counts the trees asked for, in either lesson: an answer arriving after a
   * newer request (or a refusal) is dropped, not drawn over it. */
  generation: 0,
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
    learn.step = 0;
    status.classList.remove("error");
    $("leaves").removeAttribute("aria-invalid");
    const pruned = alphabeta.nodes - alphabeta.visited;
    $("learn-counts").textContent = `Minimax visits ${minimax.visited} nodes; alpha-beta visits ${alphabeta.visited} and prunes ${pruned}.`;
    $("learn-leaves").textContent = leafCounts(learn.traces.alphabeta);
    renderLearn();
    steadyStory();
    centreRoot();
    return true;
  } catch (err) {
    if (mine !== learn.generation) return false;
    $("leaves").setAttribute("aria-invalid", "true");
    failed(err);
    return false;
  }
}

/** The old tree no longer matches the fields: nothing of it stays to be
 * stepped, and the error says why. */
function failed(err) {
  learn.traces = null;
  learn.drawn = null;
  learn.step = 0;
  $("learn-tree").replaceChildren();
  $("learn-counts").textContent = "";
  $("learn-leaves").textContent = "";
  $("learn-path").textContent = "";
  const status = $("learn-status");
  status.classList.add("error");
  status.textContent = `Cannot draw that tree: ${err.message}.`;
  buttons(false);
}

/** The tree on show matches the fields (drawn again if they were edited). */
async function ready() {
  if (learn.lesson === "depth") {
    if (learn.traces && depthKey() === learn.drawn) return true;
    return drawDepth();
  }
  if (learn.traces && $("leaves").value === learn.drawn) return true;
  return drawLearn();
}

/** Letter names, breadth first (A the root, then B, C, ... AA after Z), and
 * parent links: a node is named in words, not by its path. Below a game
 * position, MAX is the player to move at the root and MIN the other. */
function annotate(trace) {
  const root = trace.root.to_move;
  let count = 0;
  const letters = (n) => {
    let name = "";
    for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) name = String.fromCharCode(65 + ((k - 1) % 26)) + name;
    return name;
  };
  const byOrder = new Map();
  const byKnown = new Map();
  const queue = [[trace.root, null, 0]];
  while (queue.length) {
    const [node, parent, depth] = queue.shift();
    node.parent = parent;
    node.depth = depth;
    node.leaf = node.children.length === 0;
    node.level = trace.game ? (node.to_move === root ? "MAX" : "MIN") : node.to_move;
    if (!node.leaf) node.letter = letters(count++);
    if (node.order !== null) byOrder.set(node.order, node);
    if (node.known_at !== null) {
      if (!byKnown.has(node.known_at)) byKnown.set(node.known_at, []);
      byKnown.get(node.known_at).push(node);
    }
    for (const child of node.children) queue.push([child, node, depth + 1]);
  }
  trace.byOrder = byOrder;
  trace.byKnown = byKnown;
  return trace;
}

function learnTrace() {
  return learn.traces && ($("alphabeta").checked ? learn.traces.alphabeta : learn.traces.minimax);
}

function learnLast() {
  const trace = learnTrace();
  return trace ? trace.visited : 0;
}

/** A value for MAX in words: a number, or below a game position, beyond
 * the evaluation's bound, a game finished in the tree: "win" or "loss". */
function num(value) {
  if (value === "inf") return "+∞";
  if (value === "-inf") return "−∞";
  const trace = learnTrace();
  const bound = trace && trace.estimate_bound;
  if (bound != null && Math.abs(value) > bound) return value > 0 ? "win" : "loss";
  if (bound != null && value > 0) return `+${value}`;
  return String(value).replace("-", "−");
}

/** A game tree's move as a box shows it ("b2", "col 4") and as words say it
 * ("b2", "column 4"). */
function moveLabel(move, short = false) {
  const game = learnTrace() && state.games.get(learnTrace().game);
  if (!game || !game.gravity) return move;
  return short ? `col ${move}` : `column ${move}`;
}

/** Whether a leaf below a game position is an estimate at the cut-off (not
 * a finished game). */
function estimated(node) {
  return node.leaf && node.result === "unknown";
}

/** A leaf's value as its box shows it: the score (textbook), "≈ +2" (an
 * estimate) or the finished game's result for MAX. */
function leafShown(node) {
  if (node.result == null) return num(node.score);
  if (estimated(node)) return `≈ ${num(node.score)}`;
  return node.score === 0 ? "draw" : num(node.score);
}

function asNumber(value) {
  if (value === "inf") return Infinity;
  if (value === "-inf") return -Infinity;
  return value;
}

/** "node C (MIN)", "the root (MAX)", "leaf 5 under D"; below a game
 * position "node C (MIN, after b2)", "a1 under D (estimate −2)". */
function nodeName(node) {
  if (node.leaf && node.result != null) return `${moveLabel(node.move)} under ${node.parent.letter} (${leafWords(node)})`;
  if (node.leaf) return `leaf ${num(node.score)}${node.parent ? ` under ${node.parent.letter}` : ""}`;
  const after = node.result != null && node.parent ? `, after ${moveLabel(node.move)}` : "";
  return node.parent ? `node ${node.letter} (${node.level}${after})` : `the root ${node.letter} (${node.level})`;
}

/** "estimate −2", "game over: win for MAX", "game over: draw". */
function leafWords(node) {
  if (estimated(node)) return `estimate ${num(node.score)}`;
  return node.score === 0 ? "game over: draw" : `game over: ${num(node.score)} for MAX`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function shortName(node) {
  if (node.leaf && node.result != null) return moveLabel(node.move);
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
    if (node.level === "MAX") alpha = Math.max(alpha, v);
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
  const finished = [...(trace.byKnown.get(step) || [])].sort((a, b) => b.depth - a.depth);
  for (const done of finished) {
    if (!done.leaf) parts.push(`${capital(nodeName(done))} is ${valueText(done)}.`);
    const parent = done.parent;
    if (!parent) continue;
    const v = asNumber(done.value);
    const later = parent.children.slice(parent.children.indexOf(done) + 1).some((c) => c.order === null);
    const up = parent.level === "MAX";
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
  const game = Boolean(trace.game);
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
    const level = node.leaf ? "leaf" : node.level;
    const shown = node.leaf ? leafShown(node) : known ? (node.bound === "lower" ? "≥ " : node.bound === "upper" ? "≤ " : "") + num(node.value) : "?";
    const pruned = alphabeta && node.order === null && (parentKnown || parentPruned);
    const after = game && node.parent ? ` after ${moveLabel(node.move)}` : "";
    let name = node.leaf ? nodeName(node) : `${node.parent ? node.letter : "root"}${after}: ${level}, value ${known ? valueText(node) : "not known yet"}`;
    if (pruned) name += ", pruned";
    const box = document.createElement("span");
    box.className = "box";
    box.innerHTML = '<span class="level"></span><span class="num"></span><span class="ab"></span>';
    const move = game && node.parent ? `${moveLabel(node.move, true)} ` : "";
    box.querySelector(".level").textContent = node.leaf ? move.trim() : `${move}${level} ${node.letter}`;
    box.querySelector(".num").textContent = shown;
    const item = treeItem(name, box);
    item.dataset.key = String(key++);
    item.classList.add(node.leaf ? "leaf" : level === "MAX" ? "max" : "min");
    if (game && node.leaf) item.classList.add(estimated(node) ? "estimate" : "final");
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
  status.textContent = storyAt(trace, step, alphabeta);
  $("learn-path").textContent = step > 0 && !done ? pathText(trace, step, alphabeta) : "";
  if (current) current.querySelector(".box").scrollIntoView({ block: "nearest", inline: "center" });
}

/** The narrative line after ``step``: how to start, what the step did, or
 * what the walk found. */
function storyAt(trace, step, alphabeta) {
  const last = trace.visited;
  if (step === 0) return "Press Step to walk the tree one node at a time, or Run to play the walk.";
  if (step <= last) return `Step ${step} of ${last}: ${narrate(trace, step, alphabeta)}`;
  const leaves = countLeaves(trace.root);
  const walk = alphabeta ? "alpha-beta" : "minimax";
  if (trace.game) {
    return `Done: ${depthDone(trace)} ${capital(walk)} looked at ${leaves.seen} of ${leaves.all} leaves; the line it expects is marked.`;
  }
  return `Done: the root's value is ${num(trace.root.value)}; ${walk} looked at ${leaves.seen} of ${leaves.all} leaves. The line of best play is marked.`;
}

/** The narrative and the path line as tall as their tallest step, so that
 * the tree below them stays put while the walk goes on (on a phone a long
 * step wraps to more lines than a short one). The style caps that height
 * (a step of a big tree can finish many nodes at once): a longer story
 * scrolls in its box. */
function steadyStory() {
  const status = $("learn-status");
  const path = $("learn-path");
  status.style.height = "";
  path.style.height = "";
  const trace = learnTrace();
  if (!trace || status.offsetParent === null) return;
  const alphabeta = $("alphabeta").checked;
  const last = learnLast();
  const stories = [];
  const paths = [];
  for (let step = 0; step <= last + 1; step++) {
    stories.push(storyAt(trace, step, alphabeta));
    if (step > 0 && step <= last) paths.push(pathText(trace, step, alphabeta));
  }
  status.style.height = `${tallest(status, stories)}px`;
  path.style.height = `${tallest(path, paths)}px`;
}

/** The height ``element`` would take for the tallest of ``texts`` (all of
 * them measured when there are few, else the longest ones). */
function tallest(element, texts) {
  let candidates = [...new Set(texts)];
  if (candidates.length > 300) candidates = candidates.sort((a, b) => b.length - a.length).slice(0, 60);
  const probe = element.cloneNode(false);
  for (const name of ["id", "role", "aria-live"]) probe.removeAttribute(name);
  probe.setAttribute("aria-hidden", "true");
  probe.classList.remove("error");
  Object.assign(probe.style, {
    position: "absolute", visibility: "hidden", left: "0", top: "0", minHeight: "0", maxHeight: "none",
    width: `${element.getBoundingClientRect().width}px`,
  });
  element.parentElement.append(probe);
  let most = 0;
  for (const text of candidates) {
    probe.textContent = text;
    most = Math.max(most, probe.getBoundingClientRect().height);
  }
  probe.remove();
  return Math.ceil(most);
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
    const sign = (node.level === "MAX" ? -1 : 1) * (order === "best" ? 1 : -1);
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
    learn.generation++;
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

// -- the second lesson: depth-limited search below a real position ---------------

/** The games the lesson offers: those whose evaluation gives example
 * positions (``lesson.examples`` in ``GET /api/games``), in the server's order. */
function lessonGames() {
  return [...state.games.values()].filter((game) => game.lesson && game.lesson.examples.length);
}

const depth = {
  /** "game|position" prepared: its view, each move's exact value, the best. */
  key: null,
  view: null,
  exact: null,
  best: null,
  /** Depth -> what the search chose there, for each depth tried here. */
  rows: new Map(),
};

function depthKey() {
  return `${$("depth-game").value}|${$("depth-position").value.trim()}|${$("depth-depth").value}`;
}

function description(name) {
  return state.games.get(name) || { title: name, gravity: false, sides: [], column_labels: [], row_labels: [], rows: 0 };
}

/** "X", "Red (x)": how the game calls a player. */
function sideLabel(game, mark) {
  const side = description(game).sides.find((s) => s.mark === mark);
  if (!side) return mark;
  return side.name.toLowerCase() === mark ? side.name : `${side.name} (${mark})`;
}

/** The deepest tree the server draws below this position: every node of a
 * depth-d tree is counted as if no game ended early (b moves, one fewer
 * each ply where a move fills a cell), which never undercounts. */
function deepest(game, view) {
  const b = view.moves.length;
  const empty = view.board.join("").split("").filter((c) => c === ".").length;
  const gravity = description(game).gravity;
  let nodes = 1;
  let level = 1;
  let d = 0;
  while (d < empty) {
    level *= gravity ? b : b - d;
    if (nodes + level > MAX_RANDOM_NODES) break;
    nodes += level;
    d += 1;
  }
  return { most: Math.max(1, d), ends: d === empty };
}

function fillDepths(limit) {
  const select = $("depth-depth");
  const chosen = Math.min(Number(select.value) || 1, limit.most);
  select.replaceChildren();
  for (let d = 1; d <= limit.most; d++) {
    const option = document.createElement("option");
    option.textContent = String(d);
    select.append(option);
  }
  select.value = String(chosen);
  $("depth-depth-help").textContent = limit.ends
    ? `Up to ${limit.most}: the game is over by then.`
    : `Up to ${limit.most} here: a deeper tree has more than 5,000 nodes.`;
}

/** The position as a small picture, described in words for screen readers. */
function drawBoard(game, view) {
  const about = description(game);
  const board = $("depth-board");
  board.replaceChildren();
  const rowLabels = about.row_labels.length > 0;
  board.style.setProperty("--cols", String(view.board[0].length + (rowLabels ? 1 : 0)));
  const marks = new Map(about.sides.map((side) => [side.mark, side]));
  const taken = new Map();
  const label = (text) => {
    const span = document.createElement("span");
    span.className = "mini-label";
    span.textContent = text;
    board.append(span);
  };
  view.board.forEach((row, r) => {
    if (rowLabels) label(about.row_labels[r]);
    [...row].forEach((cell, c) => {
      const span = document.createElement("span");
      span.className = "mini-cell";
      const side = marks.get(cell);
      if (side) {
        span.textContent = side.name.charAt(0).toUpperCase();
        span.classList.add(about.gravity ? "mini-disc" : "mini-mark");
        if (about.gravity) span.style.background = side.colour;
        const name = about.row_labels.length
          ? `${about.column_labels[c]}${about.row_labels[r]}`
          : `column ${about.column_labels[c]} row ${view.board.length - r}`;
        if (!taken.has(cell)) taken.set(cell, []);
        taken.get(cell).push(name);
      }
      board.append(span);
    });
  });
  if (rowLabels) label("");
  for (const text of about.column_labels) label(text);
  const parts = [...taken].map(([mark, cells]) => `${sideLabel(game, mark)} on ${cells.join(", ")}`);
  board.setAttribute("aria-label", `The position, ${sideLabel(game, view.to_move)} to move: ${parts.join("; ") || "an empty board"}.`);
}

/** The position's view, each move's exact value and how deep a tree may go:
 * asked once per position. */
async function prepare(game, position) {
  const key = `${game}|${position}`;
  if (depth.key === key) return;
  depth.key = null;
  depth.rows = new Map();
  renderTable(null); // the old position's rows go at once, not when the new one is ready
  const view = await api.position(game, position);
  if (!view.moves.length) throw new RequestError("the game is over in this position: choose one with moves left");
  const exact = await api.gameTree(game, position, 1, "minimax", "exact");
  depth.key = key;
  depth.view = view;
  depth.exact = new Map(exact.root.children.map((child) => [child.move, child]));
  depth.best = exact.root.children.find((child) => child.best);
  fillDepths(deepest(game, view));
  drawBoard(game, view);
}

const RANK = { loss: 0, draw: 1, win: 2 };

/** Whether a move is worse than the exact best one (unproven: not known). */
function worse(move) {
  const value = depth.exact.get(move);
  return value.result in RANK && depth.best.result in RANK && RANK[value.result] < RANK[depth.best.result];
}

/** "loses in 4 plies", "draws", "wins in 5 plies", "is not proven". */
function outcomeWords(value) {
  const plies = value.plies == null ? "" : ` in ${value.plies} ${value.plies === 1 ? "ply" : "plies"}`;
  if (value.result === "win") return `wins${plies}`;
  if (value.result === "loss") return `loses${plies}`;
  if (value.result === "draw") return "draws";
  return "is not proven";
}

/** A value for MAX at a node of the search, in words: "estimate +2", "win". */
function searchWords(node) {
  if (node.result === "unknown") return `estimate ${num(node.score)}`;
  return node.score === 0 ? "draw" : num(node.score);
}

/** The move the search chose at the root, and the value it saw. */
function chosen(trace) {
  return trace.root.children.find((child) => child.best);
}

function depthDone(trace) {
  const pick = chosen(trace);
  return `at depth ${trace.depth}, ${sideLabel(trace.game, trace.root.to_move)} plays ${moveLabel(pick.move)}, valued ${searchWords(pick)}.`;
}

async function drawDepth() {
  stopPlay();
  const mine = ++learn.generation;
  const game = $("depth-game").value;
  const position = $("depth-position").value.trim();
  const field = $("depth-position");
  try {
    await prepare(game, position);
    field.removeAttribute("aria-invalid");
    const d = Number($("depth-depth").value);
    const [minimax, alphabeta] = await Promise.all([
      api.gameTree(game, position, d, "minimax", "heuristic"),
      api.gameTree(game, position, d, "alphabeta", "heuristic"),
    ]);
    if (mine !== learn.generation) return false;
    learn.traces = { minimax: annotate(minimax), alphabeta: annotate(alphabeta) };
    learn.drawn = depthKey();
    learn.step = 0;
    $("learn-status").classList.remove("error");
    const pruned = alphabeta.nodes - alphabeta.visited;
    $("learn-counts").textContent = `Minimax visits ${minimax.visited} nodes; alpha-beta visits ${alphabeta.visited} and prunes ${pruned}.`;
    $("learn-leaves").textContent = "";
    $("depth-rule").textContent = `MAX is ${sideLabel(game, minimax.root.to_move)}, to move. The evaluation function: ${minimax.evaluation}.`;
    const pick = chosen(minimax);
    depth.rows.set(d, { depth: d, move: pick.move, words: searchWords(pick) });
    renderLearn();
    steadyStory();
    centreRoot();
    renderTable(d);
    return true;
  } catch (err) {
    if (mine !== learn.generation) return false;
    if (depth.key === null) field.setAttribute("aria-invalid", "true");
    failed(err);
    renderTable(null);
    return false;
  }
}

/** The table of the depths tried, and what changed, in words. */
function renderTable(current) {
  const body = $("depth-table").querySelector("tbody");
  body.replaceChildren();
  const rows = [...depth.rows.values()].sort((a, b) => a.depth - b.depth);
  for (const row of rows) {
    const tr = document.createElement("tr");
    if (row.depth === current) tr.setAttribute("aria-current", "true");
    const exact = depth.exact.get(row.move);
    const bad = worse(row.move);
    const cells = [
      String(row.depth),
      moveLabel(row.move),
      row.words,
      `${outcomeWords(exact)}${bad ? `: worse than ${moveLabel(depth.best.move)}` : ""}`,
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    if (bad) tr.classList.add("worse");
    body.append(tr);
  }
  $("depth-summary").textContent = current === null || !depth.rows.has(current) ? "" : horizonWords(current, rows);
}

/** What the depth chosen saw and missed: the horizon effect in words. */
function horizonWords(d, rows) {
  const trace = learnTrace();
  const row = depth.rows.get(d);
  const best = depth.best;
  const who = sideLabel(trace.game, trace.root.to_move);
  const plies = (n) => `${n} ${n === 1 ? "ply" : "plies"}`;
  let text = `At depth ${d}, ${who} plays ${moveLabel(row.move)} (${row.words}), a move that ${outcomeWords(depth.exact.get(row.move))}. `;
  if (worse(row.move)) {
    text += `What decides it lies more than ${plies(d)} ahead, beyond the search's horizon, where only the evaluation function's guess reaches. The exact best move is ${moveLabel(best.move)}, which ${outcomeWords(best)}.`;
    const deeper = rows.find((r) => r.depth > d && !worse(r.move));
    text += deeper ? ` Depth ${deeper.depth} sees far enough and plays ${moveLabel(deeper.move)}.` : " Search deeper to see it.";
  } else {
    text += row.move === best.move ? "It is the exact best move." : `No move does better: the exact best move, ${moveLabel(best.move)}, also ${outcomeWords(best)}.`;
    const shallow = rows.filter((r) => r.depth < d && worse(r.move));
    if (shallow.length) {
      const depths = shallow.map((r) => r.depth).join(", ");
      text += ` At depth ${depths} the search chose ${[...new Set(shallow.map((r) => moveLabel(r.move)))].join(", ")} instead: the danger was past its horizon.`;
    }
  }
  return text;
}

function fillExamples(game) {
  const select = $("depth-example");
  select.replaceChildren();
  const about = description(game);
  for (const example of about.lesson ? about.lesson.examples : []) {
    const option = document.createElement("option");
    option.value = example.position;
    option.textContent = example.name;
    select.append(option);
  }
  const own = document.createElement("option");
  own.value = "";
  own.textContent = "Your own position";
  select.append(own);
  $("depth-position-help").textContent = about.notation || "In the game's notation.";
}

/** The game select, filled once the games are known. */
function setUpDepth() {
  const select = $("depth-game");
  if (select.options.length) return;
  for (const game of lessonGames()) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    select.append(option);
  }
  if (!select.options.length) return; // the games are not known yet
  fillExamples(select.value);
  $("depth-position").value = $("depth-example").value;
}

function showLesson(lesson) {
  stopPlay();
  learn.lesson = lesson;
  learn.traces = null;
  learn.drawn = null;
  learn.step = 0;
  $("textbook-lesson").hidden = lesson !== "textbook";
  $("depth-lesson").hidden = lesson !== "depth";
  $("depth-results").hidden = lesson !== "depth";
  $("learn-tree").replaceChildren();
  $("learn-counts").textContent = "";
  $("learn-leaves").textContent = "";
  if (lesson === "depth") setUpDepth();
  ready();
}

/** Draw the lesson's tree the first time the Learn view is shown. */
export function showLearn() {
  if (!learn.traces) ready();
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
    steadyStory();
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
  for (const radio of document.querySelectorAll('input[name="lesson"]')) {
    radio.addEventListener("change", () => radio.checked && showLesson(radio.value));
  }
  $("depth-form").addEventListener("submit", (e) => {
    e.preventDefault();
    drawDepth();
  });
  $("depth-game").addEventListener("change", () => {
    fillExamples($("depth-game").value);
    $("depth-position").value = $("depth-example").value;
    $("depth-depth").value = "1";
    drawDepth();
  });
  $("depth-example").addEventListener("change", () => {
    if (!$("depth-example").value) {
      $("depth-position").focus();
      return;
    }
    $("depth-position").value = $("depth-example").value;
    $("depth-depth").value = "1";
    drawDepth();
  });
  $("depth-position").addEventListener("input", () => {
    const known = [...$("depth-example").options].some((o) => o.value && o.value === $("depth-position").value.trim());
    $("depth-example").value = known ? $("depth-position").value.trim() : "";
  });
  $("depth-depth").addEventListener("change", drawDepth);
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(steadyStory, 150);
  });
}
