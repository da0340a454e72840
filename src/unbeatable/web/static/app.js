// The game page: draws the board, applies your moves, asks the server for the
// AI's. The server keeps no state, so this page holds the position (as the
// game's notation) and sends it with every request. Plain JavaScript, no build
// step, nothing loaded from elsewhere.
"use strict";

// -- the games' rules, as much as the page needs to apply your move ----------

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

const TICTACTOE = {
  name: "tictactoe",
  title: "Tic-tac-toe",
  rows: 3,
  cols: 3,
  inARow: "three in a row",
  initial: ".../.../... x",
  keysHelp: "Keys 1–9 play the squares in reading order: 1 is a3 (top left), 9 is c1 (bottom right).",
  /** Position text -> {cells: row-major from the top left ("x", "o" or ""), toMove}. */
  parse(text) {
    const [board, side] = text.trim().split(/\s+/);
    const cells = [];
    for (const ch of board.replaceAll("/", "")) {
      const c = ch.toLowerCase();
      cells.push(c === "x" || c === "o" ? c : "");
    }
    const xs = cells.filter((c) => c === "x").length;
    const os = cells.filter((c) => c === "o").length;
    return { cells, toMove: side ? side.toLowerCase() : xs === os ? "x" : "o" };
  },
  format(cells, toMove) {
    const rows = [];
    for (let r = 0; r < this.rows; r++) {
      rows.push(cells.slice(r * this.cols, (r + 1) * this.cols).map((c) => c || ".").join(""));
    }
    return `${rows.join("/")} ${toMove}`;
  },
  /** The cell a key or click targets, or -1. */
  target(index, board) {
    return board.cells[index] === "" ? index : -1;
  },
  play(text, cell) {
    const { cells, toMove } = this.parse(text);
    cells[cell] = toMove;
    return this.format(cells, toMove === "x" ? "o" : "x");
  },
  cellName(index) {
    const row = Math.floor(index / this.cols);
    return `${LETTERS[index % this.cols]}${this.rows - row}`;
  },
  lines() {
    const all = [];
    for (let r = 0; r < 3; r++) all.push([r * 3, r * 3 + 1, r * 3 + 2]);
    for (let c = 0; c < 3; c++) all.push([c, c + 3, c + 6]);
    all.push([0, 4, 8], [2, 4, 6]);
    return all;
  },
};

const CONNECT4 = {
  name: "connect4",
  title: "Connect Four",
  rows: 6,
  cols: 7,
  inARow: "four in a row",
  initial: "",
  keysHelp: "Keys 1–7 drop a disc in columns 1–7, from the left.",
  /** Move sequence ("4453") -> {cells: row-major from the top left, toMove, heights}. */
  parse(text) {
    const cells = new Array(this.rows * this.cols).fill("");
    const heights = new Array(this.cols).fill(0);
    let toMove = "x";
    for (const ch of text.trim()) {
      const col = Number(ch) - 1;
      const row = this.rows - 1 - heights[col];
      cells[row * this.cols + col] = toMove;
      heights[col] += 1;
      toMove = toMove === "x" ? "o" : "x";
    }
    return { cells, toMove, heights };
  },
  /** The cell a disc dropped in column ``col`` lands on, or -1 if it is full. */
  target(col, board) {
    if (col < 0 || col >= this.cols || board.heights[col] >= this.rows) return -1;
    return (this.rows - 1 - board.heights[col]) * this.cols + col;
  },
  play(text, cell) {
    return `${text.trim()}${(cell % this.cols) + 1}`;
  },
  cellName(index) {
    return `column ${(index % this.cols) + 1}`;
  },
  lines() {
    const all = [];
    const { rows, cols } = this;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
          const er = r + 3 * dr;
          const ec = c + 3 * dc;
          if (er >= 0 && er < rows && ec >= 0 && ec < cols) {
            all.push([0, 1, 2, 3].map((i) => (r + i * dr) * cols + c + i * dc));
          }
        }
      }
    }
    return all;
  },
};

const GAMES = { tictactoe: TICTACTOE, connect4: CONNECT4 };
for (const rules of Object.values(GAMES)) rules.allLines = rules.lines();

/** Whether the board is finished, who won, and the winning line's cells. */
function localStatus(rules, board) {
  for (const line of rules.allLines) {
    const first = board.cells[line[0]];
    if (first && line.every((i) => board.cells[i] === first)) {
      return { over: true, winner: first, line };
    }
  }
  return { over: board.cells.every((c) => c !== ""), winner: null, line: null };
}

// -- talking to the server -------------------------------------------------

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new Error("the server cannot be reached");
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    throw new Error((data && data.error) || `the server answered ${response.status}`);
  }
  return data;
}

// -- the running tally, kept in this browser ---------------------------------

const TALLY_KEY = "unbeatable.tally.v1";

function loadTally() {
  try {
    const data = JSON.parse(localStorage.getItem(TALLY_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch (err) {
    return {};
  }
}

function saveTally(tally) {
  try {
    localStorage.setItem(TALLY_KEY, JSON.stringify(tally));
  } catch (err) {
    // Storage may be full or disabled: the tally then lasts for this page only.
  }
}

function tallyFor(tally, game) {
  const entry = tally[game] || {};
  return {
    wins: Number(entry.wins) || 0,
    draws: Number(entry.draws) || 0,
    losses: Number(entry.losses) || 0,
  };
}

// -- page state ----------------------------------------------------------------

const $ = (id) => document.getElementById(id);

const state = {
  rules: TICTACTOE,
  you: "x",
  position: TICTACTOE.initial,
  /** Positions before each of your moves: Undo goes back to the last one. */
  history: [],
  status: { over: false, winner: null, line: null },
  busy: false,
  /** Cell index -> value of playing there, while a hint is shown. */
  hints: null,
  /** What the AI considered before its last move, for the Explain panel. */
  explanation: null,
  lastMove: -1,
  tallied: false,
  /** Bumped by every new game, so answers for an abandoned game are dropped. */
  game: 0,
  tally: loadTally(),
};

function board() {
  return state.rules.parse(state.position);
}

function yourTurn() {
  return !state.busy && !state.status.over && board().toMove === state.you;
}

function aiMark() {
  return state.you === "x" ? "o" : "x";
}

/** "win in 3" / "draw" / "loss in 2" / "unknown" for one analysed move. */
function describe(value) {
  if (value.result === "win" || value.result === "loss") {
    return value.plies == null ? value.result : `${value.result} in ${value.plies}`;
  }
  return value.result;
}

/** "you win in 3" / "you lose in 2" / "it is a draw", for the player to move. */
function outcome(value) {
  const n = value.plies == null ? "" : ` in ${value.plies}`;
  if (value.result === "win") return `you win${n}`;
  if (value.result === "loss") return `you lose${n}`;
  if (value.result === "draw") return "it is a draw";
  return "the result could not be proven in time";
}

/** A value short enough for a Connect Four column's narrow label. */
function shortly(value) {
  if (value.result === "win" || value.result === "loss") {
    return value.plies == null ? value.result : `${value.result} ${value.plies}`;
  }
  return value.result === "draw" ? "draw" : "?";
}

/** The board cell a move from the API refers to. */
function moveCell(rules, position, ref) {
  if (ref.row != null) return ref.row * rules.cols + ref.col;
  return rules.target(ref.col, rules.parse(position));
}

function setStatus(text) {
  $("status").textContent = text;
}

// -- drawing -------------------------------------------------------------------

function buildBoard() {
  const rules = state.rules;
  const el = $("board");
  el.replaceChildren();
  el.dataset.game = rules.name;
  el.style.setProperty("--rows", rules.rows);
  el.style.setProperty("--cols", rules.cols);
  if (rules === TICTACTOE) {
    for (let i = 0; i < rules.rows * rules.cols; i++) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.index = String(i);
      cell.dataset.key = String(i + 1);
      cell.innerHTML = '<span class="mark" aria-hidden="true"></span>'
        + '<span class="coord" aria-hidden="true"></span>'
        + '<span class="value" aria-hidden="true"></span>';
      cell.querySelector(".coord").textContent = rules.cellName(i);
      cell.addEventListener("click", () => humanMove(i));
      el.append(cell);
    }
  } else {
    for (let c = 0; c < rules.cols; c++) {
      const column = document.createElement("button");
      column.type = "button";
      column.className = "column";
      column.dataset.col = String(c);
      column.dataset.key = String(c + 1);
      const value = document.createElement("span");
      value.className = "value";
      value.setAttribute("aria-hidden", "true");
      column.append(value);
      for (let r = 0; r < rules.rows; r++) {
        const slot = document.createElement("span");
        slot.className = "slot";
        slot.dataset.index = String(r * rules.cols + c);
        slot.setAttribute("aria-hidden", "true");
        slot.append(document.createElement("span"));
        slot.firstChild.className = "disc";
        column.append(slot);
      }
      column.addEventListener("click", () => humanMove(c));
      el.append(column);
    }
  }
  $("keys").textContent = rules.keysHelp;
  state.lastMove = -1;
}

function hintText(index) {
  if (!state.hints || !state.hints.has(index)) return "";
  return describe(state.hints.get(index));
}

function render() {
  const rules = state.rules;
  const current = board();
  const line = new Set(state.status.line || []);
  const el = $("board");
  el.dataset.position = state.position;
  el.setAttribute("aria-busy", String(state.busy));
  el.classList.toggle("draw", state.status.over && !state.status.winner);
  el.classList.toggle("over", state.status.over);
  el.classList.toggle("waiting", !yourTurn());

  if (rules === TICTACTOE) {
    for (const cell of el.querySelectorAll(".cell")) {
      const i = Number(cell.dataset.index);
      const mark = current.cells[i];
      const hint = hintText(i);
      cell.querySelector(".mark").textContent = mark;
      cell.dataset.mark = mark;
      cell.classList.toggle("win", line.has(i));
      cell.classList.toggle("last", i === state.lastMove);
      setValue(cell, hint ? state.hints.get(i) : null);
      let name = `${rules.cellName(i)} ${mark || "empty"}`;
      if (line.has(i)) name += ", winning line";
      if (hint) name += `, hint: ${hint}`;
      cell.setAttribute("aria-label", name);
      cell.setAttribute("aria-disabled", String(mark !== "" || !yourTurn()));
    }
  } else {
    for (const column of el.querySelectorAll(".column")) {
      const c = Number(column.dataset.col);
      const discs = [];
      for (const slot of column.querySelectorAll(".slot")) {
        const i = Number(slot.dataset.index);
        const mark = current.cells[i];
        const disc = slot.firstChild;
        disc.dataset.mark = mark;
        slot.classList.toggle("win", line.has(i));
        const dropping = i === state.lastMove && mark !== "";
        disc.classList.toggle("drop", dropping);
        if (dropping) disc.style.setProperty("--fall", String(Math.floor(i / rules.cols) + 1));
        if (mark) discs.unshift(mark);
      }
      const hint = hintText(c);
      setValue(column, hint ? state.hints.get(c) : null);
      const full = current.heights[c] >= rules.rows;
      let name = `column ${c + 1}: ${discs.length ? discs.join(" ") : "empty"}`;
      if (full) name += ", full";
      if (hint) name += `, hint: ${hint}`;
      column.setAttribute("aria-label", name);
      column.setAttribute("aria-disabled", String(full || !yourTurn()));
    }
  }

  $("undo").disabled = state.busy || state.history.length === 0;
  $("hint").disabled = !yourTurn();
  $("legend").hidden = !state.hints;
  renderExplanation();
  renderTally();
}

function setValue(el, value) {
  const span = el.querySelector(".value");
  const text = state.rules === CONNECT4 ? shortly : describe;
  span.textContent = value ? text(value) : "";
  el.dataset.value = value ? value.result : "";
}

function renderExplanation() {
  const panel = $("explanation");
  const info = state.explanation;
  panel.hidden = !$("explain").checked || !info;
  if (panel.hidden) return;
  const { analysis, chosen, mark } = info;
  const list = $("considered");
  list.replaceChildren();
  for (const value of analysis.moves) {
    const item = document.createElement("li");
    item.className = `v-${value.result}`;
    item.dataset.move = value.move;
    const label = state.rules === CONNECT4 ? `column ${value.move}` : value.move;
    item.textContent = `${label}: ${describe(value)}`;
    if (value.move === chosen) {
      item.classList.add("chosen");
      item.append(" ← played");
    }
    list.append(item);
  }
  const best = analysis.best ? analysis.best.move : null;
  const name = (move) => (state.rules === CONNECT4 ? `column ${move}` : move);
  $("explain-title").textContent = `Why the AI played ${name(chosen)}`;
  let summary = `Every move the AI (${mark}) could play, valued for the AI with perfect play from both sides.`;
  if (best && chosen !== best) {
    summary += ` ${name(best)} was best; at this level the AI does not always find it.`;
  } else {
    summary += " It played the best one: the fastest win, else a draw, else the slowest loss.";
  }
  if (analysis.exact === false) {
    summary += " Some values could not be proven within the time limit (unknown).";
  }
  $("explain-summary").textContent = summary;
}

function renderTally() {
  const entry = tallyFor(state.tally, state.rules.name);
  $("wins").textContent = String(entry.wins);
  $("draws").textContent = String(entry.draws);
  $("losses").textContent = String(entry.losses);
  $("tally-game").textContent = `(${state.rules.title})`;
}

// -- playing -------------------------------------------------------------------

function finish(status) {
  state.status = { over: true, winner: status.winner, line: status.line };
  const rules = state.rules;
  const names = (status.line || []).map((i) => rules.cellName(i));
  const where = rules === TICTACTOE && names.length ? `: ${names.join(", ")}` : "";
  if (!status.winner) {
    setStatus("Draw: the board is full and nobody has won.");
  } else if (status.winner === state.you) {
    setStatus(`You win! ${status.winner} has ${rules.inARow}${where}.`);
  } else {
    setStatus(`The AI wins: ${status.winner} has ${rules.inARow}${where}.`);
  }
  if (!state.tallied) {
    state.tallied = true;
    const entry = tallyFor(state.tally, rules.name);
    if (!status.winner) entry.draws += 1;
    else if (status.winner === state.you) entry.wins += 1;
    else entry.losses += 1;
    state.tally[rules.name] = entry;
    saveTally(state.tally);
  }
}

/** Server status -> the page's form: the winning line as cell indices. */
function serverStatus(rules, status, position) {
  let line = null;
  if (status.line) line = status.line.map(([r, c]) => r * rules.cols + c);
  else if (status.winner) line = localStatus(rules, rules.parse(position)).line;
  return { over: status.over, winner: status.winner, line };
}

function humanMove(index) {
  if (!yourTurn()) return;
  const rules = state.rules;
  const current = board();
  const cell = rules.target(index, current);
  if (cell < 0) return;
  state.history.push(state.position);
  state.position = rules.play(state.position, cell);
  state.lastMove = cell;
  state.hints = null;
  const after = localStatus(rules, board());
  if (after.over) {
    finish(after);
    render();
    return;
  }
  aiMove();
}

async function aiMove() {
  const game = state.game;
  const rules = state.rules;
  const before = state.position;
  const mark = aiMark();
  state.busy = true;
  state.hints = null;
  setStatus(`The AI (${mark}) is thinking…`);
  render();
  const body = { game: rules.name, position: before };
  try {
    // The explanation is a bonus: if it fails, the move still counts.
    const analysis = $("explain").checked ? post("/api/analyze", body).catch(() => null) : null;
    const reply = await post("/api/move", { ...body, level: $("level").value });
    const considered = analysis ? await analysis : null;
    if (game !== state.game) return;
    state.position = reply.position;
    state.lastMove = moveCell(rules, before, reply.move);
    state.explanation = considered ? { analysis: considered, chosen: reply.move.move, mark } : null;
    state.busy = false;
    const name = rules === CONNECT4 ? `column ${reply.move.move}` : reply.move.move;
    if (reply.status.over) {
      finish(serverStatus(rules, reply.status, reply.position));
    } else {
      setStatus(`The AI played ${name}. Your turn (${state.you}).`);
    }
  } catch (err) {
    if (game !== state.game) return;
    state.busy = false;
    setStatus(`The AI could not move: ${err.message}.`);
  }
  render();
}

function newGame(aiOpens) {
  if (aiOpens) {
    state.you = "o";
    document.querySelector('input[name="mark"][value="o"]').checked = true;
  }
  state.game += 1;
  state.position = state.rules.initial;
  state.history = [];
  state.status = { over: false, winner: null, line: null };
  state.busy = false;
  state.hints = null;
  state.explanation = null;
  state.lastMove = -1;
  state.tallied = false;
  if (state.you === "o") {
    aiMove();
  } else {
    setStatus(`New game: you play x and move first. ${state.rules.keysHelp}`);
    render();
  }
}

function undo() {
  if (state.busy || state.history.length === 0) return;
  state.position = state.history.pop();
  state.status = { over: false, winner: null, line: null };
  state.hints = null;
  state.explanation = null;
  state.lastMove = -1;
  setStatus(`Took back your last move. Your turn (${state.you}).`);
  render();
}

async function hint() {
  if (!yourTurn()) return;
  const game = state.game;
  const position = state.position;
  const rules = state.rules;
  state.busy = true;
  setStatus("Working out every move's value…");
  render();
  try {
    const analysis = await post("/api/analyze", { game: rules.name, position });
    if (game !== state.game) return;
    state.hints = new Map();
    for (const value of analysis.moves) {
      const key = rules === TICTACTOE ? moveCell(rules, position, value) : value.col;
      state.hints.set(key, value);
    }
    const best = analysis.best ? analysis.best.move : "";
    const name = rules === CONNECT4 ? `column ${best}` : best;
    setStatus(`Hint: with perfect play ${outcome(analysis)}; best move ${name}.`);
  } catch (err) {
    if (game !== state.game) return;
    setStatus(`No hint: ${err.message}.`);
  }
  state.busy = false;
  render();
}

function switchGame(name) {
  state.rules = GAMES[name] || TICTACTOE;
  buildBoard();
  newGame(false);
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && event.target.type === "text")) return;
  if (!/^[1-9]$/.test(event.key)) return;
  const n = Number(event.key);
  const rules = state.rules;
  const count = rules === TICTACTOE ? rules.rows * rules.cols : rules.cols;
  if (n > count) return;
  event.preventDefault();
  humanMove(n - 1);
}

function start() {
  $("game").addEventListener("change", (e) => switchGame(e.target.value));
  for (const radio of document.querySelectorAll('input[name="mark"]')) {
    radio.addEventListener("change", (e) => {
      state.you = e.target.value;
      newGame(false);
    });
  }
  $("play").addEventListener("click", () => newGame(true));
  $("new").addEventListener("click", () => newGame(false));
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("explain").addEventListener("change", render);
  $("reset-tally").addEventListener("click", () => {
    delete state.tally[state.rules.name];
    saveTally(state.tally);
    render();
  });
  document.addEventListener("keydown", onKey);
  const checked = document.querySelector('input[name="mark"]:checked');
  state.you = checked ? checked.value : "x";
  state.rules = GAMES[$("game").value] || TICTACTOE;
  buildBoard();
  newGame(false);
}

document.addEventListener("DOMContentLoaded", start);
