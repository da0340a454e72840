// Playing a game: your moves, the AI's, hints, Undo and new games. Every
// position comes from the server (with its side to move, legal moves and
// status); the page only shows your move at once in the cell the server said
// it fills, while the server's answer is on its way. Where pieces move (the
// game's description says ``moves_from``), a move is chosen from-then-to: its
// piece (the cell each move's ``origin`` names), then where it goes.

import * as api from "./api.js";
import { buildBoard, landed, pieceKeys, renderBoard } from "./board.js";
import { hintText, renderExplanation } from "./explain.js";
import { closeExplore } from "./explore.js";
import { dropReview, renderReview, reviewOpen, showReview, stepTo } from "./review.js";
import {
  $, cellName, inProgress, key, moveAt, moveName, movesFrom, movesTo, over, piecesMove, resultFor, setBusy,
  setStatus, sideName, state, yourTurn,
} from "./state.js";
import { record, renderTally } from "./tally.js";
import { atLeast, bestOf, crowded, forYou, shortValue, valueWords } from "./values.js";

export function render() {
  if (!state.game || !state.view) return;
  renderBoard();
  // Where pieces move, what a click does now: put one down, or move one.
  if (piecesMove() && state.view.moves.length) $("keys").textContent = pieceKeys(state.view.moves);
  $("undo").disabled = state.busy || state.history.length === 0;
  $("hint").disabled = !yourTurn();
  $("legend").hidden = !state.hints;
  $("legend-guess").hidden = !state.hints || !state.hintGuess;
  $("legend-blank").hidden = !state.hints || !state.hintUnproven;
  const crowd = state.hints ? [...state.hintCrowd].map(([words, n]) => `${n} moves that lose in ${words.replace(/^loss in /, "")}`) : [];
  $("legend-crowd").hidden = !crowd.length;
  $("legend-crowd").textContent = crowd.length ? `Left unmarked: ${crowd.join(", ")}.` : "";
  const marks = state.hints && state.hintMarks;
  $("legend-threats").hidden = !marks || !marks.threats.length;
  $("legend-forbidden").hidden = !marks || !marks.forbidden.length;
  $("hint-text").hidden = !state.hints || !state.hintText;
  $("hint-text").textContent = state.hints ? state.hintText : "";
  renderExplanation();
  renderTally(state.game);
  renderMoves();
  renderReview();
  $("review-open").disabled = state.busy || !state.views.length;
  const legal = state.view.moves;
  if (legal.length) {
    const example = legal[Math.floor(legal.length / 2)].move;
    $("coord-help").textContent = `Type a move as the board names it, such as ${example}.`;
  }
  saveToUrl();
}

/** The move list: the game's record in its own notation, to copy or to edit
 * and set up (left alone while you are typing in it). */
function renderMoves() {
  const field = $("move-list");
  if (document.activeElement !== field) field.value = state.moves.join(" ");
}

/** Everything on show in the address (game, side, level, start, moves,
 * Explain, and the move on show while stepping through the game), so a
 * reload or a shared link opens exactly this: a game in progress resumes, a
 * finished one shows its end, its result and its review. */
function saveToUrl() {
  const params = new URLSearchParams({ game: state.game.name, side: state.you, level: $("level").value });
  if (state.start) params.set("start", state.start);
  if (state.moves.length) params.set("moves", state.moves.join(" "));
  if ($("explain").checked) params.set("explain", "1");
  if (state.at !== null && reviewOpen()) params.set("at", String(state.at));
  const hash = `#${params}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/** What the address asks for: {game, side, level, start, moves, explain,
 * at}, or null. */
export function readUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  const game = params.get("game");
  if (!game) return null;
  const at = params.get("at");
  return {
    game,
    side: params.get("side"),
    level: params.get("level"),
    start: params.get("start") || "",
    moves: (params.get("moves") || "").split(/[\s,]+/).filter(Boolean),
    explain: params.get("explain") === "1",
    at: at !== null && /^\d+$/.test(at) ? Number(at) : null,
  };
}

/** The legend's examples ("W3 win in 3", "D draw", "*"), in the words and
 * letters the board and the sentences use. */
export function fillLegend() {
  for (const example of document.querySelectorAll("[data-example]")) {
    const [result, plies] = example.dataset.example.split(" ");
    const value = { result, plies: plies === undefined ? null : Number(plies) };
    example.textContent = result === "unknown" ? shortValue(value) : `${shortValue(value)} ${valueWords(value)}`;
  }
}

/** Tick the radio button of the side you play. */
export function checkSide(mark) {
  for (const radio of document.querySelectorAll('input[name="mark"]')) radio.checked = radio.value === mark;
}

/** The "You play" choice, one radio button per side of the game on show,
 * and the side Play Game gives you (the second: the AI opens). */
function renderSides() {
  const game = state.game;
  if (!game.players.includes(state.you)) state.you = game.players[0];
  const choice = $("sides");
  for (const old of choice.querySelectorAll("label")) old.remove();
  for (const side of game.sides) {
    const label = document.createElement("label");
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "mark";
    radio.value = side.mark;
    const name = document.createElement("span");
    name.className = "side-name";
    name.textContent = sideName(side.mark);
    label.append(radio, " ", name);
    choice.append(label);
  }
  checkSide(state.you);
  $("play-as").textContent = sideName(game.players[1]);
}

/** The result line, with where the winning line is, as the server's status
 * says; the result counted once in the record. */
function finish() {
  const status = state.view.status;
  const game = state.game;
  const line = status.line || [];
  // "in columns 3, 4, 5 and 6" (short enough for a phone), "on a3, b2, c1";
  // nothing when the game was won with no line of cells (a side left without
  // a move, say).
  const columns = [...new Set(line.map(([, c]) => c))].sort((p, q) => p - q).map((c) => game.column_labels[c]);
  let place = "";
  if (line.length && game.gravity) {
    place = ` in ${columns.length > 1 ? "columns" : "column"} ${columns.join(", ").replace(/, ([^,]*)$/, " and $1")}`;
  } else if (line.length) {
    place = ` on ${line.map(([r, c]) => cellName(r, c)).join(", ")}`;
  }
  // The goal is the game's own words ("three in a row", "reaching the far
  // row"), so the sentence only puts it after the winner's name.
  const result = resultFor(status, state.you);
  if (result === "draw") {
    // A game drawn by a rule of its own says which (status.reason: "40 plies without a mill").
    setStatus(`Draw: ${status.reason || "the game is over with no winner"}.`, null, result);
  } else if (result === "win") {
    setStatus(`You win! ${sideName(status.winner)}: ${status.reason || game.goal}${place}.`, null, result);
  } else {
    setStatus(`The AI wins. ${sideName(status.winner)}: ${status.reason || game.goal}${place}.`, null, result);
  }
  if (state.recorded === null) {
    state.recorded = result;
    record(game.name, result, 1);
  }
  // A finished game is looked back on: the numbered moves, what each did.
  showReview();
}

/** A cell (or, where stones drop, a column: row 0) chosen on the board. */
export function chooseCell(row, col) {
  if (piecesMove()) choosePiece(row, col);
  else humanMove(row, col);
}

/** Your move onto this cell, in games that put stones down. */
function humanMove(row, col) {
  if (!yourTurn()) return;
  const move = moveAt(row, col);
  if (!move) {
    setStatus(`${cellName(row, col)} is ${state.game.gravity ? "full" : "taken"}: choose another move.`);
    return;
  }
  playMove(move);
}

/** The cells' names in a sentence: "a2, b2 or c2". */
const either = (cells) => cells.join(", ").replace(/, ([^,]*)$/, " or $1");

/** A click in a game whose pieces move: from-then-to. A piece of yours that
 * can move is chosen (another one replaces it); a target of the piece chosen
 * plays the move that goes there from that piece, never another move onto
 * the same cell; any other cell lets go of the piece. With no piece chosen,
 * a cell that one move alone reaches plays it. */
function choosePiece(row, col) {
  if (!yourTurn()) return;
  const here = key(row, col);
  const name = cellName(row, col);
  const own = movesFrom(row, col);
  if (state.selected) {
    const [r, c] = state.selected.split(",").map(Number);
    const move = movesFrom(r, c).find((m) => m.row === row && m.col === col);
    if (move) {
      playMove(move);
      return;
    }
    if (state.selected === here) {
      clearSelection(`Let go of ${name}: choose a piece to move.`);
      return;
    }
  }
  if (own.length) {
    state.selected = here;
    state.focus = here;
    const targets = own.map((m) => cellName(m.row, m.col));
    setStatus(`${name} chosen: it can go to ${either(targets)}. Choose where (Escape lets go).`);
    render();
    return;
  }
  if (state.selected) {
    clearSelection(`Let go of the piece: no move of it goes to ${name}.`);
    return;
  }
  const reaching = movesTo(row, col);
  if (reaching.length === 1) {
    playMove(reaching[0]);
  } else if (reaching.length > 1) {
    const from = reaching.map((m) => cellName(...m.origin));
    setStatus(`${reaching.length} pieces can go to ${name} (from ${either(from)}): choose the piece first.`);
  } else if (!state.view.moves.some((m) => m.origin)) {
    // Pieces are only put down yet (a game that places, then moves).
    setStatus(`${name} is taken: choose an empty cell.`);
  } else if (state.view.board[row][col] === state.you) {
    setStatus(`The piece on ${name} cannot move: choose another one.`);
  } else {
    setStatus(`No move of yours goes to ${name}: choose one of your pieces first.`);
  }
}

/** Play the move typed in the Move field ("h8", "4" or "column 4",
 * "a1a2"), as the server's view lists it; true if it was played. */
export function playNamed(text) {
  const name = text.trim().toLowerCase().replace(/^column\s+/, "");
  if (!name) return false;
  if (state.at !== null) {
    setStatus("A past position is on show: End returns to the game, to play on.");
    return false;
  }
  if (!yourTurn()) {
    setStatus(over() ? "The game is over: New Game starts another." : "Wait for your turn.");
    return false;
  }
  const move = state.view.moves.find((m) => m.move.toLowerCase() === name);
  if (!move) {
    const some = state.view.moves.slice(0, 3).map((m) => m.move).join(", ");
    setStatus(`${text.trim()} is no move here: type one as the board names it (${some}, …).`);
    return false;
  }
  playMove(move);
  return true;
}

/** Let go of the piece chosen, saying ``text`` (if given). */
export function clearSelection(text = "") {
  if (!state.selected) return;
  state.selected = null;
  if (text) setStatus(text);
  render();
}

/** Send your move (a legal move of the view on show) and let the AI answer. */
async function playMove(move) {
  if (!yourTurn()) return;
  const token = state.token;
  const before = state.view;
  state.history.push({
    view: before, recorded: state.recorded, last: state.last, lastFrom: state.lastFrom, moves: state.moves.slice(),
    views: state.views.slice(),
  });
  state.moves.push(move.move);
  // Show the move at once, in the cell the server said it fills (and, where
  // pieces move, the cell its piece leaves empty); who moves next (and what
  // they may play) is the server's to say when it answers.
  const board = before.board.map((r) => r.split(""));
  if (move.origin) board[move.origin[0]][move.origin[1]] = ".";
  board[move.row][move.col] = state.you;
  state.view = { ...before, board: board.map((r) => r.join("")), moves: [], to_move: null };
  state.hints = null;
  state.selected = null;
  state.focus = state.game.gravity ? move.col : key(move.row, move.col);
  state.last = key(move.row, move.col);
  state.lastFrom = move.origin ? key(...move.origin) : null;
  closeExplore(); // its tree is below the position before this move
  setBusy(true);
  setStatus(`You played ${moveName(move.move)}; sending it…`);
  render();
  try {
    const view = await api.position(state.game.name, before.position, move.move);
    if (token !== state.token) return;
    state.view = view;
    state.views.push(view);
    setBusy(false);
    if (view.status.over) {
      finish();
      render();
      return;
    }
    aiMove();
  } catch (err) {
    if (token !== state.token) return;
    const entry = state.history.pop();
    state.last = entry.last;
    state.lastFrom = entry.lastFrom;
    state.moves = entry.moves;
    state.views = entry.views;
    state.view = before;
    setBusy(false);
    setStatus(`Your move was not sent: ${err.message}. Try again.`, () => playMove(move), "error");
    render();
  }
}

async function aiMove() {
  const token = state.token;
  const before = state.view;
  const mover = before.to_move;
  const explain = $("explain").checked;
  const level = $("level").value;
  setBusy(true);
  state.hints = null;
  state.selected = null;
  closeExplore();
  setStatus(`The AI (${sideName(mover)}) is thinking…`);
  render();
  try {
    const reply = await api.aiMove(state.game.name, before.position, level, explain);
    if (token !== state.token) return;
    await landed();
    if (token !== state.token) return;
    const cell = before.moves.find((m) => m.move === reply.move.move);
    state.view = reply.view;
    if (cell) state.last = key(cell.row, cell.col);
    state.lastFrom = cell && cell.origin ? key(...cell.origin) : null;
    state.moves.push(reply.move.move);
    state.views.push(reply.view);
    state.explanation = explain && reply.analysis
      ? { analysis: reply.analysis, chosen: reply.move.move, mover, level }
      : null;
    setBusy(false);
    const name = moveName(reply.move.move);
    const unproven = reply.proven === false ? " (a heuristic pick: not proven in time)" : "";
    if (reply.view.status.over) finish();
    else setStatus(`The AI played ${name}${unproven}. Your turn (${sideName(state.you)}).`);
  } catch (err) {
    if (token !== state.token) return;
    setBusy(false);
    setStatus(`The AI could not answer: ${err.message}.`, aiMove, "error");
  }
  render();
}

/** Start the game on show again: from its initial position, as the server
 * gives it. ``aiOpens``: you take the second side, and the AI moves first. */
export async function newGame(aiOpens) {
  if (aiOpens && state.you !== state.game.players[1]) {
    state.you = state.game.players[1];
    checkSide(state.you);
  }
  state.token += 1;
  const token = state.token;
  state.history = [];
  state.hints = null;
  state.explanation = null;
  state.last = null;
  state.lastFrom = null;
  state.selected = null;
  state.recorded = null;
  state.start = "";
  state.moves = [];
  state.views = [];
  dropReview();
  // The old game goes at once: greyed while the server answers.
  closeExplore();
  setBusy(true);
  setStatus("Starting a new game…");
  render();
  try {
    const view = await api.position(state.game.name, "");
    if (token !== state.token) return;
    state.view = view;
    state.views = [view];
    setBusy(false);
    if (view.to_move !== state.you) {
      aiMove();
      return;
    }
    setStatus(`New game: you play ${sideName(state.you)} and move first.`);
  } catch (err) {
    if (token !== state.token) return;
    setBusy(false);
    setStatus(`Could not start a game: ${err.message}.`, () => newGame(aiOpens), "error");
  }
  render();
}

export function undo() {
  if (state.busy || state.history.length === 0) return;
  if (state.at !== null) stepTo(null); // back to the game first
  const entry = state.history.pop();
  if (state.recorded !== null) record(state.game.name, state.recorded, -1); // the finished game is open again
  state.view = entry.view;
  state.recorded = entry.recorded;
  state.hints = null;
  state.explanation = null;
  state.last = entry.last;
  state.lastFrom = entry.lastFrom || null;
  state.selected = null;
  state.moves = entry.moves;
  state.views = entry.views;
  dropReview(); // the game goes on: a review of it is asked for again
  setStatus(`Took back your last move. Your turn (${sideName(state.you)}).`);
  closeExplore();
  render();
}

export async function hint() {
  if (!yourTurn()) return;
  const token = state.token;
  const view = state.view;
  setBusy(true);
  setStatus("Working out every move's value…");
  render();
  try {
    const analysis = await api.analyze(state.game.name, view.position);
    if (token !== state.token || view !== state.view) return;
    const best = bestOf(analysis);
    // Only proven values go on the board, and the engine's pick: a board of
    // question marks says nothing; nor does a board of L2 (a loss most moves
    // share is counted in the legend instead).
    const crowd = crowded(analysis);
    state.hints = new Map();
    for (const value of analysis.moves) {
      if (value.result === "unknown" && value !== best) continue;
      if (value !== best && crowd.has(valueWords(value))) continue;
      if (view.moves.some((m) => m.move === value.move)) state.hints.set(value.move, value);
    }
    state.hintCrowd = new Map([...crowd].map(([words, n]) => [words, n - (best && valueWords(best) === words ? 1 : 0)]));
    // The threats on the board and renju's forbidden points, as the rules
    // name them (k in a row), marked while the hint shows.
    state.hintMarks = analysis.explanation || null;
    state.hintGuess = Boolean(best && best.result === "unknown");
    state.hintUnproven = analysis.moves.some((m) => m.result === "unknown");
    setBusy(false);
    const value = forYou(analysis);
    // Not exact: only a lower bound, as a move not valued in time may do better.
    const bound = analysis.exact === false ? atLeast(analysis) : null;
    if (!value) setStatus("Hint: no value proven within the time limit.");
    else if (bound) setStatus(`Hint: ${bound}; other moves were not valued in time.`);
    else setStatus(`Hint: with perfect play ${value}.`);
    state.hintText = hintText(analysis, state.you);
  } catch (err) {
    if (token !== state.token) return;
    setBusy(false);
    setStatus(`No hint: ${err.message}.`, hint, "error");
  }
  render();
}

/** Whether to go on with ``what`` (a new game), asking first if a game is under way. */
export function confirmDiscard(what) {
  if (!inProgress()) return true;
  return window.confirm(`${what}? The game in progress will be discarded.`);
}

/** Show another game: its board, its sides, and a new game on it (or, with
 * ``setup``, the position it asks for: see ``setUp``). */
export function switchGame(name, setup = null) {
  const game = state.games.get(name);
  if (!game) return;
  state.game = game;
  state.view = null; // the old game's position: nothing to draw on the new board
  state.views = [];
  state.selected = null;
  dropReview();
  $("game").value = name;
  buildBoard(chooseCell);
  renderSides();
  if (setup) setUp(setup.start, setup.moves, "", setup.at);
  else newGame(false);
}

/** Play ``moves`` from ``start`` ("" for the game's initial position), each
 * through the server, and go on from there: the position of a reloaded page,
 * a shared link or a pasted move list. ``text``, the list as pasted: when
 * its first word is no move, the whole of it is tried as a position in the
 * game's notation. Undo goes back through your moves. ``at``: the move to
 * show once it is set up, stepping through the game (a shared link's). */
export async function setUp(start, moves, text = "", at = null) {
  state.token += 1;
  const token = state.token;
  state.hints = null;
  state.explanation = null;
  state.selected = null;
  dropReview();
  closeExplore();
  setBusy(true);
  setStatus("Setting up the position…");
  render();
  const game = state.game.name;
  try {
    let view;
    let from = start;
    try {
      view = await api.position(game, start);
    } catch (err) {
      throw new api.RequestError(`the start is no position: ${err.message}`);
    }
    const history = [];
    const done = [];
    let views = [view];
    let last = null;
    let lastFrom = null;
    for (const [i, move] of moves.entries()) {
      const cell = view.moves.find((m) => m.move === move);
      if (!cell && i === 0 && text) {
        // Not a move here: a position in the game's notation, perhaps.
        try {
          view = await api.position(game, text.trim());
        } catch (err) {
          throw new api.RequestError(`${move} is no move here, and the text is no position (${err.message})`);
        }
        from = view.position;
        views = [view];
        break;
      }
      if (view.to_move === state.you) {
        history.push({ view, recorded: null, last, lastFrom, moves: done.slice(), views: views.slice() });
      }
      try {
        view = await api.position(game, view.position, move);
      } catch (err) {
        throw new api.RequestError(`move ${i + 1} (${move}): ${err.message}`);
      }
      done.push(move);
      views.push(view);
      last = cell ? key(cell.row, cell.col) : null;
      lastFrom = cell && cell.origin ? key(...cell.origin) : null;
    }
    if (token !== state.token) return;
    state.start = from;
    state.view = view;
    state.history = history;
    state.moves = done;
    state.views = views;
    state.last = last;
    state.lastFrom = lastFrom;
    state.recorded = null;
    setBusy(false);
    if (view.status.over) {
      // Counted when it was played (a reload) or never (a set-up): not now.
      state.recorded = resultFor(view.status, state.you);
      finish();
    } else if (view.to_move !== state.you) {
      aiMove();
      return;
    } else {
      setStatus(`Position set up after ${done.length} ${done.length === 1 ? "move" : "moves"}. Your turn (${sideName(state.you)}).`);
    }
    if (at !== null && at < done.length) {
      // A link shared while stepping through the game: that move on show.
      render();
      showReview();
      stepTo(at);
    }
  } catch (err) {
    if (token !== state.token) return;
    setBusy(false);
    if (!state.view) await newGame(false);
    setStatus(`Could not set up the position: ${err.message}.`, null, "error");
  }
  render();
}

/** The game's keyboard shortcuts (its description lists them), anywhere on the Play view. */
export function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !state.game) return;
  if ($("panel-play").hidden) return;
  const tag = event.target && event.target.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || tag === "INPUT") return;
  if (event.target && event.target.closest && event.target.closest('[role="tree"]')) return;
  if (event.key === "Escape" && state.selected) {
    event.preventDefault();
    clearSelection("Let go of the piece: choose one to move.");
    return;
  }
  const shortcut = state.game.keys.find((k) => k.key === event.key);
  if (!shortcut) return;
  const move = state.view && state.view.moves.find((m) => m.move === shortcut.move);
  event.preventDefault();
  if (move) playMove(move);
  else if (yourTurn()) setStatus(`${shortcut.move} cannot be played now.`);
}
