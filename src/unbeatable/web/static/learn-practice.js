// Practice, as the best courses give it: on the tree itself the student
// predicts each node's minimax value, or ticks the leaves alpha-beta prunes;
// Check says for every answer whether it is right and why (the children's
// max or min; the cut that skipped the leaf, or the open window that did
// not), with a score for the tree and for the session. The answers are
// checked against the server's traced walks, never worked out here.

import { capital, learn, leafShown, num } from "./learn-core.js";
import { makeBox, skeleton } from "./learn-tree.js";
import { $ } from "./state.js";

export const practice = {
  /** The answers typed or ticked: node key -> text (values) or true (prunes). */
  answers: new Map(),
  /** Whether the answers on show have been checked. */
  checked: false,
  /** The tree's score at its last check, and the session's trees before it. */
  round: null,
  session: { right: 0, asked: 0 },
  /** What the answers are about (the leaves and the kind): a new tree or
   * kind starts a new round. */
  about: null,
};

/** The trace the practice is checked against: minimax for the values,
 * alpha-beta for what it prunes. */
function practiceTrace() {
  return learn.practice === "values" ? learn.traces.minimax : learn.traces.alphabeta;
}

/** A node's key in the answers: its letter, or a leaf's place left to right. */
function keyOf(node, leafIndex) {
  return node.leaf ? `leaf ${leafIndex}` : node.letter;
}

/** A new tree or kind of practice: the answers and the round start again. */
export function startRound() {
  const about = `${learn.practice}|${learn.drawn}`;
  if (practice.about === about) return;
  if (practice.round) {
    practice.session.right += practice.round.right;
    practice.session.asked += practice.round.asked;
  }
  practice.about = about;
  practice.round = null;
  practice.answers = new Map();
  practice.checked = false;
  $("learn-feedback").replaceChildren();
  $("learn-score").textContent = "";
}

/** The tree with a field in each inner node's box (values) or a box to
 * tick under each leaf (prunes), and, once checked, each answer marked. */
export function drawPractice() {
  startRound();
  const trace = practiceTrace();
  const values = learn.practice === "values";
  $("learn-practice-how").textContent = values
    ? "Type each inner node's minimax value in its box (MAX takes the highest of its children, MIN the lowest), then Check: each answer is marked right (✓) or wrong (✗), and the list under the tree says why."
    : "Tick the leaves alpha-beta never looks at (it walks the children left to right), then Check: each leaf is marked right (✓) or wrong (✗), and the list under the tree says why.";
  const tree = $("learn-tree");
  tree.replaceChildren();
  tree.removeAttribute("role");
  tree.setAttribute("aria-label", values ? "Practice tree: predict each node's value" : "Practice tree: tick the leaves alpha-beta prunes");
  tree.classList.add("learn-practising");
  tree.classList.remove("ab-on");
  const results = practice.checked ? judge(trace) : new Map();
  let leafIndex = 0;
  tree.append(skeleton(trace, (node) => {
    const li = document.createElement("li");
    li.className = node.leaf ? "leaf" : node.level === "MAX" ? "max" : "min";
    const row = document.createElement("span");
    row.className = "node";
    const box = makeBox(node, false);
    row.append(box);
    li.append(row);
    const number = box.querySelector(".num");
    const line = box.querySelector(".ab");
    const key = keyOf(node, node.leaf ? leafIndex++ : null);
    if (values && !node.leaf) {
      const field = document.createElement("input");
      field.type = "text";
      field.inputMode = "numeric";
      field.className = "learn-guess";
      field.size = 3;
      field.autocomplete = "off";
      field.setAttribute("aria-label", `${node.level} ${node.letter}: your value`);
      field.value = practice.answers.get(key) || "";
      field.dataset.key = key;
      field.addEventListener("input", () => {
        practice.answers.set(key, field.value);
        practice.checked = false;
      });
      number.replaceChildren(field);
    } else if (!values && node.leaf) {
      number.textContent = leafShown(node);
      // The box to tick, named for the leaf; the instructions above say
      // what ticking means, so the box stays as narrow as the leaf.
      const tick = document.createElement("input");
      tick.type = "checkbox";
      tick.checked = practice.answers.get(key) === true;
      tick.dataset.key = key;
      tick.setAttribute("aria-label", `pruned: leaf ${num(node.score)} under ${node.parent.letter}`);
      tick.addEventListener("change", () => {
        practice.answers.set(key, tick.checked);
        practice.checked = false;
      });
      tick.className = "learn-prune";
      line.replaceChildren(tick);
    } else {
      number.textContent = node.leaf ? leafShown(node) : "";
    }
    const result = results.get(key);
    if (result) {
      li.classList.add(result.right ? "learn-right" : "learn-wrong");
      const mark = document.createElement("span");
      mark.className = "learn-mark";
      mark.textContent = result.right ? "✓" : "✗";
      mark.setAttribute("aria-label", result.right ? "right" : "wrong");
      mark.setAttribute("role", "img");
      box.append(mark);
      const field = box.querySelector("input");
      if (field) {
        field.setAttribute("aria-describedby", `learn-why-${key.replace(" ", "-")}`);
        if (!result.right) field.setAttribute("aria-invalid", "true");
      }
    }
    return li;
  }, false));
}

/** Every answer against the walk: node key -> {right, says}; the values in
 * the letters' order (level by level), the leaves left to right. */
function judge(trace) {
  const results = new Map();
  if (learn.practice === "values") {
    const queue = [trace.root];
    for (let at = 0; at < queue.length; at++) {
      const node = queue[at];
      if (node.leaf) continue;
      results.set(keyOf(node), judgeValue(node, practice.answers.get(keyOf(node))));
      queue.push(...node.children);
    }
    return results;
  }
  let leafIndex = 0;
  const visit = (node) => {
    if (node.leaf) {
      const key = keyOf(node, leafIndex++);
      results.set(key, judgePrune(trace, node, practice.answers.get(key) === true));
    }
    for (const child of node.children) visit(child);
  };
  visit(trace.root);
  return results;
}

function judgeValue(node, typed) {
  const max = node.level === "MAX";
  const scores = node.children.map((child) => child.score);
  const why = `${node.level} takes the ${max ? "highest" : "lowest"} of its children's values: ${max ? "max" : "min"}(${scores.map(num).join(", ")}) = ${num(node.score)}`;
  const label = `${node.level} ${node.letter}`;
  const text = (typed || "").trim().replace("\u2212", "-");
  if (!text) return { right: false, says: `✗ ${label}: no answer. ${capital(why)}.` };
  const guess = Number(text);
  if (!Number.isFinite(guess) || !/^-?\d+(\.\d+)?$/.test(text)) {
    return { right: false, says: `✗ ${label}: "${text}" is not a number. ${capital(why)}.` };
  }
  if (guess === node.score) return { right: true, says: `✓ ${label} is ${num(node.score)}: ${why}.` };
  const other = max ? Math.min(...scores) : Math.max(...scores);
  const slip = guess === other && other !== node.score
    ? ` (${num(guess)} is the ${max ? "lowest" : "highest"}: what ${max ? "MIN" : "MAX"} would take)`
    : "";
  return { right: false, says: `✗ ${label}: you said ${num(guess)}${slip}, but ${why}.` };
}

/** Why alpha-beta skipped a leaf (the cut above it) or looked at it. */
function judgePrune(trace, leaf, ticked) {
  const label = `leaf ${num(leaf.score)} under ${leaf.parent.letter}`;
  if (leaf.order === null) {
    let top = leaf;
    while (top.parent.order === null) top = top.parent;
    const cutter = top.parent;
    const step = trace.steps[cutter.cutAt - 1];
    const max = cutter.level === "MAX";
    const reason = max
      ? `at ${cutter.level} ${cutter.letter}, v = ${num(step.v)} ≥ β = ${num(step.beta)}: MIN above already has ${num(step.beta)} elsewhere and never lets the game reach ${cutter.letter}, so the rest of ${cutter.letter} is skipped`
      : `at ${cutter.level} ${cutter.letter}, v = ${num(step.v)} ≤ α = ${num(step.alpha)}: MAX above already has ${num(step.alpha)} elsewhere and never lets the game reach ${cutter.letter}, so the rest of ${cutter.letter} is skipped`;
    return ticked
      ? { right: true, says: `✓ ${capital(label)} is pruned: ${reason}.` }
      : { right: false, says: `✗ ${capital(label)} is pruned, not looked at: ${reason}.` };
  }
  const still = `α = ${num(leaf.alpha)} < β = ${num(leaf.beta)}`;
  return ticked
    ? { right: false, says: `✗ ${capital(label)} is looked at, not pruned: alpha-beta reaches it with ${still}, the window still open (nothing above it has been cut), so its value can still change the root's.` }
    : { right: true, says: `✓ ${capital(label)} is looked at: ${still} when alpha-beta reaches it.` };
}

/** Check: every answer marked right or wrong on the tree, why in the list
 * below it, and the score. */
export function check() {
  const trace = practiceTrace();
  practice.checked = true;
  const results = judge(trace);
  drawPractice();
  const list = $("learn-feedback");
  list.replaceChildren();
  let right = 0;
  for (const [key, result] of results) {
    const item = document.createElement("li");
    item.id = `learn-why-${key.replace(" ", "-")}`;
    item.className = result.right ? "learn-right" : "learn-wrong";
    item.textContent = result.says;
    list.append(item);
    if (result.right) right += 1;
  }
  practice.round = { right, asked: results.size };
  const total = { right: practice.session.right + right, asked: practice.session.asked + results.size };
  const trees = practice.session.asked ? ` This session: ${total.right} of ${total.asked}.` : "";
  $("learn-score").textContent = `Score: ${right} of ${results.size} right.${trees}`;
}

/** Clear the answers on show (the round's score stays until a new tree). */
export function clearAnswers() {
  practice.answers = new Map();
  practice.checked = false;
  $("learn-feedback").replaceChildren();
  $("learn-score").textContent = "";
  drawPractice();
}
