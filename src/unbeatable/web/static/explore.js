// Explore: the tree below the position on show, opened move by move. Each
// move's value comes from the server's analysis, and whether it ends the game
// from the server's view of the position it leads to.

import * as api from "./api.js";
import { $, moveName, setStatus, sideName, state } from "./state.js";
import { treeItem, treeKeys, treeNote } from "./trees.js";
import { bestOf, movesToList, sameValue, valueWords } from "./values.js";

/** The server's view of the position below each tree item that can be opened. */
const below = new WeakMap();

export function closeExplore() {
  $("explore-panel").hidden = true;
  $("explore").setAttribute("aria-expanded", "false");
  $("explore-tree").replaceChildren();
}

/** A move of an analysis as a tree item; ``after`` is the server's view of
 * the position it leads to: the item opens unless that position is over. */
function exploreItem(value, after, mover, best) {
  const top = best && sameValue(value, best);
  const guess = best && value === best && value.result === "unknown";
  const mark = top ? "best" : guess ? "best guess" : "";
  // "column 1: loss in 36, best", described as Red (x)'s move: the move, its
  // value for the player making it, and who that is.
  const name = `${moveName(value.move)}: ${valueWords(value)}${mark ? `, ${mark}` : ""}`;
  const label = document.createElement("span");
  label.innerHTML = '<b class="move"></b> <span class="who"></span> <span class="val"></span>';
  label.querySelector(".move").textContent = moveName(value.move);
  label.querySelector(".who").textContent = `(${sideName(mover)})`;
  const val = label.querySelector(".val");
  val.textContent = valueWords(value) + (mark ? ` · ${mark}` : "");
  val.className = `val v-${value.result}`;
  const item = treeItem(name, label);
  item.setAttribute("aria-description", `${sideName(mover)}'s move`);
  item.dataset.move = value.move;
  if (top || guess) item.classList.add("best");
  if (!after.status.over) {
    item.setAttribute("aria-expanded", "false");
    below.set(item, after);
  }
  item.querySelector(".node").addEventListener("click", () => toggleExplore(item));
  return item;
}

/** Put the moves of ``view``'s position under ``item``; returns their
 * analysis (null when the game is over there). */
async function fillExplore(item, view) {
  const group = document.createElement("ul");
  group.setAttribute("role", "group");
  if (view.status.over) {
    group.append(treeNote("The game is over."));
    item.append(group);
    return null;
  }
  const game = state.game.name;
  const analysis = await api.analyze(game, view.position);
  group.setAttribute("aria-label", `${sideName(analysis.to_move)} to move`);
  const best = bestOf(analysis);
  // Big boards list the best few moves by value, and count the others.
  const { shown, rest } = movesToList(analysis);
  const afters = await Promise.all(shown.map((value) => api.position(game, analysis.position, value.move)));
  shown.forEach((value, i) => group.append(exploreItem(value, afters[i], analysis.to_move, best)));
  if (rest) group.append(treeNote(`${rest}.`));
  item.append(group);
  return analysis;
}

async function toggleExplore(item) {
  const expanded = item.getAttribute("aria-expanded");
  if (expanded === null || item.hasAttribute("aria-busy")) return;
  if (expanded === "true") {
    item.setAttribute("aria-expanded", "false");
    return;
  }
  if (!item.querySelector('[role="group"]')) {
    item.setAttribute("aria-busy", "true");
    try {
      await fillExplore(item, below.get(item));
    } catch (err) {
      item.removeAttribute("aria-busy");
      setStatus(`Could not open ${moveName(item.dataset.move)}: ${err.message}.`, null, "error");
      return;
    }
    item.removeAttribute("aria-busy");
  }
  item.setAttribute("aria-expanded", "true");
}

/** The Explore button: open the tree below the position on show, or close it. */
export async function explore() {
  if (!$("explore-panel").hidden) {
    closeExplore();
    return;
  }
  const tree = $("explore-tree");
  tree.replaceChildren();
  $("explore-panel").hidden = false;
  $("explore").setAttribute("aria-expanded", "true");
  const label = document.createElement("span");
  label.textContent = "this position";
  const root = treeItem("root", label);
  root.tabIndex = 0;
  root.setAttribute("aria-expanded", "true");
  tree.append(root);
  try {
    const analysis = await fillExplore(root, state.view);
    const words = analysis ? valueWords(analysis) : "game over";
    root.setAttribute("aria-label", `root: ${words}`);
    label.textContent = analysis ? `${sideName(analysis.to_move)} to move: ${words}` : words;
  } catch (err) {
    label.textContent = `could not be analysed: ${err.message}`;
  }
}

export function initExplore() {
  $("explore").addEventListener("click", explore);
  treeKeys($("explore-tree"), toggleExplore);
}
