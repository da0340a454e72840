// The game page: draws what the server describes, sends your moves, shows the
// AI's and explains them. The page holds no rules: every game describes
// itself (GET /api/games), every position comes from the server with its
// legal moves and the cell each fills, its status and winning line. The
// server keeps no state, so the page holds the position (as the game's
// notation) and sends it with every request. Plain JavaScript, no build step,
// nothing loaded from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);

// -- talking to the server ----------------------------------------------------

/** A failed request, with the server's own message when it sent one. */
class RequestError extends Error {}

async function call(path, body) {
  let response;
  try {
    response = await fetch(path, body === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new RequestError("the server cannot be reached");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const why = (data && data.error) || `the server answered ${response.status}`;
    throw new RequestError(response.status === 503 ? `${why} (the server is busy)` : why);
  }
  return data;
}

// -- words --------------------------------------------------------------------

/** "win in 3" / "draw" / "loss in 2" / "not proven". */
function valueWords(value) {
  if ((value.result === "win" || value.result === "loss") && value.plies != null) {
    return `${value.result} in ${value.plies}`;
  }
  return value.result === "unknown" ? "not proven" : value.result;
}

/** The engine's pick among moves whose value is not proven, on the board. */
const GUESS = "*";

/** "W3" / "D" / "L2" / "*" (the engine's pick, not proven): fits a cell. */
function shortValue(value) {
  if (value.result === "draw") return "D";
  if (value.result === "unknown" || value.plies == null) return GUESS;
  return `${value.result === "win" ? "W" : "L"}${value.plies}`;
}

function sameValue(a, b) {
  return a.result === b.result && a.plies === b.plies && a.result !== "unknown";
}

/** Higher is better for the mover, as the library ranks moves: the fastest
 * win, a draw, a move not proven, the slowest loss. */
function rankOf(value) {
  if (value.result === "win") return 3000 - value.plies;
  if (value.result === "draw") return 2000;
  if (value.result === "loss") return value.plies || 0;
  return 1000;
}

/** Lists of moves longer than this (big boards) show the best few only. */
const MANY_MOVES = 16;
const FEW_SHOWN = 10;

/** The moves of an analysis to list: all of them in board order, or on big
 * boards the best few proven ones by value and the engine's pick (and
 * ``keep``, the move played), with the others counted by value:
 * "212 more moves: 212 not proven". */
function movesToList(analysis, keep = null) {
  const moves = analysis.moves;
  if (moves.length <= MANY_MOVES) return { shown: moves, rest: "" };
  const pick = analysis.best ? analysis.best.move : null;
  const order = moves.map((m, i) => ({ m, i }));
  order.sort((a, b) => rankOf(b.m) - rankOf(a.m) || (b.m.move === pick) - (a.m.move === pick) || a.i - b.i);
  const listed = (m) => m.result !== "unknown" || m.move === pick || m.move === keep;
  const shown = order.map((o) => o.m).filter(listed).slice(0, FEW_SHOWN);
  const extra = keep && !shown.some((m) => m.move === keep) ? moves.find((m) => m.move === keep) : null;
  if (extra) shown.push(extra);
  const counts = new Map();
  for (const m of moves) {
    if (shown.includes(m)) continue;
    const words = valueWords(m);
    counts.set(words, (counts.get(words) || 0) + 1);
  }
  const rest = [...counts].sort((a, b) => b[1] - a[1]).map(([words, n]) => `${n} ${words}`).join(", ");
  return { shown, rest: `${moves.length - shown.length} more moves: ${rest}` };
}

/** A line of moves, cut short on big boards: "h8 i9 j10 …". */
function lineText(line, most = 9) {
  return line.slice(0, most).join(" ") + (line.length > most ? " …" : "");
}

function sideOf(mark) {
  const game = state.game;
  return (game && game.sides.find((side) => side.mark === mark)) || { mark, name: mark, colour: "" };
}

/** "X" or "Yellow (o)": how the game calls a player. */
function sideName(mark) {
  const side = sideOf(mark);
  return side.name.toLowerCase() === mark ? side.name : `${side.name} (${mark})`;
}

function other(mark) {
  const [first, second] = state.game.players;
  return mark === first ? second : first;
}

/** What best play after ``value.move`` looks like: "X answers a1 and wins in 2 more". */
function continuation(value, mover) {
  const line = value.line || [];
  const opponent = sideName(other(mover));
  if (value.result === "unknown") return "not proven within the time limit";
  if (value.result === "win" && value.plies === 1) return "wins at once";
  if (value.threat && value.result === "win") {
    return `${sideName(mover)} wins by ${value.threat} in ${value.plies}: ${lineText(line)}`;
  }
  if (value.threat && value.result === "loss") {
    return `${opponent} answers ${line[1]} and wins by ${value.threat} in ${value.plies - 1}: ${lineText(line.slice(1))}`;
  }
  if (value.result === "draw" && value.plies === 1) return "ends the game in a draw";
  if (line.length < 2) return "best play is not proven move by move yet";
  const after = value.plies - 2;
  const later = after > 0 ? ` in ${after} more` : "";
  const answer = `${opponent} answers ${line[1]}`;
  if (value.result === "loss") return `${answer} and wins${later}`;
  if (value.result === "win") return `${answer}, and ${sideName(mover)} still wins${later}`;
  return `${answer}, and best play ends in a draw`;
}

/** "c2 (loss in 2): X answers a1 and wins." */
function lineSentence(value, mover, best = false) {
  if (value.result === "unknown") return `${value.move}: its value was not proven within the time limit.`;
  return `${value.move} (${valueWords(value)}${best ? ", best" : ""}): ${continuation(value, mover)}.`;
}

// -- the running record, kept in this browser ---------------------------------

const TALLY_KEY = "unbeatable.tally.v1";

function loadTally() {
  try {
    const data = JSON.parse(localStorage.getItem(TALLY_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch (err) {
    return {};
  }
}

function saveTally() {
  try {
    localStorage.setItem(TALLY_KEY, JSON.stringify(state.tally));
  } catch (err) {
    // Storage may be full or disabled: the record then lasts for this page only.
  }
}

function tallyFor(name) {
  const entry = state.tally[name] || {};
  return { win: Number(entry.win ?? entry.wins) || 0, draw: Number(entry.draw ?? entry.draws) || 0,
    loss: Number(entry.loss ?? entry.losses) || 0 };
}

function count(result, delta) {
  const entry = tallyFor(state.game.name);
  entry[result] = Math.max(0, entry[result] + delta);
  state.tally[state.game.name] = entry;
  saveTally();
}

// -- page state -----------------------------------------------------------------

const state = {
  /** name -> the game's own description, from /api/games. */
  games: new Map(),
  game: null,
  you: "x",
  /** The position on show: the server's view of it. */
  view: null,
  /** Views (and what was recorded) before each of your moves: Undo goes back. */
  history: [],
  busy: false,
  /** Bumped by every new game, so answers for an abandoned game are dropped. */
  token: 0,
  /** "row,col" -> value, while a hint is shown. */
  hints: null,
  hintText: "",
  /** Whether the hint on show marks a best guess, and leaves moves blank. */
  hintGuess: false,
  hintUnproven: false,
  explanation: null,
  /** The cell that changed last (animated), "row,col". */
  last: null,
  /** The result counted in the record for the game on show, if finished. */
  recorded: null,
  /** What to do when Retry is pressed. */
  retry: null,
  tally: loadTally(),
  /** Keyboard focus within the board: a "row,col" cell or a column number. */
  focus: null,
};

const key = (row, col) => `${row},${col}`;

function over() {
  return Boolean(state.view && state.view.status.over);
}

function yourTurn() {
  return Boolean(state.view) && !state.busy && !over() && state.view.to_move === state.you;
}

function inProgress() {
  return state.history.length > 0 && !over();
}

function setStatus(text, retry = null) {
  $("status").textContent = text;
  state.retry = retry;
  $("retry").hidden = retry === null;
}

function setBusy(busy) {
  state.busy = busy;
  $("board").setAttribute("aria-busy", String(busy));
}

/** The legal move that plays at this board target, if any. */
function moveAt(row, col) {
  if (!state.view) return null;
  if (state.game.gravity) return state.view.moves.find((m) => m.col === col) || null;
  return state.view.moves.find((m) => m.row === row && m.col === col) || null;
}

function cellName(row, col) {
  const { column_labels: columns, row_labels: rows } = state.game;
  return rows.length ? `${columns[col]}${rows[row]}` : `column ${columns[col]}`;
}

// -- drawing the board -----------------------------------------------------------

/** Boards with a side this long or longer (Gomoku's 15x15) are drawn small:
 * thin grid lines, coordinates on the edges, every cell still in view. */
const BIG_SIDE = 10;

function buildBoard() {
  const game = state.game;
  const board = $("board");
  board.replaceChildren();
  // Big boards (Gomoku) put the coordinates on the edges, not in every cell.
  const big = Math.max(game.rows, game.columns) >= BIG_SIDE;
  board.dataset.gravity = String(game.gravity);
  board.dataset.big = String(big);
  $("panel-play").dataset.big = String(big);
  board.style.setProperty("--rows", game.rows);
  board.style.setProperty("--cols", game.columns);
  for (const side of game.sides) board.style.setProperty(`--mark-${side.mark}`, side.colour);
  if (game.gravity) {
    for (let c = 0; c < game.columns; c++) {
      const column = document.createElement("button");
      column.type = "button";
      column.className = "column";
      column.dataset.col = String(c);
      column.tabIndex = -1;
      const label = document.createElement("span");
      label.className = "label";
      label.setAttribute("aria-hidden", "true");
      label.textContent = game.column_labels[c];
      column.append(label);
      for (let r = 0; r < game.rows; r++) {
        const slot = document.createElement("span");
        slot.className = "slot";
        slot.dataset.row = String(r);
        slot.setAttribute("aria-hidden", "true");
        const disc = document.createElement("span");
        disc.className = "disc";
        const value = document.createElement("span");
        value.className = "value";
        slot.append(disc, value);
        column.append(slot);
      }
      column.addEventListener("click", () => humanMove(0, c));
      board.append(column);
    }
  } else {
    const axis = (text, kind) => {
      const label = document.createElement("span");
      label.className = `axis ${kind}`;
      label.setAttribute("aria-hidden", "true");
      label.textContent = text;
      board.append(label);
    };
    if (big) {
      axis("", "corner");
      for (const label of game.column_labels) axis(label, "col");
    }
    for (let r = 0; r < game.rows; r++) {
      if (big) axis(game.row_labels[r], "row");
      for (let c = 0; c < game.columns; c++) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell";
        cell.dataset.row = String(r);
        cell.dataset.col = String(c);
        cell.tabIndex = -1;
        cell.innerHTML = '<span class="mark" aria-hidden="true"></span>'
          + '<span class="coord" aria-hidden="true"></span>'
          + '<span class="value" aria-hidden="true"></span>';
        cell.querySelector(".coord").textContent = cellName(r, c);
        cell.addEventListener("click", () => humanMove(r, c));
        board.append(cell);
      }
    }
  }
  state.focus = game.gravity ? Math.floor(game.columns / 2) : key(Math.floor(game.rows / 2), Math.floor(game.columns / 2));
  const keys = game.keys.length
    ? `Keys ${game.keys[0].key}–${game.keys[game.keys.length - 1].key} play ${game.gravity ? "the columns" : "the cells in reading order"}; arrow keys move around the board.`
    : "Arrow keys move around the board; Enter or Space plays.";
  $("keys").textContent = keys;
}

/** A hint in words, for screen readers: "win in 3", "best guess, not proven". */
function hintWords(value) {
  return value.result === "unknown" ? "best guess, not proven" : valueWords(value);
}

function render() {
  const game = state.game;
  const view = state.view;
  const board = $("board");
  if (!game || !view) return;
  const line = new Set((view.status.line || []).map(([r, c]) => key(r, c)));
  board.dataset.position = view.position;
  board.classList.toggle("over", view.status.over);
  board.classList.toggle("draw", view.status.over && !view.status.winner);
  board.classList.toggle("waiting", !yourTurn());
  const hint = (r, c) => (state.hints ? state.hints.get(key(r, c)) : undefined);
  if (game.gravity) {
    for (const column of board.querySelectorAll(".column")) {
      const c = Number(column.dataset.col);
      const marks = [];
      let hinted = null;
      let lastHere = "";
      for (const slot of column.querySelectorAll(".slot")) {
        const r = Number(slot.dataset.row);
        const mark = view.board[r][c] === "." ? "" : view.board[r][c];
        const disc = slot.firstChild;
        disc.dataset.mark = mark;
        slot.classList.toggle("win", line.has(key(r, c)));
        slot.classList.toggle("last", state.last === key(r, c) && mark !== "");
        if (state.last === key(r, c) && mark !== "") lastHere = mark;
        const dropping = state.last === key(r, c) && mark !== "";
        disc.classList.toggle("drop", dropping);
        if (dropping) disc.style.setProperty("--fall", String(r + 1));
        if (mark) marks.unshift(mark);
        const value = hint(r, c);
        slot.querySelector(".value").textContent = value ? shortValue(value) : "";
        slot.dataset.value = value ? (value.result === "unknown" ? "guess" : value.result) : "";
        if (value) hinted = value;
      }
      const full = !view.moves.some((m) => m.col === c);
      let name = `column ${game.column_labels[c]}: ${marks.length ? marks.join(" ") : "empty"}`;
      if (full && marks.length) name += ", full";
      if ([...line].some((k) => k.endsWith(`,${c}`))) name += ", part of the winning line";
      if (lastHere) name += `, last move ${lastHere}`;
      if (hinted) name += `, hint: ${hintWords(hinted)}`;
      column.setAttribute("aria-label", name);
      column.setAttribute("aria-disabled", String(full || !yourTurn()));
      column.tabIndex = state.focus === c ? 0 : -1;
    }
  } else {
    for (const cell of board.querySelectorAll(".cell")) {
      const r = Number(cell.dataset.row);
      const c = Number(cell.dataset.col);
      const mark = view.board[r][c] === "." ? "" : view.board[r][c];
      const value = hint(r, c);
      cell.querySelector(".mark").textContent = mark;
      cell.dataset.mark = mark;
      cell.classList.toggle("win", line.has(key(r, c)));
      cell.classList.toggle("last", state.last === key(r, c) && mark !== "");
      cell.querySelector(".value").textContent = value ? shortValue(value) : "";
      cell.dataset.value = value ? (value.result === "unknown" ? "guess" : value.result) : "";
      let name = `${cellName(r, c)} ${mark || "empty"}`;
      if (mark) name += ", taken";
      if (line.has(key(r, c))) name += ", winning line";
      if (state.last === key(r, c) && mark) name += ", last move";
      if (value) name += `, hint: ${hintWords(value)}`;
      cell.setAttribute("aria-label", name);
      cell.setAttribute("aria-disabled", String(!moveAt(r, c) || !yourTurn()));
      cell.tabIndex = state.focus === key(r, c) ? 0 : -1;
    }
  }
  $("undo").disabled = state.busy || state.history.length === 0;
  $("hint").disabled = !yourTurn();
  $("legend").hidden = !state.hints;
  $("legend-guess").hidden = !state.hints || !state.hintGuess;
  $("legend-blank").hidden = !state.hints || !state.hintUnproven;
  $("hint-text").hidden = !state.hints || !state.hintText;
  $("hint-text").textContent = state.hints ? state.hintText : "";
  renderExplanation();
  renderTally();
}

function renderExplanation() {
  const panel = $("explanation");
  const info = state.explanation;
  panel.hidden = !$("explain").checked || !info;
  if (panel.hidden) return;
  const { analysis, chosen, mover, level } = info;
  const best = analysis.moves.find((m) => analysis.best && m.move === analysis.best.move);
  const played = analysis.moves.find((m) => m.move === chosen);
  const list = $("considered");
  list.replaceChildren();
  const { shown, rest } = movesToList(analysis, chosen);
  for (const value of shown) {
    const item = document.createElement("li");
    item.className = `v-${value.result}`;
    item.dataset.move = value.move;
    const top = best && sameValue(value, best);
    item.textContent = lineSentence(value, mover, top);
    if (value.move === chosen) {
      item.classList.add("chosen");
      item.prepend("▶ ");
    }
    list.append(item);
  }
  if (rest) {
    const more = document.createElement("li");
    more.className = "more";
    more.textContent = `${rest}.`;
    list.append(more);
  }
  const name = state.game.gravity ? `column ${chosen}` : chosen;
  $("explain-title").textContent = `Why the AI played ${name}`;
  let summary = rest
    ? `The AI's (${sideName(mover)}) best moves by value, each with its value for the AI under perfect play from both sides; the other moves are counted below.`
    : `Every move the AI (${sideName(mover)}) could play, with its value for the AI under perfect play from both sides.`;
  const mistakes = `at the ${level} level the AI makes mistakes on purpose`;
  if (best && played) {
    const equals = analysis.moves.filter((m) => sameValue(m, best)).map((m) => m.move);
    if (best.result === "unknown" && played.move === best.move) {
      summary += ` No move was proven to win or draw within the time limit: ${chosen} is the engine's best guess.`;
    } else if (best.result === "unknown") {
      summary += ` No move was proven to win or draw within the time limit; the engine's best guess was ${best.move}, and ${mistakes}.`;
    } else if (sameValue(played, best)) {
      summary += equals.length > 1
        ? ` ${chosen} is one of ${equals.length} equally good moves (${listed(equals)}: ${valueWords(best)}).`
        : ` It played the best move: ${valueWords(best)}.`;
    } else if (played.result === "unknown") {
      summary += ` ${chosen} was not valued in time; ${listed(equals)} ${equals.length > 1 ? "are" : "is"} proven: ${valueWords(best)}.`;
    } else {
      summary += ` ${listed(equals)} ${equals.length > 1 ? "were" : "was"} better (${valueWords(best)}); ${mistakes}.`;
    }
  }
  if (analysis.exact === false) summary += " Some values could not be proven within the time limit.";
  $("explain-summary").textContent = summary;
}

/** "a1, b2, c3", or "a1, b2, c3 and 212 others". */
function listed(moves, most = 6) {
  if (moves.length <= most) return moves.join(", ");
  return `${moves.slice(0, most - 1).join(", ")} and ${moves.length - most + 1} others`;
}

function renderTally() {
  const entry = tallyFor(state.game.name);
  $("wins").textContent = String(entry.win);
  $("draws").textContent = String(entry.draw);
  $("losses").textContent = String(entry.loss);
  $("tally-game").textContent = `(${state.game.title})`;
}

function renderSides() {
  for (const span of document.querySelectorAll(".side-name")) {
    span.textContent = sideName(span.dataset.mark);
  }
  $("play-as").textContent = sideName(state.game.players[1]);
}

// -- playing ---------------------------------------------------------------------

/** The result line, with where the winning line is. */
function finish() {
  const status = state.view.status;
  const game = state.game;
  const where = (status.line || []).map(([r, c]) => cellName(r, c));
  const place = game.gravity
    ? ` in ${[...new Set(where)].join(", ")}`.replace(/, ([^,]*)$/, " and $1")
    : ` on ${where.join(", ")}`;
  let result;
  if (!status.winner) {
    result = "draw";
    setStatus(`Draw: the game is over and nobody has ${game.goal}.`);
  } else if (status.winner === state.you) {
    result = "win";
    setStatus(`You win! ${sideName(status.winner)} has ${game.goal}${place}.`);
  } else {
    result = "loss";
    setStatus(`The AI wins: ${sideName(status.winner)} has ${game.goal}${place}.`);
  }
  if (state.recorded === null) {
    state.recorded = result;
    count(result, 1);
  }
}

/** Resolves when the disc now falling (if any) has landed, so the next one
 * starts after it: the animations' own end (finished, or cancelled when the
 * board is rebuilt), so no duration here has to match style.css. With
 * reduced motion nothing runs and it resolves at once. */
function landed() {
  const falling = [...$("board").querySelectorAll(".disc.drop")];
  const running = falling.flatMap((disc) => disc.getAnimations());
  return Promise.all(running.map((animation) => animation.finished.catch(() => null)));
}

async function humanMove(row, col) {
  if (!yourTurn()) return;
  const move = moveAt(row, col);
  if (!move) {
    setStatus(`${cellName(row, col)} is ${state.game.gravity ? "full" : "taken"}: choose another move.`);
    return;
  }
  const token = state.token;
  const before = state.view;
  state.history.push({ view: before, recorded: state.recorded, last: state.last });
  // Show the move at once, in the cell the server said it fills; who moves
  // next (and what they may play) is the server's to say when it answers.
  const board = before.board.map((r) => r.split(""));
  board[move.row][move.col] = state.you;
  state.view = { ...before, board: board.map((r) => r.join("")), moves: [], to_move: null };
  state.hints = null;
  state.focus = state.game.gravity ? move.col : key(move.row, move.col);
  state.last = key(move.row, move.col);
  setBusy(true);
  render();
  try {
    const view = await call("/api/position", { game: state.game.name, position: before.position, move: move.move });
    if (token !== state.token) return;
    state.view = view;
    setBusy(false);
    if (view.status.over) {
      finish();
      render();
      return;
    }
    aiMove();
  } catch (err) {
    if (token !== state.token) return;
    state.last = state.history.pop().last;
    state.view = before;
    setBusy(false);
    setStatus(`Your move was not sent: ${err.message}. Try again.`, () => humanMove(row, col));
    render();
  }
}

async function aiMove() {
  const token = state.token;
  const before = state.view;
  const mover = before.to_move;
  const explain = $("explain").checked;
  setBusy(true);
  state.hints = null;
  setStatus(`The AI (${sideName(mover)}) is thinking…`);
  render();
  const body = { game: state.game.name, position: before.position, level: $("level").value };
  if (explain) body.explain = true;
  try {
    const reply = await call("/api/move", body);
    if (token !== state.token) return;
    await landed();
    if (token !== state.token) return;
    const cell = before.moves.find((m) => m.move === reply.move.move);
    state.view = reply.view;
    if (cell) state.last = key(cell.row, cell.col);
    state.explanation = explain && reply.analysis
      ? { analysis: reply.analysis, chosen: reply.move.move, mover, level: body.level }
      : null;
    setBusy(false);
    const name = state.game.gravity ? `column ${reply.move.move}` : reply.move.move;
    const unproven = reply.proven === false ? " (a heuristic pick: not proven in time)" : "";
    if (reply.view.status.over) finish();
    else setStatus(`The AI played ${name}${unproven}. Your turn (${sideName(state.you)}).`);
  } catch (err) {
    if (token !== state.token) return;
    setBusy(false);
    setStatus(`The AI could not answer: ${err.message}.`, aiMove);
  }
  render();
}

/** Start the game on show again: from its initial position, as the server gives it. */
async function newGame(aiOpens) {
  if (aiOpens && state.you !== state.game.players[1]) {
    state.you = state.game.players[1];
    document.querySelector(`input[name="mark"][value="${state.you}"]`).checked = true;
  }
  state.token += 1;
  const token = state.token;
  state.history = [];
  state.hints = null;
  state.explanation = null;
  state.last = null;
  state.recorded = null;
  setBusy(true);
  try {
    const view = await call("/api/position", { game: state.game.name, position: "" });
    if (token !== state.token) return;
    state.view = view;
    setBusy(false);
    closeExplore();
    if (view.to_move !== state.you) {
      aiMove();
      return;
    }
    setStatus(`New game: you play ${sideName(state.you)} and move first.`);
  } catch (err) {
    if (token !== state.token) return;
    setBusy(false);
    setStatus(`Could not start a game: ${err.message}.`, () => newGame(aiOpens));
  }
  render();
}

function undo() {
  if (state.busy || state.history.length === 0) return;
  const entry = state.history.pop();
  if (state.recorded !== null) count(state.recorded, -1); // the finished game is open again
  state.view = entry.view;
  state.recorded = entry.recorded;
  state.hints = null;
  state.explanation = null;
  state.last = entry.last;
  setStatus(`Took back your last move. Your turn (${sideName(state.you)}).`);
  closeExplore();
  render();
}

async function hint() {
  if (!yourTurn()) return;
  const token = state.token;
  const view = state.view;
  setBusy(true);
  setStatus("Working out every move's value…");
  render();
  try {
    const analysis = await call("/api/analyze", { game: state.game.name, position: view.position });
    if (token !== state.token || view !== state.view) return;
    const best = analysis.moves.find((m) => analysis.best && m.move === analysis.best.move);
    // Only proven values go on the board, and the engine's pick: a board of
    // question marks says nothing.
    state.hints = new Map();
    for (const value of analysis.moves) {
      if (value.result === "unknown" && value !== best) continue;
      const cell = view.moves.find((m) => m.move === value.move);
      if (cell) state.hints.set(key(cell.row, cell.col), value);
    }
    state.hintGuess = Boolean(best && best.result === "unknown");
    state.hintUnproven = analysis.moves.some((m) => m.result === "unknown");
    setBusy(false);
    const you = { win: "you win", loss: "you lose", draw: "it is a draw" }[analysis.result];
    const plies = analysis.plies != null && analysis.result !== "draw" ? ` in ${analysis.plies}` : "";
    if (!you) {
      setStatus("Hint: no value proven within the time limit.");
    } else if (analysis.exact === false && analysis.result !== "loss") {
      // Only a lower bound: a move not valued in time may do better.
      setStatus(`Hint: ${analysis.result === "win" ? "you can win" : "you can at least draw"}; other moves were not valued in time.`);
    } else {
      setStatus(`Hint: with perfect play ${you}${plies}.`);
    }
    let text = "";
    if (best && best.result === "unknown") {
      const losing = analysis.moves.filter((m) => m.result === "loss").length;
      text = `Best guess: ${best.move} (${GUESS} on the board), not proven.`;
      if (losing === analysis.moves.length - 1) text += " Every other move is proven to lose.";
      else if (losing) text += ` ${losing} ${losing === 1 ? "move is" : "moves are"} proven to lose.`;
    } else if (best) {
      const equals = analysis.moves.filter((m) => sameValue(m, best));
      text = equals.length > 1
        ? `Equally good: ${listed(equals.map((m) => m.move))}. For example, ${lineSentence(best, state.you)}`
        : `Best: ${lineSentence(best, state.you)}`;
    }
    state.hintText = text;
  } catch (err) {
    if (token !== state.token) return;
    setBusy(false);
    setStatus(`No hint: ${err.message}.`, hint);
  }
  render();
}

function confirmDiscard(what) {
  if (!inProgress()) return true;
  return window.confirm(`${what}? The game in progress will be discarded.`);
}

function switchGame(name) {
  const game = state.games.get(name);
  if (!game) return;
  state.game = game;
  buildBoard();
  renderSides();
  newGame(false);
}

// -- keyboard on the board ----------------------------------------------------------

function focusTarget() {
  const board = $("board");
  if (state.game.gravity) return board.querySelector(`.column[data-col="${state.focus}"]`);
  const [r, c] = String(state.focus).split(",");
  return board.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);
}

function moveFocus(dr, dc) {
  const game = state.game;
  if (game.gravity) {
    state.focus = Math.min(game.columns - 1, Math.max(0, state.focus + dc));
  } else {
    const [r, c] = String(state.focus).split(",").map(Number);
    state.focus = key(Math.min(game.rows - 1, Math.max(0, r + dr)), Math.min(game.columns - 1, Math.max(0, c + dc)));
  }
  render();
  const target = focusTarget();
  if (target) target.focus();
}

function onBoardKey(event) {
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (moves[event.key]) {
    event.preventDefault();
    moveFocus(...moves[event.key]);
  }
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !state.game) return;
  if ($("panel-play").hidden) return;
  const tag = event.target && event.target.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || tag === "INPUT") return;
  if (event.target && event.target.closest && event.target.closest('[role="tree"]')) return;
  const shortcut = state.game.keys.find((k) => k.key === event.key);
  if (!shortcut) return;
  const move = state.view && state.view.moves.find((m) => m.move === shortcut.move);
  event.preventDefault();
  if (move) humanMove(move.row, move.col);
  else if (yourTurn()) setStatus(`${shortcut.move} cannot be played now.`);
}

// -- trees: the ARIA tree pattern, shared by Explore and Learn ---------------------

/** Arrow keys, Home/End, Enter/Space over a role=tree with a roving tabindex. */
function treeKeys(tree, toggle) {
  tree.addEventListener("keydown", (event) => {
    const items = [...tree.querySelectorAll('[role="treeitem"]')].filter((item) => item.offsetParent !== null);
    const current = event.target.closest('[role="treeitem"]');
    const at = items.indexOf(current);
    if (at < 0) return;
    const go = (item) => {
      if (!item) return;
      for (const other of items) other.tabIndex = -1;
      item.tabIndex = 0;
      item.focus();
    };
    const expanded = current.getAttribute("aria-expanded");
    switch (event.key) {
      case "ArrowDown": go(items[at + 1]); break;
      case "ArrowUp": go(items[at - 1]); break;
      case "Home": go(items[0]); break;
      case "End": go(items[items.length - 1]); break;
      case "ArrowRight":
        if (expanded === "false") toggle(current);
        else if (expanded === "true") go(current.querySelector('[role="treeitem"]'));
        break;
      case "ArrowLeft":
        if (expanded === "true") toggle(current);
        else go(current.parentElement.closest('[role="treeitem"]'));
        break;
      case "Enter":
      case " ":
        if (expanded !== null) toggle(current);
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}

function treeItem(name, label) {
  const item = document.createElement("li");
  item.setAttribute("role", "treeitem");
  item.tabIndex = -1;
  item.setAttribute("aria-label", name);
  const row = document.createElement("span");
  row.className = "node";
  row.append(label);
  item.append(row);
  return item;
}

// -- Explore: the tree below the position on show ------------------------------------

function closeExplore() {
  $("explore-panel").hidden = true;
  $("explore").setAttribute("aria-expanded", "false");
  $("explore-tree").replaceChildren();
}

/** The server's view of the position below each tree item that can be opened. */
const below = new WeakMap();

/** A move of an analysis as a tree item; ``after`` is the server's view of
 * the position it leads to: the item opens unless that position is over. */
function exploreItem(value, after, mover, best) {
  const top = best && sameValue(value, best);
  const guess = best && value === best && value.result === "unknown";
  const mark = top ? "best" : guess ? "best guess" : "";
  const name = `${value.move}: ${valueWords(value)}${mark ? `, ${mark}` : ""}`;
  const label = document.createElement("span");
  label.innerHTML = '<b class="move"></b> <span class="who"></span> <span class="val"></span>';
  label.querySelector(".move").textContent = value.move;
  label.querySelector(".who").textContent = `(${sideName(mover)})`;
  const val = label.querySelector(".val");
  val.textContent = valueWords(value) + (mark ? ` · ${mark}` : "");
  val.className = `val v-${value.result}`;
  const item = treeItem(name, label);
  item.dataset.move = value.move;
  if (top || guess) item.classList.add("best");
  if (!after.status.over) {
    item.setAttribute("aria-expanded", "false");
    below.set(item, after);
  }
  item.querySelector(".node").addEventListener("click", () => toggleExplore(item));
  return item;
}

/** A line in a tree that is not an item: "3 more moves: …", "The game is over." */
function treeNote(text) {
  const note = document.createElement("li");
  note.setAttribute("role", "none");
  note.className = "note";
  note.textContent = text;
  return note;
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
  const analysis = await call("/api/analyze", { game, position: view.position });
  const best = analysis.moves.find((m) => analysis.best && m.move === analysis.best.move);
  // Big boards list the best few moves by value, and count the others.
  const { shown, rest } = movesToList(analysis);
  const afters = await Promise.all(
    shown.map((value) => call("/api/position", { game, position: analysis.position, move: value.move })),
  );
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
      setStatus(`Could not open ${item.dataset.move}: ${err.message}.`);
      return;
    }
    item.removeAttribute("aria-busy");
  }
  item.setAttribute("aria-expanded", "true");
}

async function explore() {
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

// -- Learn: minimax and alpha-beta on the textbook tree --------------------------------

const learn = {
  /** The traced trees for the leaves on show: {minimax, alphabeta}. */
  traces: null,
  /** Steps shown (node entries); Infinity after Run. */
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
      call("/api/tree", { leaves, algorithm: "minimax" }),
      call("/api/tree", { leaves, algorithm: "alphabeta" }),
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

function learnLast() {
  const trace = learnTrace();
  return trace ? trace.visited : 0;
}

function toggleLearn(item) {
  item.setAttribute("aria-expanded", item.getAttribute("aria-expanded") === "true" ? "false" : "true");
}

// -- tabs ----------------------------------------------------------------------------

function showTab(which) {
  for (const name of ["play", "learn"]) {
    const on = name === which;
    $(`tab-${name}`).setAttribute("aria-selected", String(on));
    $(`tab-${name}`).tabIndex = on ? 0 : -1;
    $(`panel-${name}`).hidden = !on;
  }
  if (which === "learn" && !learn.traces) drawLearn();
}

// -- start -------------------------------------------------------------------------

async function start() {
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
  for (const radio of document.querySelectorAll('input[name="mark"]')) {
    radio.addEventListener("change", (e) => {
      if (!confirmDiscard(`Play ${sideName(e.target.value)} instead`)) {
        document.querySelector(`input[name="mark"][value="${state.you}"]`).checked = true;
        return;
      }
      state.you = e.target.value;
      newGame(false);
    });
  }
  $("play").addEventListener("click", () => newGame(true));
  $("new").addEventListener("click", () => newGame(false));
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("explore").addEventListener("click", explore);
  $("retry").addEventListener("click", () => state.retry && state.retry());
  $("explain").addEventListener("change", render);
  $("reset-tally").addEventListener("click", () => {
    if (!window.confirm(`Reset your record for ${state.game.title}?`)) return;
    delete state.tally[state.game.name];
    saveTally();
    render();
  });
  $("board").addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", onKey);
  treeKeys($("explore-tree"), toggleExplore);
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
  const checked = document.querySelector('input[name="mark"]:checked');
  state.you = checked ? checked.value : "x";
  setStatus("Loading the games…");
  try {
    const { games } = await call("/api/games");
    const select = $("game");
    for (const game of games) {
      state.games.set(game.name, game);
      const option = document.createElement("option");
      option.value = game.name;
      option.textContent = game.title;
      select.append(option);
    }
    switchGame(games[0].name);
  } catch (err) {
    setStatus(`Could not load the games: ${err.message}.`, () => location.reload());
  }
}

document.addEventListener("DOMContentLoaded", start);
