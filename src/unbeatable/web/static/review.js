// Review: look back on the game on show, finished or not. The move list is
// numbered and each move a button that puts the board back to the position
// after it (Start, Back, Forward and End step through them); the server's
// review (POST /api/review) gives each move's words (its mover's value
// before and after it, "c2: a draw became a loss in 6; a3 kept the draw"),
// marks the mistakes and sums the game up in one line. The board shows the
// positions the page kept as the game was played (``state.views``); while a
// past one is on show nothing can be played, and End returns to the game.

import * as api from "./api.js";
import { closeExplore } from "./explore.js";
import { render } from "./play.js";
import { $, moveName, sentence, setStatus, sideName, sideOf, state } from "./state.js";

/** The status line of the game in play, kept while a past position shows. */
let playing = null;

/** The moves the review on hand covers: "" start, then the moves. */
const keyOf = (moves) => `${state.start}|${moves.join(" ")}`;

/** How many of the game's moves the review on hand covers (its moves are
 * the game's first ones). */
function covered() {
  const review = state.review;
  if (!review || review.game !== state.game.name) return 0;
  let n = 0;
  while (n < review.moves.length && n < state.moves.length && review.moves[n].move === state.moves[n]) n += 1;
  return n;
}

/** Forget the review (a new game, another game, a position set up). */
export function dropReview() {
  state.review = null;
  state.reviewed = "";
  state.at = null;
  playing = null;
  $("review").hidden = true;
  $("review").removeAttribute("aria-busy");
  $("review-open").setAttribute("aria-expanded", "false");
}

/** Whether the review panel is open. */
export function reviewOpen() {
  return !$("review").hidden;
}

/** Ask the server for the review of the game so far (if the one on hand
 * does not cover it), then show it. */
export async function fetchReview() {
  const moves = state.moves.slice();
  const asked = keyOf(moves);
  if (state.reviewed === asked) return;
  const token = state.token;
  state.reviewed = asked;
  $("review-summary").textContent = moves.length
    ? `Reviewing ${moves.length} ${moves.length === 1 ? "move" : "moves"}…`
    : "No moves yet.";
  $("review").setAttribute("aria-busy", "true");
  try {
    const review = await api.review(state.game.name, moves, state.start);
    if (token !== state.token || state.reviewed !== asked) return;
    state.review = review;
  } catch (err) {
    if (token !== state.token || state.reviewed !== asked) return;
    state.reviewed = "";
    $("review-summary").textContent = `The review could not be made: ${err.message}.`;
    $("review").removeAttribute("aria-busy");
    return;
  } finally {
    if (token === state.token) $("review").removeAttribute("aria-busy");
  }
  renderReview();
}

/** Open the review (and ask for it), or, when it covers the game so far,
 * close it and return to the game; a game grown since is reviewed again. */
export function toggleReview() {
  if (reviewOpen() && state.reviewed === keyOf(state.moves)) {
    closeReview();
    return;
  }
  $("review").hidden = false;
  $("review-open").setAttribute("aria-expanded", "true");
  renderReview();
  fetchReview();
}

/** Open the review of a finished game (the game's end shows it). */
export function showReview() {
  if (!reviewOpen()) toggleReview();
  else fetchReview();
}

export function closeReview() {
  stepTo(null);
  $("review").hidden = true;
  $("review-open").setAttribute("aria-expanded", "false");
}

/** Show the position after move ``ply`` (0: the start; null or the last
 * move: the game in play). */
export function stepTo(ply) {
  const last = state.moves.length;
  let at = ply === null || ply >= last ? null : Math.max(0, ply);
  if (at !== null && !state.views[at]) at = null; // not kept: nothing to show
  if (at === state.at) return;
  if (state.at === null && at !== null) {
    playing = { text: $("status").textContent, kind: $("status-box").dataset.kind || "" };
  }
  state.at = at;
  state.hints = null;
  state.selected = null;
  closeExplore();
  if (at === null) {
    if (playing) setStatus(playing.text, null, playing.kind);
    playing = null;
  } else {
    setStatus(stepWords(at));
  }
  render(); // the board, the list, and the address (the move on show is in it)
  keepListed();
}

/** Scroll the move list (itself, never the page) to the move on show. */
function keepListed() {
  const list = $("review-moves");
  const current = list.querySelector('[aria-current="step"]');
  if (!current) return;
  const top = current.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + current.offsetHeight - list.clientHeight;
  }
}

/** What the status line says at a past position. */
function stepWords(at) {
  const total = state.moves.length;
  if (at === 0) return `The start of the game (move 0 of ${total}). End returns to the game.`;
  const review = state.review;
  const entry = at <= covered() ? review.moves[at - 1] : null;
  const mover = entry ? sideName(entry.player) : sideName(state.views[at - 1].to_move);
  const words = entry ? entry.words : `${moveName(state.moves[at - 1])}`;
  return `Move ${at} of ${total}, ${mover}: ${words}. End returns to the game.`;
}

/** The move list, the summary and the stepping buttons, as the game and
 * its review stand. */
export function renderReview() {
  const panel = $("review");
  if (panel.hidden || !state.game) return;
  const list = $("review-moves");
  const done = covered();
  const review = state.review;
  const on = state.at === null ? state.moves.length : state.at;
  list.replaceChildren();
  state.moves.forEach((move, i) => {
    const ply = i + 1;
    const entry = i < done ? review.moves[i] : null;
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "review-move";
    button.dataset.ply = String(ply);
    // "3. x c2: a draw became a loss in 6; a3 kept the draw", the mistakes marked.
    const number = document.createElement("span");
    number.className = "ply";
    number.textContent = `${ply}.`;
    const who = document.createElement("span");
    who.className = "who";
    const mover = entry ? entry.player : (state.views[i] && state.views[i].to_move) || "";
    who.textContent = mover ? sideOf(mover).name : "";
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = entry ? entry.words : move;
    button.append(number, " ", who, " ", words);
    if (entry && entry.mistake) {
      item.classList.add("mistake");
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = "mistake";
      button.append(" ", tag);
    }
    if (ply === on) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => stepTo(ply));
    item.append(button);
    list.append(item);
  });
  if (review && done === state.moves.length && state.reviewed === keyOf(state.moves)) {
    $("review-summary").textContent = sentence(review.summary);
  } else if (review && done && !$("review").hasAttribute("aria-busy")) {
    $("review-summary").textContent = `Reviewed up to move ${done}: press Review again for the moves since.`;
  }
  $("review-first").disabled = on === 0;
  $("review-back").disabled = on === 0;
  $("review-forward").disabled = state.at === null;
  $("review-end").disabled = state.at === null;
}

export function initReview() {
  $("review-open").addEventListener("click", toggleReview);
  $("review-first").addEventListener("click", () => stepTo(0));
  $("review-back").addEventListener("click", () => stepTo((state.at === null ? state.moves.length : state.at) - 1));
  $("review-forward").addEventListener("click", () => stepTo(state.at === null ? null : state.at + 1));
  $("review-end").addEventListener("click", () => stepTo(null));
  // Arrow keys step too, from anywhere in the panel.
  $("review").addEventListener("keydown", (event) => {
    const on = state.at === null ? state.moves.length : state.at;
    const steps = { ArrowLeft: on - 1, ArrowRight: on + 1, Home: 0, End: null };
    if (!(event.key in steps) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    stepTo(steps[event.key]);
    const current = $("review-moves").querySelector('[aria-current="step"]');
    if (current && $("review").contains(document.activeElement)) current.focus();
  });
}
