// Learn's shared parts: what is on show (the lesson, the traced walks, the
// step), and the words every part of Learn uses for nodes and values. The
// server traces each walk line by line (every step the line of pseudocode it
// ran, v, alpha and beta after it); the page only reads that trace.

import { $, state } from "./state.js";

export const learn = {
  /** The lesson on show: "textbook" or "depth". */
  lesson: "textbook",
  /** The traced walks of the tree on show: {minimax, alphabeta}. */
  traces: null,
  /** What those traces were drawn from (the leaves, or game|position|depth). */
  drawn: null,
  /** Steps run: 0 before the walk, then one per line of pseudocode run. */
  step: 0,
  /** The auto-play timer while Run plays. */
  timer: null,
  /** Counts the trees asked for, in either lesson: an answer arriving after a
   * newer request (or a refusal) is dropped, not drawn over it. */
  generation: 0,
  /** The practice on show (null: the walk): "values" or "prunes". */
  practice: null,
};

/** What the other Learn modules call back: set by learn.js. */
export const hooks = {
  /** Draw the tree, the story and the code for the step on show. */
  render: () => {},
  /** Write Learn's state into the address. */
  save: () => {},
};

/** The largest tree drawn: the server traces at most 5,000 nodes. */
export const MAX_NODES = 5000;

export function alphabetaOn() {
  return $("alphabeta").checked;
}

/** The walk on show (minimax or alpha-beta), or null. */
export function learnTrace() {
  return learn.traces && (alphabetaOn() ? learn.traces.alphabeta : learn.traces.minimax);
}

/** The number of steps of the walk on show: its last step is the answer. */
export function lastStep() {
  const trace = learnTrace();
  return trace ? trace.steps.length : 0;
}

export function stopPlay() {
  if (learn.timer) clearInterval(learn.timer);
  learn.timer = null;
}

/** The walk's buttons for the step on show (all off while no tree is drawn). */
export function buttons(enabled) {
  const last = lastStep();
  const done = learn.step >= last;
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
  scrub.max = String(Math.max(1, last));
  scrub.value = String(learn.step);
  scrub.setAttribute("aria-valuetext", !enabled ? "no tree" : learn.step === 0 ? "start" : done ? "done" : `step ${learn.step} of ${last}`);
}

/** The old tree no longer matches the fields: nothing of it stays to be
 * stepped, and the error says why. */
export function failed(err) {
  learn.traces = null;
  learn.drawn = null;
  learn.step = 0;
  $("learn-tree").replaceChildren();
  $("learn-counts").textContent = "";
  $("learn-leaves").textContent = "";
  $("learn-path").textContent = "";
  $("learn-code").hidden = true;
  const status = $("learn-status");
  status.classList.add("error");
  status.textContent = `Cannot draw that tree: ${err.message}.`;
  buttons(false);
}

/** Letter names, breadth first (A the root, then B, C, ... AA after Z), parent
 * links and levels (below a game position MAX is the player to move at the
 * root), and where each node's steps are: the step that entered it, the one
 * that returned its value, and every step of its call, in order. */
export function annotate(trace) {
  const root = trace.root.to_move;
  let count = 0;
  const letters = (n) => {
    let name = "";
    for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) name = String.fromCharCode(65 + ((k - 1) % 26)) + name;
    return name;
  };
  const byOrder = new Map();
  const queue = [[trace.root, null, 0]];
  for (let at = 0; at < queue.length; at++) {
    const [node, parent, depth] = queue[at];
    node.parent = parent;
    node.depth = depth;
    node.leaf = node.children.length === 0;
    node.level = trace.game ? (node.to_move === root ? "MAX" : "MIN") : node.to_move;
    if (!node.leaf) node.letter = letters(count++);
    node.steps = [];
    node.enteredAt = null;
    node.knownAt = null;
    node.cutAt = null;
    if (node.order !== null) byOrder.set(node.order, node);
    for (const child of node.children) queue.push([child, node, depth + 1]);
  }
  trace.byOrder = byOrder;
  trace.steps.forEach((step, i) => {
    const k = i + 1;
    const node = byOrder.get(step.node);
    step.prev = node.steps.length ? node.steps[node.steps.length - 1] : null;
    if (step.does === "result") return;
    node.steps.push(k);
    if (node.enteredAt === null) node.enteredAt = k;
    if (["terminal", "cutoff", "cut", "return"].includes(step.does)) node.knownAt = k;
    if (step.does === "cut") node.cutAt = k;
  });
  return trace;
}

/** The step of ``node``'s call last run within the first ``k`` steps, or null. */
export function frameAt(trace, node, k) {
  const list = node.steps;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo ? trace.steps[list[lo - 1] - 1] : null;
}

/** A value for MAX in words: a number, or below a game position, beyond the
 * evaluation's bound, a game finished in the tree: "win" or "loss". */
export function num(value) {
  if (value === "inf" || value === Infinity) return "+∞";
  if (value === "-inf" || value === -Infinity) return "−∞";
  const trace = learnTrace();
  const bound = trace && trace.estimate_bound;
  if (bound != null && Math.abs(value) > bound) return value > 0 ? "win" : "loss";
  if (bound != null && value > 0) return `+${value}`;
  return String(value).replace("-", "−");
}

export function asNumber(value) {
  if (value === "inf") return Infinity;
  if (value === "-inf") return -Infinity;
  return value;
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The description of a game, or a stand-in while the games are not known. */
export function description(name) {
  return state.games.get(name) || { title: name, gravity: false, sides: [], players: [], column_labels: [], row_labels: [], rows: 0 };
}

/** "X", "Red (x)": how the game calls a player. */
export function sideLabel(game, mark) {
  const side = description(game).sides.find((s) => s.mark === mark);
  if (!side) return mark;
  return side.name.toLowerCase() === mark ? side.name : `${side.name} (${mark})`;
}

/** A game tree's move as a box shows it ("b2", "col 4") and as words say it
 * ("b2", "column 4"). */
export function moveLabel(move, short = false) {
  const trace = learnTrace();
  const game = trace && trace.game && state.games.get(trace.game);
  if (!game || !game.gravity) return move;
  return short ? `col ${move}` : `column ${move}`;
}

/** Whether a leaf below a game position is an estimate at the cut-off (not a
 * finished game). */
export function estimated(node) {
  return node.leaf && node.result === "unknown";
}

/** A leaf's value as its box shows it: the score (textbook), "≈ +2" (an
 * estimate) or the finished game's result for MAX. */
export function leafShown(node) {
  if (node.result == null) return num(node.score);
  if (estimated(node)) return `≈ ${num(node.score)}`;
  return node.score === 0 ? "draw" : num(node.score);
}

/** "estimate −2", "game over: win for MAX", "game over: draw". */
export function leafWords(node) {
  if (estimated(node)) return `estimate ${num(node.score)}`;
  return node.score === 0 ? "game over: draw" : `game over: ${num(node.score)} for MAX`;
}

/** "node C (MIN)", "the root A (MAX)", "leaf 5 under D"; below a game
 * position "node C (MIN, after b2)", "a1 under D (estimate −2)". */
export function nodeName(node) {
  if (node.leaf && node.result != null) return `${moveLabel(node.move)}${node.parent ? ` under ${node.parent.letter}` : ""} (${leafWords(node)})`;
  if (node.leaf) return `leaf ${num(node.score)}${node.parent ? ` under ${node.parent.letter}` : ""}`;
  const after = node.result != null && node.parent ? `, after ${moveLabel(node.move)}` : "";
  return node.parent ? `node ${node.letter} (${node.level}${after})` : `the root ${node.letter} (${node.level})`;
}

/** "D", "the root A", "leaf 5", "a1". */
export function shortName(node) {
  if (node.leaf && node.result != null) return moveLabel(node.move);
  return node.leaf ? `leaf ${num(node.score)}` : node.parent ? node.letter : `the root ${node.letter}`;
}

/** What the walk returned at a node: "12", "at least 23". */
export function valueText(node) {
  const bound = node.bound === "lower" ? "at least " : node.bound === "upper" ? "at most " : "";
  return `${bound}${num(node.value)}`;
}

/** Leaves the walk looked at, and all of them, below ``node``. */
export function countLeaves(node) {
  if (!node.children.length) return { seen: node.order === null ? 0 : 1, all: 1 };
  return node.children.map(countLeaves).reduce((a, b) => ({ seen: a.seen + b.seen, all: a.all + b.all }));
}

/** The first of ``node``'s children in the walk's line of best play. */
export function bestChild(node) {
  return node.children.find((child) => child.best) || null;
}
