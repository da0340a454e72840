// Explore: the tree below the position on show, opened move by move. Each
// move's value comes from the server's analysis, and whether it ends the game
// from the server's view of the position it leads to.
//
// The tree is flat, as Learn's is: each item a row of its own with its level
// (aria-level), the rows below an item following it, so that an item's text
// is its own row alone and its spoken name is exactly what it shows.

import * as api from "./api.js";
import { $, moveName, sentence, setStatus, shown, sideName, state } from "./state.js";
import { treeKeys } from "./trees.js";
import { bestOf, movesToList, sameValue, valueWords } from "./values.js";

/** The server's view of the position below each tree item that can be opened. */
const below = new WeakMap();

export function closeExplore() {
  $("explore-panel").hidden = true;
  $("explore").setAttribute("aria-expanded", "false");
  $("explore-tree").replaceChildren();
}

const levelOf = (row) => Number(row.dataset.level);

/** A row of the tree, ``level`` deep, showing ``text`` (its name too). */
function row(level, text, item = true) {
  const li = document.createElement("li");
  li.dataset.level = String(level);
  li.style.setProperty("--level", String(level - 1));
  if (item) {
    li.setAttribute("role", "treeitem");
    li.setAttribute("aria-level", String(level));
    li.tabIndex = -1;
  } else {
    li.setAttribute("role", "none");
    li.className = "note";
  }
  const node = document.createElement("span");
  node.className = "node";
  li.append(node);
  setText(li, text);
  return li;
}

/** A row's text, and its name: exactly what it shows (the arrow drawn
 * before an item that opens is no part of it). */
function setText(li, text) {
  li.querySelector(".node").textContent = text;
  if (li.getAttribute("role") === "treeitem") li.setAttribute("aria-label", text);
}

/** A move of an analysis as a tree item ("b2: draw, best"); ``after`` is the
 * server's view of the position it leads to: the item opens unless that
 * position is over. */
function exploreItem(value, after, mover, best, level) {
  const top = best && sameValue(value, best);
  const guess = best && value === best && value.result === "unknown";
  const mark = top ? "best" : guess ? "best guess" : "";
  // "column 1: loss in 36, best": the move and its value for the player
  // making it (the row above the moves says who that is).
  const item = row(level, `${moveName(value.move)}: ${valueWords(value)}${mark ? `, ${mark}` : ""}`);
  const node = item.querySelector(".node");
  node.classList.add(`v-${value.result}`);
  item.setAttribute("aria-description", `${sideName(mover)}'s move`);
  item.dataset.move = value.move;
  if (top || guess) item.classList.add("best");
  if (!after.status.over) {
    item.setAttribute("aria-expanded", "false");
    below.set(item, after);
  }
  node.addEventListener("click", () => toggleExplore(item));
  return item;
}

/** The rows below ``item``: its moves (the best few on big boards), after a
 * row saying whose moves they are. Returns the analysis (null when the game
 * is over there). */
async function fillExplore(item, view) {
  const level = levelOf(item) + 1;
  const rows = [];
  let analysis = null;
  if (view.status.over) {
    rows.push(row(level, "The game is over.", false));
  } else {
    const game = state.game.name;
    analysis = await api.analyze(game, view.position);
    const best = bestOf(analysis);
    // Big boards list the best few moves by value, and count the others.
    const { shown: listed, rest } = movesToList(analysis);
    const afters = await Promise.all(listed.map((value) => api.position(game, analysis.position, value.move)));
    rows.push(row(level, `${sideName(analysis.to_move)} to move:`, false));
    listed.forEach((value, i) => rows.push(exploreItem(value, afters[i], analysis.to_move, best, level)));
    if (rest) rows.push(row(level, `${sentence(rest)}.`, false));
  }
  item.after(...rows);
  return analysis;
}

/** The rows below ``item`` (until the next row at its level or above). */
function rowsBelow(item) {
  const level = levelOf(item);
  const rows = [];
  for (let next = item.nextElementSibling; next && levelOf(next) > level; next = next.nextElementSibling) rows.push(next);
  return rows;
}

/** Show the rows below ``item`` whose items above are all open, hide the others. */
function showBelow(item, open) {
  const base = levelOf(item);
  // open[level]: whether the nearest item above at that level is open.
  const openAt = { [base]: open };
  for (const next of rowsBelow(item)) {
    const level = levelOf(next);
    const visible = Object.entries(openAt).every(([at, on]) => Number(at) >= level || on);
    next.hidden = !visible;
    if (next.getAttribute("role") === "treeitem") {
      openAt[level] = next.getAttribute("aria-expanded") === "true";
      for (const at of Object.keys(openAt)) if (Number(at) > level) delete openAt[at];
    }
  }
}

async function toggleExplore(item) {
  const expanded = item.getAttribute("aria-expanded");
  if (expanded === null || item.hasAttribute("aria-busy")) return;
  if (expanded === "true") {
    item.setAttribute("aria-expanded", "false");
    showBelow(item, false);
    return;
  }
  if (!rowsBelow(item).length) {
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
  showBelow(item, true);
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
  const root = row(1, "This position");
  root.tabIndex = 0;
  root.setAttribute("aria-expanded", "true");
  tree.append(root);
  try {
    const analysis = await fillExplore(root, shown());
    const words = analysis ? valueWords(analysis) : "game over";
    setText(root, analysis ? `This position: ${words} for ${sideName(analysis.to_move)}` : "This position: game over");
  } catch (err) {
    setText(root, `This position could not be analysed: ${err.message}`);
  }
}

export function initExplore() {
  $("explore").addEventListener("click", explore);
  treeKeys($("explore-tree"), toggleExplore);
}
