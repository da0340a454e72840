// Your record of wins, draws and losses per game, kept in this browser only
// (the server keeps nothing).

import { $ } from "./state.js";

const TALLY_KEY = "unbeatable.tally.v1";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(TALLY_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch (err) {
    return {};
  }
}

const tally = load();

function save() {
  try {
    localStorage.setItem(TALLY_KEY, JSON.stringify(tally));
  } catch (err) {
    // Storage may be full or disabled: the record then lasts for this page only.
  }
}

/** The record for one game (older pages stored "wins", "draws", "losses"). */
function recordFor(name) {
  const entry = tally[name] || {};
  return { win: Number(entry.win ?? entry.wins) || 0, draw: Number(entry.draw ?? entry.draws) || 0,
    loss: Number(entry.loss ?? entry.losses) || 0 };
}

/** Count a finished game's ``result`` ("win", "draw", "loss") once more, or
 * once less (``delta`` -1: Undo opened it again). */
export function record(name, result, delta) {
  const entry = recordFor(name);
  entry[result] = Math.max(0, entry[result] + delta);
  tally[name] = entry;
  save();
}

export function resetRecord(name) {
  delete tally[name];
  save();
}

export function renderTally(game) {
  const entry = recordFor(game.name);
  $("wins").textContent = String(entry.win);
  $("draws").textContent = String(entry.draw);
  $("losses").textContent = String(entry.loss);
  $("tally-game").textContent = `(${game.title})`;
}
