// What the page is showing: the game's description, the server's view of
// the position, and what the player has done. Everything here is read from
// the server's answers; nothing is worked out by the rules of a game.

export const $ = (id) => document.getElementById(id);

export const state = {
  /** name -> the game's own description, from /api/games. */
  games: new Map(),
  game: null,
  /** Your mark, one of the game's players. */
  you: null,
  /** The position on show: the server's view of it. */
  view: null,
  /** Views (and what was recorded) before each of your moves: Undo goes back. */
  history: [],
  busy: false,
  /** Bumped by every new game, so answers for an abandoned game are dropped. */
  token: 0,
  /** move -> its value, while a hint is shown (the board puts each on the
   * cell the move fills or, where pieces move, on the piece and its targets). */
  hints: null,
  hintText: "",
  /** Whether the hint on show marks a best guess, and leaves moves blank. */
  hintGuess: false,
  hintUnproven: false,
  /** Losses the hint leaves unmarked (most moves share them): words -> how many. */
  hintCrowd: new Map(),
  /** The hint's threats and forbidden points (k in a row), marked while it shows. */
  hintMarks: null,
  /** The AI's last move with the analysis it came from, while Explain shows it. */
  explanation: null,
  /** The cell that changed last (animated), "row,col". */
  last: null,
  /** The cell the last move's piece left, "row,col" (games whose pieces move). */
  lastFrom: null,
  /** The piece you have chosen to move, "row,col" (games whose pieces move):
   * its targets are marked, and a click on one plays that move. */
  selected: null,
  /** The result counted in the record for the game on show, if finished. */
  recorded: null,
  /** What to do when Retry is pressed. */
  retry: null,
  /** The position the game started from ("": the game's initial one). */
  start: "",
  /** The moves played since the game's start, in the game's notation (the move list). */
  moves: [],
  /** Keyboard focus within the board: a "row,col" cell or a column number. */
  focus: null,
  /** The server's view after each move of the game (0: its start), kept
   * as the game is played: the review steps the board through them. */
  views: [],
  /** The move on show while stepping through the game (0: the start), or
   * null: the position in play. */
  at: null,
  /** The game's review from the server ({game, moves, summary}), for the
   * moves in ``reviewed`` (a game reviewed so far keeps it until it grows). */
  review: null,
  reviewed: "",
};

export const key = (row, col) => `${row},${col}`;

/** Whether the game on show is finished, as the server says. */
export function over() {
  return Boolean(state.view && state.view.status.over);
}

export function yourTurn() {
  return Boolean(state.view) && !state.busy && !over() && state.at === null && state.view.to_move === state.you;
}

/** The position on the board: the one in play, or the one after move
 * ``state.at`` while stepping through the game. */
export function shown() {
  if (state.at === null) return state.view;
  return state.views[state.at] || state.view;
}

/** The cell a move of the game filled, "row,col" (and the one its piece
 * left), read off the view before it: the last move's mark while stepping. */
export function cellsOf(ply) {
  const before = state.views[ply - 1];
  const cell = before && before.moves.find((m) => m.move === state.moves[ply - 1]);
  if (!cell) return { last: null, from: null };
  return { last: key(cell.row, cell.col), from: cell.origin ? key(...cell.origin) : null };
}

/** A sentence as it should start: "Column 3 is full", not "column 3 is
 * full"; a move in the game's notation ("b2", "a1a2") stays as written. */
export function sentence(text) {
  const first = /^[A-Za-z]+(?=[\s,:;.!?]|$)/.exec(text);
  if (!first || first[0].length < 2) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "win", "loss" or "draw" for you in the game on show, "" while it goes on. */
export function resultFor(status, you) {
  if (!status.over) return "";
  if (!status.winner) return "draw";
  return status.winner === you ? "win" : "loss";
}

export function inProgress() {
  return state.history.length > 0 && !over();
}

/** Show ``text`` on the status line; ``retry`` (if given) is what the Retry
 * button does. ``kind``: "error" shows it as an alert (announced at once,
 * styled as one), "win", "loss" or "draw" as the game's result. */
export function setStatus(text, retry = null, kind = "") {
  const status = $("status");
  status.setAttribute("role", kind === "error" ? "alert" : "status");
  status.setAttribute("aria-live", kind === "error" ? "assertive" : "polite");
  status.textContent = sentence(text);
  $("status-box").dataset.kind = kind;
  state.retry = retry;
  $("retry").hidden = retry === null;
}

/** Whether a request is under way: the board says so (greyed, a progress
 * bar above it) until the server answers. */
export function setBusy(busy) {
  state.busy = busy;
  $("board").setAttribute("aria-busy", String(busy));
  $("panel-play").dataset.busy = String(busy);
}

// -- the players, as the game describes them ------------------------------------

export function sideOf(mark) {
  const game = state.game;
  return (game && game.sides.find((side) => side.mark === mark)) || { mark, name: mark, colour: "" };
}

/** "X" or "Yellow (o)": how the game calls a player. */
export function sideName(mark) {
  const side = sideOf(mark);
  return side.name.toLowerCase() === mark ? side.name : `${side.name} (${mark})`;
}

/** "first" or "second": which of the game's players a mark is ("" for none),
 * so that styles name a side by its role, never by its mark. */
export function seat(mark) {
  const at = state.game.players.indexOf(mark);
  return at < 0 ? "" : ["first", "second"][at];
}

/** The game's other player. */
export function opponent(mark) {
  const [first, second] = state.game.players;
  return mark === first ? second : first;
}

// -- the board's cells -------------------------------------------------------------

/** The legal move that plays at this board target, if any. */
export function moveAt(row, col) {
  if (!state.view) return null;
  if (state.game.gravity) return state.view.moves.find((m) => m.col === col) || null;
  return state.view.moves.find((m) => m.row === row && m.col === col) || null;
}

/** Whether moves take a piece from one cell to another (the game says so):
 * then a move is chosen by its piece, then by where it goes. */
export function piecesMove() {
  return Boolean(state.game && state.game.moves_from);
}

const at = (cells, row, col) => Boolean(cells) && cells[0] === row && cells[1] === col;

/** The legal moves of the piece on this cell (none where stones are put down). */
export function movesFrom(row, col) {
  if (!state.view) return [];
  return state.view.moves.filter((m) => at(m.origin, row, col));
}

/** The legal moves that end on this cell. */
export function movesTo(row, col) {
  if (!state.view) return [];
  return state.view.moves.filter((m) => m.row === row && m.col === col);
}

/** A move as the page names it: "b2", or "column 4" where stones drop. */
export function moveName(move) {
  return state.game.gravity ? `column ${move}` : move;
}

export function cellName(row, col) {
  const { column_labels: columns, row_labels: rows } = state.game;
  return rows.length ? `${columns[col]}${rows[row]}` : `column ${columns[col]}`;
}
