// The game page: draws what the server describes, sends your moves, shows the
// AI's and explains them. The page holds no rules: every game describes
// itself (GET /api/games), every position comes from the server with its
// side to move, its legal moves and the cell each fills, its status and
// winning line. The server keeps no state, so the page holds the position
// (as the game's notation) and sends it with every request. Native ES
// modules, no build step, nothing loaded from elsewhere:
//
//   api.js      the HTTP API, one function per endpoint
//   state.js    what is on show, and the players as the game names them
//   values.js   a move's value in words, letters and rank
//   board.js    the board, built from the description, drawn from a view
//   play.js     your moves, the AI's, hints, Undo, new games
//   explain.js  why the AI played its move; the hint's line
//   trees.js    the ARIA tree pattern shared by Explore and Learn
//   explore.js  the tree below the position on show
//   review.js   the game looked back on: its moves stepped through, valued
//   learn.js    Learn: minimax and alpha-beta as a course (its lessons and
//               shared parts in learn-*.js; its state in the address's query)
//   tally.js    your record, kept in this browser

import * as api from "./api.js";
import { onBoardKey } from "./board.js";
import { initExplore } from "./explore.js";
import { initLearn, learnAsked, leaveLearn, showLearn } from "./learn.js";
import {
  checkSide, confirmDiscard, fillLegend, hint, newGame, onKey, playNamed, readUrl, render, setUp, switchGame, undo,
} from "./play.js";
import { initReview } from "./review.js";
import { $, setStatus, sideName, state } from "./state.js";
import { resetRecord } from "./tally.js";

function showTab(which) {
  for (const name of ["play", "learn"]) {
    const on = name === which;
    $(`tab-${name}`).setAttribute("aria-selected", String(on));
    $(`tab-${name}`).tabIndex = on ? 0 : -1;
    $(`panel-${name}`).hidden = !on;
  }
  if (which === "learn") showLearn();
  else leaveLearn();
}

function wire() {
  $("tab-play").addEventListener("click", () => showTab("play"));
  $("tab-learn").addEventListener("click", () => showTab("learn"));
  document.querySelector('[role="tablist"]').addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const next = $("tab-play").getAttribute("aria-selected") === "true" ? "learn" : "play";
    showTab(next);
    $(`tab-${next}`).focus();
  });
  $("game").addEventListener("change", (e) => {
    if (!confirmDiscard("Switch games")) {
      e.target.value = state.game.name;
      return;
    }
    switchGame(e.target.value);
  });
  // The radio buttons are the game's sides, rebuilt with each game.
  $("sides").addEventListener("change", (e) => {
    if (e.target.name !== "mark") return;
    if (!confirmDiscard(`Play ${sideName(e.target.value)} instead`)) {
      checkSide(state.you);
      return;
    }
    state.you = e.target.value;
    newGame(false);
  });
  $("play").addEventListener("click", () => confirmDiscard("Start a new game with the AI opening") && newGame(true));
  $("new").addEventListener("click", () => confirmDiscard("Start a new game") && newGame(false));
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("retry").addEventListener("click", () => state.retry && state.retry());
  $("explain").addEventListener("change", render);
  $("level").addEventListener("change", render); // the address says it
  // A move typed by its name ("h8", "4", "a1a2"): on a phone, where a big
  // board's cells are small, and for anyone who would rather type.
  $("coord-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (playNamed($("coord").value)) $("coord").value = "";
  });
  $("reset-tally").addEventListener("click", () => {
    if (!window.confirm(`Reset your record for ${state.game.title}?`)) return;
    resetRecord(state.game.name);
    render();
  });
  // The move list: copy it, or paste (or type) one and set it up.
  $("moves-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-list").value;
    const moves = text.split(/[\s,]+/).filter(Boolean);
    if (!confirmDiscard("Set up this position")) return;
    $("move-list").blur();
    setUp("", moves, text);
  });
  $("copy-moves").addEventListener("click", async () => {
    const field = $("move-list");
    try {
      await navigator.clipboard.writeText(field.value);
      setStatus("Move list copied.");
    } catch (err) {
      field.select(); // the browser refused: selected, for Ctrl+C
      setStatus("Move list selected: copy it with Ctrl+C.");
    }
  });
  $("board").addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", onKey);
  initExplore();
  initReview();
  initLearn();
}

/** Add a game to the list of games (and to the Game choice). */
function addGame(game) {
  state.games.set(game.name, game);
  const option = document.createElement("option");
  option.value = game.name;
  option.textContent = game.title;
  $("game").append(option);
}

/** Show the game the address asks for; false when it asks for none the
 * server plays. A game the list does not offer (another board of a family,
 * as `connect4:5,5`) is asked of the server and joins the list. */
async function openAddress() {
  const asked = readUrl();
  if (!asked) return false;
  if (!state.games.has(asked.game)) {
    let found;
    try {
      found = await api.game(asked.game);
    } catch (err) {
      setStatus(`The address asks for a game this server cannot play: ${err.message}.`);
      return false;
    }
    if (!state.games.has(found.name)) addGame(found);
    asked.game = found.name;
  }
  const game = state.games.get(asked.game);
  if (game.players.includes(asked.side)) state.you = asked.side;
  if ([...$("level").options].some((option) => option.value === asked.level)) $("level").value = asked.level;
  $("explain").checked = asked.explain;
  switchGame(asked.game, asked.moves.length || asked.start ? asked : null);
  return true;
}

async function start() {
  wire();
  fillLegend();
  setStatus("Loading the games…");
  try {
    const { games } = await api.games();
    for (const game of games) addGame(game);
    // The address may hold a game in progress (a reload, a shared link).
    if (!(await openAddress())) switchGame(games[0].name);
    // Or a Learn state (a link copied on the Learn tab).
    if (learnAsked()) showTab("learn");
    // A link followed in this tab changes only the address's hash.
    window.addEventListener("hashchange", () => {
      if (!readUrl()) return;
      if (confirmDiscard("Open the position in the address")) openAddress();
      else render(); // the address shows the game on show again
    });
  } catch (err) {
    setStatus(`Could not load the games: ${err.message}.`, () => location.reload());
  }
}

// Modules run once the document is parsed, so the page is there to wire.
start();
