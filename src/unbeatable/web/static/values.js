// A move's value as the server gives it ({result, plies}, for the player
// making the move) and every way the page puts it into words: one table, so
// a cell's badge, a tree's label and a sentence can never disagree.

/** The engine's pick among moves whose value is not proven, on the board. */
export const GUESS = "*";

/** Each result: its word, its letter on a cell, whether a distance goes with
 * it, what it means for you in a hint, what a lower bound promises, and what
 * a move does whose value is reached with that move alone (plies 1). */
const RESULTS = {
  win: { word: "win", letter: "W", counted: true, forYou: "you win", atLeast: "you can win",
    atOnce: "wins at once" },
  draw: { word: "draw", letter: "D", counted: false, forYou: "it is a draw", atLeast: "you can at least draw",
    atOnce: "ends the game in a draw" },
  loss: { word: "loss", letter: "L", counted: true, forYou: "you lose", atLeast: null, atOnce: null },
  unknown: { word: "not proven", letter: GUESS, counted: false, forYou: null, atLeast: null, atOnce: null },
};

const about = (value) => RESULTS[value.result] || RESULTS.unknown;
const distance = (value) => (about(value).counted && value.plies != null ? ` in ${value.plies}` : "");

/** "win in 3" / "draw" / "loss in 2" / "not proven". */
export function valueWords(value) {
  return about(value).word + distance(value);
}

/** "W3" / "D" / "L2" / "*" (the engine's pick, not proven): fits a cell. */
export function shortValue(value) {
  const { letter, counted } = about(value);
  if (!counted) return letter;
  return value.plies == null ? GUESS : `${letter}${value.plies}`;
}

/** A hint in words, for screen readers: "win in 3", "best guess, not proven". */
export function hintWords(value) {
  return value.result === "unknown" ? "best guess, not proven" : valueWords(value);
}

/** The position's value for you: "you win in 3", "it is a draw"; null when
 * nothing is proven. */
export function forYou(value) {
  const words = about(value).forYou;
  return words && words + distance(value);
}

/** What a value that is only a lower bound promises you: "you can win",
 * "you can at least draw"; null when it promises nothing. */
export function atLeast(value) {
  return about(value).atLeast;
}

/** What the move does when its value is reached with the move itself (plies
 * counts the moves to the end, this one included): "wins at once", "ends the
 * game in a draw"; null otherwise. */
export function atOnce(value) {
  return value.plies === 1 ? about(value).atOnce : null;
}

/** The same proven value (a value not proven equals nothing). */
export function sameValue(a, b) {
  return a.result === b.result && a.plies === b.plies && a.result !== "unknown";
}

/** Higher is better for the mover, as the library ranks moves: the fastest
 * win, a draw, a move not proven, the slowest loss. */
export function rankOf(value) {
  if (value.result === "win") return 3000 - value.plies;
  if (value.result === "draw") return 2000;
  if (value.result === "loss") return value.plies || 0;
  return 1000;
}

/** The analysed move that is the engine's pick, if any. */
export function bestOf(analysis) {
  return analysis.moves.find((m) => analysis.best && m.move === analysis.best.move);
}

/** A loss shared by more moves than this is left off a hint's board (as
 * the terminal's hint does): two hundred cells of L2 say less than the one
 * sentence that counts them. */
const CROWD = 16;

/** The losses shared by more than CROWD moves: their words -> how many. */
export function crowded(analysis) {
  const counts = new Map();
  for (const m of analysis.moves) {
    if (m.result === "loss") counts.set(valueWords(m), (counts.get(valueWords(m)) || 0) + 1);
  }
  return new Map([...counts].filter(([, n]) => n > CROWD));
}

/** Lists of moves longer than this (big boards) show the best few only. */
const MANY_MOVES = 16;
const FEW_SHOWN = 10;

/** The moves of an analysis to list: all of them in board order, or on big
 * boards the best few proven ones by value and the engine's pick (and
 * ``keep``, the move played), with the others counted by value:
 * "212 more moves: 212 not proven". */
export function movesToList(analysis, keep = null) {
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
export function lineText(line, most = 9) {
  return line.slice(0, most).join(" ") + (line.length > most ? " …" : "");
}

/** "a1, b2, c3", or "a1, b2, c3 and 212 others". */
export function listed(moves, most = 6) {
  if (moves.length <= most) return moves.join(", ");
  return `${moves.slice(0, most - 1).join(", ")} and ${moves.length - most + 1} others`;
}
