// Learn: minimax and alpha-beta as a course. Two lessons, one module each
// (learn-textbook.js: the textbook tree of leaf scores; learn-depth.js:
// depth-limited search below a real position), and the parts they share:
// learn-core.js (what is on show, the words for nodes and values),
// learn-walk.js (each step told, the pseudocode with its line highlighted),
// learn-tree.js (the tree drawn, fitted to its frame) and learn-practice.js
// (predict, then be told why). This module wires them: the walk's buttons,
// the lesson and practice choices, and Learn's state in the address.

import {
  alphabetaOn, buttons, hooks, lastStep, learn, learnTrace, stopPlay,
} from "./learn-core.js";
import {
  chooseDepth, depthKey, depthsTried, drawDepth, initDepth, setUpDepth, tryDepths,
} from "./learn-depth.js";
import { check, clearAnswers, drawPractice } from "./learn-practice.js";
import {
  drawTextbook, editLeaf, randomTree, reorder, textbook,
} from "./learn-textbook.js";
import { centreRoot, drawWalk, fitTree, keepInView, toggle } from "./learn-tree.js";
import { pathText, renderCode, steadyStory, storyAt } from "./learn-walk.js";
import { $ } from "./state.js";
import { treeKeys } from "./trees.js";

/** Draw what is on show: the walk at its step (tree, story, path, code), or
 * the practice. ``drawn``: a new tree (fit it, steady the story, centre the
 * root); ``keepStatus``: an error on show stays. */
function renderLearn({ drawn = false, keepStatus = false } = {}) {
  const trace = learnTrace();
  if (!trace) return;
  const practising = Boolean(learn.practice) && learn.lesson === "textbook";
  $("learn-walk-parts").hidden = practising;
  $("learn-practice-panel").hidden = !practising;
  $("learn-code").hidden = practising;
  $("learn-edit-note").hidden = practising || learn.lesson !== "textbook";
  $("learn-ab-terms").hidden = practising ? learn.practice !== "prunes" : !alphabetaOn();
  if (practising) {
    drawPractice();
    buttons(false);
    if (drawn) fitTree();
    centreRoot();
    saveAddress();
    return;
  }
  const k = learn.step;
  const current = drawWalk(trace, k, {
    edit: learn.lesson === "textbook" ? editLeaf : null,
    ties: learn.lesson === "depth",
  });
  buttons(true);
  const status = $("learn-status");
  if (!keepStatus) {
    status.classList.remove("error");
    status.textContent = storyAt(trace, k);
  }
  $("learn-path").textContent = pathText(trace, k);
  renderCode(trace, k);
  if (drawn) {
    steadyStory();
    fitTree();
    centreRoot();
  }
  keepInView(current);
  saveAddress();
}

/** The tree on show matches the fields (drawn again if they were edited). */
async function ready() {
  if (learn.lesson === "depth") {
    if (learn.traces && depthKey() === learn.drawn) return true;
    return drawDepth();
  }
  if (learn.traces && $("leaves").value === learn.drawn) return true;
  return drawTextbook();
}

function goTo(step) {
  learn.step = Math.max(0, Math.min(step, lastStep()));
  renderLearn();
}

function speed() {
  return Number($("learn-speed").value) || 600;
}

async function togglePlay() {
  if (learn.timer) {
    stopPlay();
    buttons(true);
    return;
  }
  if (!(await ready())) return;
  if (learn.step >= lastStep()) learn.step = 0;
  const tick = () => {
    goTo(learn.step + 1);
    if (learn.step >= lastStep()) {
      stopPlay();
      buttons(true);
    }
  };
  learn.timer = setInterval(tick, speed());
  tick();
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
  if (lesson === "depth") {
    setUpDepth();
    learn.practice = null;
    $("learn-practice-on").checked = false;
  }
  return ready();
}

/** Practice on or off, and what it asks. */
async function setPractice() {
  stopPlay();
  learn.practice = $("learn-practice-on").checked ? $("learn-practice-kind").value : null;
  $("learn-practice-kind").disabled = !learn.practice;
  if (await ready()) renderLearn({ drawn: true });
}

// -- Learn's state in the address -------------------------------------------------
//
// The Play tab keeps its game in the address's hash; Learn keeps its state in
// the query (?learn=textbook&leaves=...&walk=alphabeta&step=5), so neither
// writes over the other, and a link holds both: it opens on Learn, at the
// lesson, tree, walk, order, step (or practice) it was copied at.

/** Learn's state as the address holds it, or null when the address has none. */
function readAddress() {
  const params = new URLSearchParams(location.search);
  const lesson = params.get("learn");
  if (lesson !== "textbook" && lesson !== "depth") return null;
  return {
    lesson,
    walk: params.get("walk") === "alphabeta" ? "alphabeta" : "minimax",
    step: Math.max(0, Number.parseInt(params.get("step") || "0", 10) || 0),
    leaves: params.get("leaves"),
    given: params.get("given"),
    order: params.get("order") || "given",
    practice: ["values", "prunes"].includes(params.get("practice")) ? params.get("practice") : null,
    game: params.get("game"),
    position: params.get("position"),
    depth: Number.parseInt(params.get("depth") || "1", 10) || 1,
    tried: (params.get("tried") || "").split(",").map(Number).filter((d) => d > 0),
  };
}

/** Write Learn's state into the address (the query; the hash stays Play's). */
function saveAddress() {
  if ($("panel-learn").hidden || pending) return;
  const params = new URLSearchParams({ learn: learn.lesson });
  if (learn.lesson === "textbook") {
    params.set("leaves", $("leaves").value);
    const order = $("child-order").value;
    if (order !== "given") {
      params.set("order", order);
      if (textbook.given !== null) params.set("given", textbook.given);
    }
    if (learn.practice) params.set("practice", learn.practice);
  } else {
    params.set("game", $("depth-game").value);
    params.set("position", $("depth-position").value.trim());
    params.set("depth", $("depth-depth").value);
    const tried = depthsTried();
    if (tried.length > 1) params.set("tried", tried.join(","));
  }
  params.set("walk", alphabetaOn() ? "alphabeta" : "minimax");
  if (!learn.practice && learn.step) params.set("step", String(learn.step));
  const url = `${location.pathname}?${params}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, "", url);
}

/** Learn's state, asked for by the address, waiting for the view to open. */
let pending = readAddress();

/** Whether the address asks for Learn (the page then opens on it). */
export function learnAsked() {
  return pending !== null;
}

/** Leaving Learn: its state leaves the address (Play's game stays). */
export function leaveLearn() {
  stopPlay();
  if (location.search) history.replaceState(null, "", `${location.pathname}${location.hash}`);
}

/** Open what the address asked for: the lesson, its tree, the walk, the step. */
async function openAddress(asked) {
  $("alphabeta").checked = asked.walk === "alphabeta";
  for (const radio of document.querySelectorAll('input[name="lesson"]')) radio.checked = radio.value === asked.lesson;
  if (asked.lesson === "textbook") {
    if (asked.leaves) $("leaves").value = asked.leaves;
    textbook.given = asked.order !== "given" && asked.given ? asked.given : $("leaves").value;
    $("child-order").value = ["best", "worst", "shuffled"].includes(asked.order) ? asked.order : "given";
    learn.practice = asked.practice;
    $("learn-practice-on").checked = Boolean(asked.practice);
    if (asked.practice) $("learn-practice-kind").value = asked.practice;
    $("learn-practice-kind").disabled = !asked.practice;
  } else {
    chooseDepth(asked.game, asked.position, asked.depth);
  }
  learn.lesson = asked.lesson;
  $("textbook-lesson").hidden = asked.lesson !== "textbook";
  $("depth-lesson").hidden = asked.lesson !== "depth";
  $("depth-results").hidden = asked.lesson !== "depth";
  let drawnOk;
  if (asked.lesson === "textbook") drawnOk = await drawTextbook({ keepOrder: true });
  else drawnOk = await drawDepth();
  pending = null;
  if (!drawnOk) {
    saveAddress();
    return;
  }
  if (asked.lesson === "depth" && asked.tried.length) await tryDepths(asked.tried);
  learn.step = Math.min(asked.step, lastStep());
  renderLearn({ drawn: true });
}

/** The Learn view is shown: what the address asks for, or the lesson's tree
 * the first time. */
export function showLearn() {
  if (pending) {
    openAddress(pending);
    return;
  }
  if (!learn.traces) ready();
  else renderLearn();
}

export function initLearn() {
  hooks.render = renderLearn;
  hooks.save = saveAddress;
  treeKeys($("learn-tree"), toggle, (item) => {
    // Enter on a leaf of the textbook tree edits its score.
    if (learn.lesson !== "textbook" || item.dataset.leaf === undefined) return;
    const trace = learnTrace();
    const leaves = [];
    const walk = (node) => (node.leaf ? leaves.push(node) : node.children.forEach(walk));
    walk(trace.root);
    editLeaf(item, leaves[Number(item.dataset.leaf)]);
  });
  buttons(false);
  $("learn-form").addEventListener("submit", (e) => {
    e.preventDefault();
    drawTextbook();
  });
  $("alphabeta").addEventListener("change", () => {
    // Another walk: its steps are not the same, so it starts again.
    stopPlay();
    learn.step = 0;
    if (learnTrace()) renderLearn({ drawn: true });
    else saveAddress();
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
  $("child-order").addEventListener("change", () => reorder(ready));
  for (const radio of document.querySelectorAll('input[name="lesson"]')) {
    radio.addEventListener("change", () => radio.checked && showLesson(radio.value));
  }
  $("learn-practice-on").addEventListener("change", setPractice);
  $("learn-practice-kind").addEventListener("change", setPractice);
  $("learn-check").addEventListener("click", check);
  $("learn-clear").addEventListener("click", clearAnswers);
  $("learn-new-tree").addEventListener("click", randomTree);
  $("learn-zoom").addEventListener("change", () => {
    fitTree();
    centreRoot();
  });
  initDepth();
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      steadyStory();
      fitTree();
    }, 150);
  });
}

