// The walk told step by step: each step is one line of the algorithm's
// pseudocode as the server's trace ran it, said in words (what it did, and
// why: the test that cut, the alpha that rose), shown in the pseudocode
// panel with the line highlighted, and alpha and beta along the path.

import {
  asNumber, capital, countLeaves, frameAt, learnTrace, moveLabel, nodeName, num, shortName, valueText,
} from "./learn-core.js";
import { $ } from "./state.js";

/** How a lesson says what the walk found (the depth lesson names the move). */
export const doneWords = {
  textbook: (trace, walk, leaves) => `Done: the root's value is ${num(trace.root.value)}; ${walk} looked at ${leaves.seen} of the ${leaves.all} leaves. The line of best play is marked.`,
};

/** The node whose call ran step ``k`` (1 the first). */
export function stepNode(trace, k) {
  return trace.byOrder.get(trace.steps[k - 1].node);
}

/** What step ``k`` did, in words, from the trace alone. */
function narrate(trace, k) {
  const step = trace.steps[k - 1];
  const node = stepNode(trace, k);
  const ab = trace.algorithm === "alphabeta";
  const max = node.level === "MAX";
  const before = step.prev === null ? null : trace.steps[step.prev - 1];
  const name = shortName(node);
  switch (step.does) {
    case "enter":
      return `Enter ${nodeName(node)}${ab ? ` with α = ${num(step.alpha)} and β = ${num(step.beta)}` : ""}; v starts at ${num(step.v)}.`;
    case "terminal":
      if (node.result == null) return `Look at ${nodeName(node)}: a leaf returns its score, ${num(step.v)}.`;
      return `Look at ${moveLabel(node.move)}${node.parent ? ` under ${node.parent.letter}` : ""}: the game is over, so it returns its result, ${resultWords(node.score)}.`;
    case "cutoff":
      return `Look at ${moveLabel(node.move)}${node.parent ? ` under ${node.parent.letter}` : ""}: the depth limit, so it returns the evaluation function's estimate, ${num(step.v)}.`;
    case "update": {
      const child = trace.byOrder.get(step.child);
      const bound = child.bound ? ` (only a bound: ${shortName(child)} is worth ${valueText(child)})` : "";
      return `Back at ${name} (${node.level}): v ← ${max ? "max" : "min"}(${num(before.v)}, ${num(child.value)}) = ${num(step.v)}${bound}.`;
    }
    case "pass":
      return max
        ? `v = ${num(step.v)} < β = ${num(step.beta)}: no cut, go on.`
        : `v = ${num(step.v)} > α = ${num(step.alpha)}: no cut, go on.`;
    case "cut": {
      const later = node.children.some((child) => child.order === null);
      const [sign, bound, other] = max ? ["≥", `β = ${num(step.beta)}`, "MIN"] : ["≤", `α = ${num(step.alpha)}`, "MAX"];
      return later
        ? `Cut: ${num(step.v)} ${sign} ${bound}, so ${other} above avoids ${name}: the rest of ${name} cannot matter. ${capital(name)} returns ${valueText(node)}.`
        : `${num(step.v)} ${sign} ${bound}: ${other} above will avoid ${name}. ${capital(name)} returns ${valueText(node)}.`;
    }
    case "alpha":
    case "beta": {
      const [letter, pick, was, now] = step.does === "alpha" ? ["α", "max", before.alpha, step.alpha] : ["β", "min", before.beta, step.beta];
      const same = asNumber(was) === asNumber(now);
      return `${letter} at ${name} ← ${pick}(${num(was)}, ${num(step.v)}) = ${num(now)}${same ? ", unchanged" : ""}.`;
    }
    case "return":
      return `${capital(nodeName(node))} has seen all its children: it returns ${valueText(node)}.`;
    default:
      return done(trace);
  }
}

/** A finished game's result for MAX: "a draw", "a win for MAX". */
function resultWords(score) {
  return score === 0 ? "a draw" : `${score > 0 ? "a win" : "a loss"} for MAX`;
}

function done(trace) {
  const walk = trace.algorithm === "alphabeta" ? "alpha-beta" : "minimax";
  const say = doneWords[trace.game ? "depth" : "textbook"] || doneWords.textbook;
  return say(trace, walk, countLeaves(trace.root));
}

/** The narrative line after ``k`` steps: how to start, or what the step did. */
export function storyAt(trace, k) {
  const last = trace.steps.length;
  if (k === 0) return "Press Step to run the walk one line of pseudocode at a time, or Run to play it.";
  if (k >= last) return done(trace);
  return `Step ${k} of ${last}: ${narrate(trace, k)}`;
}

/** The nodes being searched after ``k`` steps: the root down to the node
 * whose call ran the last step (none once the walk is done). */
export function activePath(trace, k) {
  if (k === 0 || k >= trace.steps.length) return [];
  const path = [];
  for (let node = stepNode(trace, k); node; node = node.parent) path.unshift(node);
  return path;
}

/** Alpha and beta at a node on the path after ``k`` steps. */
export function windowAt(trace, node, k) {
  const frame = frameAt(trace, node, k);
  return frame ? [frame.alpha, frame.beta] : [node.alpha, node.beta];
}

export function pathText(trace, k) {
  const path = activePath(trace, k).filter((n) => !n.leaf);
  if (trace.algorithm !== "alphabeta" || !path.length) return "";
  return "Path: " + path.map((n) => {
    const [a, b] = windowAt(trace, n, k);
    return `${shortName(n)} α ${num(a)} β ${num(b)}`;
  }).join(" › ");
}

/** The pseudocode panel: the walk's algorithm as the server ran it, the line
 * of step ``k`` highlighted, and the call it ran in with v, alpha and beta. */
export function renderCode(trace, k) {
  const panel = $("learn-code");
  panel.hidden = false;
  const ab = trace.algorithm === "alphabeta";
  $("learn-code-title").textContent = ab ? "Alpha-beta, line by line" : "Minimax, line by line";
  const list = $("learn-code-lines");
  if (list.dataset.for !== trace.pseudocode.join("\n")) {
    list.replaceChildren();
    for (const text of trace.pseudocode) {
      // Indented by its leading spaces; a line too long for the panel wraps
      // under itself, further in.
      const line = document.createElement("li");
      line.style.setProperty("--indent", String(text.length - text.trimStart().length));
      const number = document.createElement("span");
      number.className = "learn-code-no";
      number.setAttribute("aria-hidden", "true");
      number.textContent = String(list.children.length + 1);
      const code = document.createElement("code");
      code.textContent = text.trim();
      line.append(number, code);
      list.append(line);
    }
    list.dataset.for = trace.pseudocode.join("\n");
  }
  $("learn-code-terms").textContent = trace.game
    ? "IS-TERMINAL: the game is over, and UTILITY its result for MAX (win, loss or draw). IS-CUTOFF: the search depth is reached, and EVAL the evaluation function's estimate."
    : "IS-TERMINAL: a leaf (the textbook tree's leaves end the game), and UTILITY its score.";
  const step = k > 0 ? trace.steps[k - 1] : null;
  [...list.children].forEach((line, i) => {
    const now = step !== null && step.line === i + 1;
    line.classList.toggle("learn-code-now", now);
    if (now) line.setAttribute("aria-current", "step");
    else line.removeAttribute("aria-current");
  });
  const frame = $("learn-code-frame");
  if (!step) {
    frame.textContent = "No line has run yet.";
  } else if (step.does === "result") {
    frame.textContent = `Line ${step.line} ran last: the search returns the root's value, ${num(step.v)}.`;
  } else {
    const node = stepNode(trace, k);
    const call = `${node.level}-VALUE of ${node.leaf ? shortName(node) : node.parent ? `node ${node.letter}` : `the root ${node.letter}`}`;
    const vars = [`v = ${num(step.v)}`];
    if (ab) vars.push(`α = ${num(step.alpha)}`, `β = ${num(step.beta)}`);
    frame.textContent = `Line ${step.line} ran last, in ${call}: ${vars.join(", ")}.`;
  }
}

/** The narrative and the path line as tall as their tallest step, so that
 * the tree below them stays put while the walk goes on (on a phone a long
 * step wraps to more lines than a short one). */
export function steadyStory() {
  const status = $("learn-status");
  const path = $("learn-path");
  status.style.height = "";
  path.style.height = "";
  const trace = learnTrace();
  if (!trace || status.offsetParent === null) return;
  const last = trace.steps.length;
  const stories = [];
  const paths = [];
  for (let k = 0; k <= last; k++) {
    stories.push(storyAt(trace, k));
    if (k > 0 && k < last) paths.push(pathText(trace, k));
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
