// The board: built from the game's description (rows, columns, labels,
// whether stones drop), drawn from the server's view of the position. It
// knows no rules: a cell or column can be played when the server listed a
// legal move there, and a click is handed to the page through ``onPlay``.

import {
  $, cellName, cellsOf, key, moveAt, movesFrom, movesTo, piecesMove, resultFor, seat, shown, sideOf, state,
  yourTurn,
} from "./state.js";
import { hintWords, rankOf, shortValue } from "./values.js";

/** Boards with a side this long or longer (Gomoku's 15x15) are drawn small:
 * thin grid lines, coordinates on the edges, every cell still in view. */
const BIG_SIDE = 10;

/** Build the empty board for the game on show; ``onPlay(row, col)`` is called
 * when a cell (or, where stones drop, a column: row 0) is chosen. */
export function buildBoard(onPlay) {
  const game = state.game;
  const board = $("board");
  board.replaceChildren();
  // Big boards (Gomoku) put the coordinates on the edges, not in every cell.
  const big = Math.max(game.rows, game.columns) >= BIG_SIDE;
  board.dataset.gravity = String(game.gravity);
  board.dataset.big = String(big);
  board.dataset.pieces = String(Boolean(game.moves_from));
  $("panel-play").dataset.big = String(big);
  board.style.setProperty("--rows", game.rows);
  board.style.setProperty("--cols", game.columns);
  // The sides' colours, as the game describes them, under the names of their roles.
  for (const side of game.sides) board.style.setProperty(`--stone-${seat(side.mark)}`, side.colour);
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
      column.append(label, " ");
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
        column.append(slot, " ");
      }
      column.addEventListener("click", () => onPlay(0, c));
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
        // The coordinate first, then the mark, then a hint's value, with
        // spaces between: the visible text reads "a3 o", as the name starts.
        cell.innerHTML = '<span class="coord" aria-hidden="true"></span> '
          + '<span class="mark" aria-hidden="true"></span> '
          + '<span class="value" aria-hidden="true"></span>';
        cell.querySelector(".coord").textContent = cellName(r, c);
        cell.addEventListener("click", () => onPlay(r, c));
        board.append(cell);
      }
    }
  }
  state.focus = game.gravity ? Math.floor(game.columns / 2) : key(Math.floor(game.rows / 2), Math.floor(game.columns / 2));
  let keys = game.keys.length
    ? `Keys ${game.keys[0].key}–${game.keys[game.keys.length - 1].key} play ${game.gravity ? "the columns" : "the cells in reading order"}; arrow keys move around the board.`
    : "Arrow keys move around the board; Enter or Space plays.";
  if (game.moves_from) keys = pieceKeys([]);
  $("keys").textContent = keys;
  // The Move field's example until a position names a legal move: the
  // middle column, or the centre cell.
  const example = game.gravity
    ? game.column_labels[Math.floor(game.columns / 2)]
    : cellName(Math.floor(game.rows / 2), Math.floor(game.columns / 2));
  $("coord-help").textContent = `Type a move as the board names it, such as ${example}.`;
}

/** How to play where pieces move, as ``moves`` (the side to move's) allow:
 * put a piece down on an empty cell (a game that places, then moves), choose
 * one of yours and then the cell it goes to, or either (before the first
 * position arrives, just a cell). */
export function pieceKeys(moves) {
  const puts = moves.some((m) => !m.origin);
  const goes = moves.some((m) => m.origin);
  const how = "(a click, or Enter or Space); arrow keys move around the board";
  const piece = "one of your pieces, then the cell it goes to";
  if (!puts && !goes) return `Choose a cell ${how}.`;
  if (!goes) return `Choose an empty cell to put a piece there ${how}.`;
  const choose = puts ? `an empty cell to put a piece there, or ${piece}` : piece;
  return `Choose ${choose} ${how}; Escape lets go of the piece.`;
}

/** The mark in a cell of the server's board ("" for an empty one). */
function markAt(view, row, col) {
  const mark = view.board[row][col];
  return mark === "." ? "" : mark;
}

/** What a hint's value looks like on the board: "win", "draw", "loss", or
 * "guess" for the engine's pick that is not proven. */
function valueKind(value) {
  if (!value) return "";
  return value.result === "unknown" ? "guess" : value.result;
}

/** The hint's values by cell, "row,col" -> value: each move's on the cell it
 * fills; where pieces move, on each piece the best of its moves' values, and
 * on the targets of the piece chosen the value of the move that goes there
 * (so that two moves onto one cell never share a badge). */
function hintCells() {
  const cells = new Map();
  if (!state.hints || !state.view) return cells;
  for (const move of state.view.moves) {
    const value = state.hints.get(move.move);
    if (!value) continue;
    if (!move.origin) {
      cells.set(key(move.row, move.col), value);
      continue;
    }
    const from = key(...move.origin);
    if (from === state.selected) cells.set(key(move.row, move.col), value);
    const best = cells.get(from);
    if (!best || rankOf(value) > rankOf(best)) cells.set(from, value);
  }
  return cells;
}

/** The hint's threats by cell, "row,col" -> {kind, words}: each stone of a
 * four ("four", an open four too) or an open three ("three"), of both sides,
 * as the server names them (the strongest where a stone is in several); and
 * black's forbidden points (renju), "row,col" -> their words. Empty while no
 * hint shows. */
function threatCells() {
  const stones = new Map();
  const forbidden = new Map();
  const marks = state.hints && state.hintMarks;
  if (!marks) return { stones, forbidden };
  const at = (move) => {
    const r = state.game.row_labels.indexOf(move.slice(1));
    const c = state.game.column_labels.indexOf(move[0]);
    return key(r, c);
  };
  for (const mark of marks.threats) {
    const kind = mark.kind === "open three" ? "three" : "four";
    for (const stone of mark.stones) {
      const known = stones.get(at(stone));
      if (!known || (known.kind === "three" && kind === "four")) stones.set(at(stone), { kind, words: mark.words });
      else if (known.kind === kind) known.words += ` and ${mark.words}`;
    }
  }
  for (const point of marks.forbidden) forbidden.set(key(point.row, point.col), point.words);
  return { stones, forbidden };
}

/** What a cell is in a game whose pieces move, for screen readers, starting
 * with what it shows (``head``: "b1 w"): "b1 w, White piece, selected",
 * "b2, empty, target: b1b2". */
function pieceCellName(r, c, mark, target, head) {
  let text = mark ? `${head}, ${sideOf(mark).name} piece` : `${head}, empty`;
  const from = key(r, c) === state.selected;
  if (from) text += ", selected";
  else if (yourTurn() && !state.selected && movesFrom(r, c).length) text += ", can move";
  if (target) text += `, target: ${target.move}`;
  return text;
}

/** Whether a click on a cell does anything in a game whose pieces move: it
 * chooses a piece that can move, plays a move onto a target, lets go of the
 * piece chosen, or names the moves that reach it. */
function pieceCellActive(r, c) {
  if (!yourTurn()) return false;
  return Boolean(state.selected) || movesFrom(r, c).length > 0 || movesTo(r, c).length > 0;
}

/** Draw the server's view of the position, the last move, the winning line
 * and any hint; name every cell or column for screen readers. */
export function renderBoard() {
  const game = state.game;
  const view = shown();
  const board = $("board");
  if (!game || !view) return;
  // While stepping through the game, the move on show is the last one.
  const marked = state.at === null ? { last: state.last, from: state.lastFrom } : cellsOf(state.at);
  board.dataset.stepping = String(state.at !== null);
  const line = new Set((view.status.line || []).map(([r, c]) => key(r, c)));
  board.dataset.position = view.position;
  board.classList.toggle("over", view.status.over);
  board.classList.toggle("draw", view.status.over && !view.status.winner);
  // The result for you, each with its own look: your line, the AI's, a draw.
  board.dataset.result = resultFor(view.status, state.you);
  board.classList.toggle("waiting", !yourTurn());
  const hints = hintCells();
  const hint = (r, c) => hints.get(key(r, c));
  if (game.gravity) {
    for (const column of board.querySelectorAll(".column")) {
      const c = Number(column.dataset.col);
      const marks = [];
      let hinted = null;
      let lastHere = "";
      for (const slot of column.querySelectorAll(".slot")) {
        const r = Number(slot.dataset.row);
        const mark = markAt(view, r, c);
        const disc = slot.firstChild;
        disc.dataset.mark = mark;
        disc.dataset.side = seat(mark);
        const last = marked.last === key(r, c) && mark !== "";
        slot.classList.toggle("win", line.has(key(r, c)));
        slot.classList.toggle("last", last);
        if (last) lastHere = mark;
        disc.classList.toggle("drop", last);
        if (last) disc.style.setProperty("--fall", String(r + 1));
        if (mark) marks.unshift(mark);
        const value = hint(r, c);
        slot.querySelector(".value").textContent = value ? shortValue(value) : "";
        slot.dataset.value = valueKind(value);
        if (value) hinted = value;
      }
      // Full when every slot holds a stone (not merely when nothing may be played: a finished game).
      const full = marks.length === game.rows;
      // What the column shows comes first: its label, and a hint's value.
      const badge = hinted ? `${shortValue(hinted)}, ` : "";
      let name = `column ${game.column_labels[c]}: ${badge}${marks.length ? marks.join(" ") : "empty"}`;
      if (full) name += ", full";
      if ([...line].some((k) => k.endsWith(`,${c}`))) name += ", part of the winning line";
      if (lastHere) name += `, last move ${lastHere}`;
      if (hinted) name += `, hint: ${hintWords(hinted)}`;
      column.setAttribute("aria-label", name);
      column.setAttribute("aria-disabled", String(full || !yourTurn()));
      column.tabIndex = state.focus === c ? 0 : -1;
    }
  } else {
    const pieces = piecesMove();
    const threats = threatCells();
    // The chosen piece's moves, by the cell each goes to.
    const chosen = new Map();
    if (pieces && state.selected) {
      for (const move of movesFrom(...state.selected.split(",").map(Number))) chosen.set(key(move.row, move.col), move);
    }
    for (const cell of board.querySelectorAll(".cell")) {
      const r = Number(cell.dataset.row);
      const c = Number(cell.dataset.col);
      const mark = markAt(view, r, c);
      const value = hint(r, c);
      cell.querySelector(".mark").textContent = mark;
      cell.dataset.mark = mark;
      cell.dataset.side = seat(mark);
      cell.classList.toggle("win", line.has(key(r, c)));
      cell.classList.toggle("last", marked.last === key(r, c) && mark !== "");
      const threat = mark ? threats.stones.get(key(r, c)) : null;
      const forbidden = mark ? null : threats.forbidden.get(key(r, c));
      cell.dataset.threat = threat ? threat.kind : "";
      cell.querySelector(".value").textContent = value ? shortValue(value) : forbidden ? "×" : "";
      cell.dataset.value = forbidden && !value ? "forbidden" : valueKind(value);
      // The name starts with what the cell shows: its coordinate, its mark,
      // a hint's value ("a3 o", "b2 W3"), then says the rest.
      const head = [cellName(r, c), mark, value ? shortValue(value) : ""].filter(Boolean).join(" ");
      let name;
      if (pieces) {
        const target = chosen.get(key(r, c));
        cell.classList.toggle("selected", state.selected === key(r, c));
        cell.classList.toggle("target", Boolean(target));
        cell.classList.toggle("from", marked.from === key(r, c) && !mark);
        name = pieceCellName(r, c, mark, target, head);
        if (line.has(key(r, c))) name += ", winning line";
        if (marked.last === key(r, c) && mark) name += ", last move";
        if (marked.from === key(r, c) && !mark) name += ", the last move left it";
        if (value) name += `, hint: ${mark && !target ? "best move " : ""}${hintWords(value)}`;
        cell.setAttribute("aria-disabled", String(!pieceCellActive(r, c)));
      } else {
        name = mark ? `${head}, taken` : value ? `${head}, empty` : `${head} empty`;
        if (line.has(key(r, c))) name += ", winning line";
        if (marked.last === key(r, c) && mark) name += ", last move";
        if (value) name += `, hint: ${hintWords(value)}`;
        if (threat) name += `, in ${threat.words}`;
        if (forbidden) name += `, ${forbidden}`;
        cell.setAttribute("aria-disabled", String(!moveAt(r, c) || !yourTurn()));
      }
      cell.setAttribute("aria-label", name);
      cell.tabIndex = state.focus === key(r, c) ? 0 : -1;
    }
    keepInView(board, marked.last);
  }
}

/** A board wider than its frame (a big board on a phone) scrolls: keep the
 * last move in the middle of the view, once each time it changes. */
function keepInView(board, last) {
  const frame = board.parentElement;
  if (!last || !frame || frame.scrollWidth <= frame.clientWidth || frame.dataset.centred === last) return;
  frame.dataset.centred = last;
  const [r, c] = last.split(",");
  const target = board.querySelector(`[data-row="${r}"][data-col="${c}"]`);
  if (!target) return;
  const seen = frame.getBoundingClientRect();
  const at = target.getBoundingClientRect();
  frame.scrollLeft += at.left - seen.left - (seen.width - at.width) / 2;
}

/** Resolves when the disc now falling (if any) has landed, so the next one
 * starts after it: on the animation's own end event (or its cancel, when the
 * board is rebuilt), so no duration here has to match style.css. With
 * reduced motion nothing runs and it resolves at once. */
export function landed() {
  const falling = [...$("board").querySelectorAll(".disc.drop")].filter((disc) => disc.getAnimations().length);
  return Promise.all(falling.map((disc) => new Promise((resolve) => {
    const over = new AbortController();
    const end = () => {
      over.abort();
      resolve();
    };
    disc.addEventListener("animationend", end, { signal: over.signal });
    disc.addEventListener("animationcancel", end, { signal: over.signal });
  })));
}

// -- keyboard focus within the board -------------------------------------------------

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
  renderBoard();
  const target = focusTarget();
  if (target) target.focus();
}

/** Arrow keys move the focus around the board (one tab stop for the board). */
export function onBoardKey(event) {
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (moves[event.key]) {
    event.preventDefault();
    moveFocus(...moves[event.key]);
  }
}
