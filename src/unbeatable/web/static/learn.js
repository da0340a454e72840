// Learn: minimax and alpha-beta on the textbook tree. The server traces both
// walks over the leaves given; the page shows them one node entry at a time.

import * as api from "./api.js";
import { RequestError } from "./api.js";
import { $ } from "./state.js";
import { treeItem, treeKeys } from "./trees.js";

const learn = {
  /** The traced trees for the leaves on show: {minimax, alphabeta}. */
  traces: null,
  /** Steps shown (node entries); the last step after Run. */
  step: 0,
};

function parseLeaves(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    try {
      return JSON.parse(trimmed);
    } catch (err) {
      throw new RequestError("leaves: not a valid nested list");
    }
  }
  const parts = trimmed.split(/[\s,]+/).filter(Boolean);
  const numbers = parts.map(Number);
  const bad = parts.find((p, i) => !Number.isFinite(numbers[i]));
  if (bad !== undefined) throw new RequestError(`leaves: ${JSON.stringify(bad)} is not a number`);
  return numbers;
}

async function drawLearn() {
  const text = $("leaves").value;
  try {
    const leaves = parseLeaves(text);
    const [minimax, alphabeta] = await Promise.all([
      api.textbookTree(leaves, "minimax"),
      api.textbookTree(leaves, "alphabeta"),
    ]);
    learn.traces = { minimax, alphabeta };
    learn.step = 0;
    $("learn-status").textContent = "Press Step to walk the tree one node at a time, or Run.";
    const pruned = alphabeta.nodes - alphabeta.visited;
    $("learn-counts").textContent = `Minimax visits ${minimax.visited} nodes; alpha-beta visits ${alphabeta.visited} and prunes ${pruned}.`;
    renderLearn();
  } catch (err) {
    $("learn-status").textContent = `Cannot draw that tree: ${err.message}.`;
  }
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
  return String(value);
}

function renderLearn() {
  const trace = learnTrace();
  const tree = $("learn-tree");
  if (!trace) return;
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#learn-tree [role=treeitem]");
  const focusPath = focused ? focused.dataset.path : "root";
  tree.replaceChildren();
  const alphabeta = $("alphabeta").checked;
  const step = learn.step;
  let current = null;
  // A pruned node shows as pruned once its parent has given up on it.
  const build = (node, parentKnown) => {
    const visited = node.order !== null && node.order <= step;
    const known = node.known_at !== null && node.known_at <= step;
    const leaf = node.children.length === 0;
    const level = leaf ? "leaf" : node.to_move;
    const bound = node.bound === "lower" ? "≥ " : node.bound === "upper" ? "≤ " : "";
    const valueText = leaf ? num(node.score) : known ? `${bound}${num(node.value)}` : "?";
    const path = node.position;
    let name = `${path}: ${leaf ? `leaf ${num(node.score)}` : `${level}, value ${known ? `${bound}${num(node.value)}` : "not known yet"}`}`;
    const pruned = alphabeta && node.pruned && parentKnown;
    if (pruned) name += ", pruned";
    const box = document.createElement("span");
    box.className = "box";
    box.innerHTML = '<span class="level"></span><span class="num"></span><span class="ab"></span>';
    box.querySelector(".level").textContent = leaf ? "" : level;
    box.querySelector(".num").textContent = valueText;
    const item = treeItem(name, box);
    item.dataset.path = path;
    item.classList.add(leaf ? "leaf" : level === "MAX" ? "max" : "min");
    if (pruned) {
      item.classList.add("pruned");
      box.querySelector(".ab").textContent = "pruned";
    }
    if (visited) item.classList.add("visited");
    if (node.order === step && step < learnLast()) {
      current = item;
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
      if (alphabeta && node.alpha !== null) {
        box.querySelector(".ab").textContent = `α ${num(node.alpha)} β ${num(node.beta)}`;
      }
    }
    if (step >= learnLast() && node.best) item.classList.add("best");
    if (!leaf) {
      item.setAttribute("aria-expanded", "true");
      const group = document.createElement("ul");
      group.setAttribute("role", "group");
      for (const child of node.children) group.append(build(child, known));
      item.append(group);
    }
    item.querySelector(".node").addEventListener("click", () => {
      if (item.hasAttribute("aria-expanded")) toggleLearn(item);
    });
    return item;
  };
  tree.append(build(trace.root, false));
  const target = tree.querySelector(`[data-path="${CSS.escape(focusPath)}"]`) || tree.firstChild;
  target.tabIndex = 0;
  if (focused && target) target.focus();
  const last = learnLast();
  if (step === 0) return;
  if (step >= last) {
    $("learn-status").textContent = `Done: the root's value is ${num(trace.root.value)}.`;
  } else if (current) {
    $("learn-status").textContent = `Step ${step} of ${last}: ${current.getAttribute("aria-label")}.`;
  }
}

function toggleLearn(item) {
  item.setAttribute("aria-expanded", item.getAttribute("aria-expanded") === "true" ? "false" : "true");
}

/** Draw the textbook tree the first time the Learn view is shown. */
export function showLearn() {
  if (!learn.traces) drawLearn();
}

export function initLearn() {
  treeKeys($("learn-tree"), toggleLearn);
  $("learn-form").addEventListener("submit", (e) => {
    e.preventDefault();
    drawLearn();
  });
  $("alphabeta").addEventListener("change", renderLearn);
  $("step").addEventListener("click", () => {
    if (!learn.traces) return;
    learn.step = Math.min(learn.step + 1, learnLast());
    renderLearn();
  });
  $("run").addEventListener("click", () => {
    if (!learn.traces) return;
    learn.step = learnLast();
    renderLearn();
  });
}
