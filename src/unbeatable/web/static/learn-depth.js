// The second lesson: depth-limited search below a real game position, its
// leaves at the depth limit valued by the game's evaluation function. A
// table keeps the move chosen at each depth against its exact value; the
// summary says what the horizon hid, which moves tied and how the tie was
// broken; beside the line the search expects, the line beyond its horizon
// that refutes it (the exact line of best play, from the server's analysis).

import * as api from "./api.js";
import { RequestError } from "./api.js";
import {
  MAX_NODES, annotate, bestChild, description, failed, hooks, learn, moveLabel, num, sideLabel, stopPlay,
} from "./learn-core.js";
import { doneWords } from "./learn-walk.js";
import { $, state } from "./state.js";

export const depth = {
  /** "game|position" prepared: its view, each move's exact value and line, the best. */
  key: null,
  view: null,
  exact: null,
  best: null,
  /** Depth -> what the search chose there, for each depth tried here. */
  rows: new Map(),
  /** The depth an address asks for, kept until the depths are offered. */
  wanted: null,
};

/** The games the lesson offers: those whose evaluation gives example
 * positions (``lesson.examples`` in ``GET /api/games``), in the server's order. */
function lessonGames() {
  return [...state.games.values()].filter((game) => game.lesson && game.lesson.examples.length);
}

export function depthKey() {
  return `${$("depth-game").value}|${$("depth-position").value.trim()}|${$("depth-depth").value}`;
}

/** The deepest tree the server draws below this position: every node of a
 * depth-d tree is counted as if no game ended early (b moves, one fewer
 * each ply where a move fills a cell), which never undercounts. */
function deepest(game, view) {
  const b = view.moves.length;
  const empty = view.board.join("").split("").filter((c) => c === ".").length;
  const gravity = description(game).gravity;
  let nodes = 1;
  let level = 1;
  let d = 0;
  while (d < empty) {
    level *= gravity ? b : b - d;
    if (nodes + level > MAX_NODES) break;
    nodes += level;
    d += 1;
  }
  return { most: Math.max(1, d), ends: d === empty };
}

function fillDepths(limit) {
  const select = $("depth-depth");
  const asked = depth.wanted !== null ? depth.wanted : Number(select.value) || 1;
  depth.wanted = null;
  const chosen = Math.max(1, Math.min(asked, limit.most));
  select.replaceChildren();
  for (let d = 1; d <= limit.most; d++) {
    const option = document.createElement("option");
    option.textContent = String(d);
    select.append(option);
  }
  select.value = String(chosen);
  $("depth-depth-help").textContent = limit.ends
    ? `Up to ${limit.most}: the game is over by then.`
    : `Up to ${limit.most} here: a deeper tree has more than 5,000 nodes.`;
}

/** The position as a small picture, described in words for screen readers. */
function drawBoard(game, view) {
  const about = description(game);
  const board = $("depth-board");
  board.replaceChildren();
  const rowLabels = about.row_labels.length > 0;
  board.style.setProperty("--cols", String(view.board[0].length + (rowLabels ? 1 : 0)));
  const marks = new Map(about.sides.map((side) => [side.mark, side]));
  const taken = new Map();
  const label = (text) => {
    const span = document.createElement("span");
    span.className = "mini-label";
    span.textContent = text;
    board.append(span);
  };
  view.board.forEach((row, r) => {
    if (rowLabels) label(about.row_labels[r]);
    [...row].forEach((cell, c) => {
      const span = document.createElement("span");
      span.className = "mini-cell";
      const side = marks.get(cell);
      if (side) {
        span.textContent = side.name.charAt(0).toUpperCase();
        span.classList.add(about.gravity ? "mini-disc" : "mini-mark");
        if (about.gravity) span.style.background = side.colour;
        const name = about.row_labels.length
          ? `${about.column_labels[c]}${about.row_labels[r]}`
          : `column ${about.column_labels[c]} row ${view.board.length - r}`;
        if (!taken.has(cell)) taken.set(cell, []);
        taken.get(cell).push(name);
      }
      board.append(span);
    });
  });
  if (rowLabels) label("");
  for (const text of about.column_labels) label(text);
  const parts = [...taken].map(([mark, cells]) => `${sideLabel(game, mark)} on ${cells.join(", ")}`);
  board.setAttribute("aria-label", `The position, ${sideLabel(game, view.to_move)} to move: ${parts.join("; ") || "an empty board"}.`);
}

/** The position's view, each move's exact value and line of best play
 * (the server's analysis) and how deep a tree may go: asked once per position.
 * ``mine`` is the drawing's generation: an answer that arrives after another
 * game or position was asked for is dropped, not taken for the new one's. */
async function prepare(game, position, mine) {
  const key = `${game}|${position}`;
  if (depth.key === key) return;
  depth.key = null;
  depth.rows = new Map();
  renderTable(null); // the old position's rows go at once, not when the new one is ready
  const view = await api.position(game, position);
  if (mine !== learn.generation) return;
  if (!view.moves.length) throw new RequestError("the game is over in this position: choose one with moves left");
  const analysis = await api.analyze(game, position);
  if (mine !== learn.generation) return;
  depth.key = key;
  depth.view = view;
  depth.exact = new Map(analysis.moves.map((move) => [move.move, move]));
  depth.best = analysis.best ? depth.exact.get(analysis.best.move) : analysis.moves[0];
  fillDepths(deepest(game, view));
  drawBoard(game, view);
}

const RANK = { loss: 0, draw: 1, win: 2 };

/** Whether a move is worse than the exact best one (unproven: not known). */
function worse(move) {
  const value = depth.exact.get(move);
  return Boolean(value) && value.result in RANK && depth.best.result in RANK && RANK[value.result] < RANK[depth.best.result];
}

/** "loses in 4 plies", "draws", "wins in 5 plies", "is not proven". */
function outcomeWords(value) {
  const plies = value.plies == null ? "" : ` in ${value.plies} ${value.plies === 1 ? "ply" : "plies"}`;
  if (value.result === "win") return `wins${plies}`;
  if (value.result === "loss") return `loses${plies}`;
  if (value.result === "draw") return "draws";
  return "is not proven";
}

/** A value for MAX at a node of the search, in words: "estimate +2", "win". */
function searchWords(node) {
  if (node.result === "unknown") return `estimate ${num(node.score)}`;
  return node.score === 0 ? "draw" : num(node.score);
}

/** The move the search chose at the root. */
function chosen(trace) {
  return bestChild(trace.root);
}

/** The root's moves valued alike with the chosen one, in the tree's order. */
function ties(trace) {
  return trace.root.children.filter((child) => child.score === trace.root.score);
}

/** "a2", "a2 and a1", "a2, a1, b1 and c1". */
function listed(words) {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

doneWords.depth = (trace, walk, leaves) => {
  const pick = chosen(trace);
  // "estimated at 0", "valued as a draw": never "valued estimate 0".
  const worth = pick.result === "unknown" ? `estimated at ${num(pick.score)}`
    : pick.score === 0 ? "valued as a draw" : `valued ${num(pick.score)}`;
  return `Done: at depth ${trace.depth}, ${sideLabel(trace.game, trace.root.to_move)} plays ${moveLabel(pick.move)}, ${worth}. ${walk.charAt(0).toUpperCase()}${walk.slice(1)} looked at ${leaves.seen} of ${leaves.all} leaves; the line it expects is marked.`;
};

/** "MAX is O, to move; every value is for MAX. The evaluation function, from
 * o's side: −(lines still open for x ... minus lines still open for o)." The
 * game states its evaluation for its first player; for the second, every
 * estimate is its negative, and the rule says so. */
function ruleWords(game, trace) {
  const max = trace.root.to_move;
  const first = description(game).players[0];
  const who = sideLabel(game, max);
  const rule = trace.evaluation;
  const view = max === first || !first ? `from ${max}'s side: ${rule}` : `from ${max}'s side: −(${rule}), the negative of ${first}'s count`;
  return `MAX is ${who}, to move; every value is for MAX. The evaluation function, ${view}.`;
}

export async function drawDepth() {
  stopPlay();
  const mine = ++learn.generation;
  const game = $("depth-game").value;
  const position = $("depth-position").value.trim();
  const field = $("depth-position");
  try {
    await prepare(game, position, mine);
    if (mine !== learn.generation) return false;
    field.removeAttribute("aria-invalid");
    const d = Number($("depth-depth").value);
    const [minimax, alphabeta] = await Promise.all([
      api.gameTree(game, position, d, "minimax", "heuristic"),
      api.gameTree(game, position, d, "alphabeta", "heuristic"),
    ]);
    if (mine !== learn.generation) return false;
    learn.traces = { minimax: annotate(minimax), alphabeta: annotate(alphabeta) };
    learn.drawn = depthKey();
    learn.step = 0;
    $("learn-status").classList.remove("error");
    const pruned = alphabeta.nodes - alphabeta.visited;
    $("learn-counts").textContent = `Minimax visits ${minimax.visited} nodes; alpha-beta visits ${alphabeta.visited} and prunes ${pruned}.`;
    $("learn-leaves").textContent = "";
    $("depth-rule").textContent = ruleWords(game, minimax);
    remember(minimax);
    hooks.render({ drawn: true });
    renderTable(d);
    return true;
  } catch (err) {
    if (mine !== learn.generation) return false;
    if (depth.key === null) field.setAttribute("aria-invalid", "true");
    failed(err);
    renderTable(null);
    hooks.save();
    return false;
  }
}

/** What the search chose at the trace's depth: the move, its value, the
 * moves tied with it and the line it expects. */
function remember(trace) {
  const pick = chosen(trace);
  const line = [];
  let node = trace.root;
  for (let next = bestChild(node); next; next = bestChild(next)) {
    line.push(next.move);
    node = next;
  }
  depth.rows.set(trace.depth, {
    depth: trace.depth,
    move: pick.move,
    words: searchWords(pick),
    tied: ties(trace).map((child) => child.move),
    line,
    end: searchWords(node),
  });
}

/** The depths an address names besides the one drawn: each traced (minimax
 * only: the choice) so the table shows them again. */
export async function tryDepths(depths) {
  const game = $("depth-game").value;
  const position = $("depth-position").value.trim();
  for (const d of depths) {
    if (depth.rows.has(d) || d < 1) continue;
    try {
      const trace = annotate(await api.gameTree(game, position, d, "minimax", "heuristic"));
      if (`${game}|${position}` !== depth.key) return;
      remember(trace);
    } catch (err) {
      // A depth the position no longer allows is simply left out.
    }
  }
  renderTable(Number($("depth-depth").value));
}

/** The depths tried so far, for the address. */
export function depthsTried() {
  return [...depth.rows.keys()].sort((a, b) => a - b);
}

/** The table of the depths tried, and what changed, in words. */
function renderTable(current) {
  const body = $("depth-table").querySelector("tbody");
  body.replaceChildren();
  const rows = [...depth.rows.values()].sort((a, b) => a.depth - b.depth);
  for (const row of rows) {
    const tr = document.createElement("tr");
    if (row.depth === current) tr.setAttribute("aria-current", "true");
    const exact = depth.exact.get(row.move);
    const bad = worse(row.move);
    const others = row.tied.filter((move) => move !== row.move);
    const cells = [
      String(row.depth),
      `${moveLabel(row.move)}${others.length ? ` (tied with ${listed(others.map((move) => moveLabel(move)))})` : ""}`,
      row.words,
      `${outcomeWords(exact)}${bad ? `: worse than ${moveLabel(depth.best.move)}` : ""}`,
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    if (bad) tr.classList.add("worse");
    body.append(tr);
  }
  const row = current === null ? null : depth.rows.get(current);
  $("depth-summary").textContent = row ? summary(row, rows) : "";
  renderLines(row);
}

/** What the depth chosen saw and missed: a tie and how it was broken, the
 * horizon effect, what a deeper search does. */
function summary(row, rows) {
  const trace = learn.traces.minimax;
  const best = depth.best;
  const who = sideLabel(trace.game, trace.root.to_move);
  const d = row.depth;
  const plies = (n) => `${n} ${n === 1 ? "ply" : "plies"}`;
  const exact = depth.exact.get(row.move);
  const parts = [];
  if (row.tied.length > 1) {
    parts.push(`At depth ${d}, ${listed(row.tied.map((move) => moveLabel(move)))} all score ${row.words.replace(/^estimate /, "")} for ${who}: a tie, broken by the game's tie-break order, which puts ${moveLabel(row.move)} first.`);
    const differ = row.tied.filter((move) => depth.exact.get(move) && depth.exact.get(move).result !== exact.result);
    if (differ.length) {
      const others = differ.map((move) => `${moveLabel(move)} ${outcomeWords(depth.exact.get(move))}`);
      parts.push(`They only look equal: ${moveLabel(row.move)} ${outcomeWords(exact)}, while ${listed(others)}; what separates them lies more than ${plies(d)} ahead, beyond the horizon, where only the evaluation function's guess reaches.`);
    } else {
      parts.push(`${moveLabel(row.move)} ${outcomeWords(exact)}, and so do the moves tied with it.`);
    }
  } else {
    parts.push(`At depth ${d}, ${who} plays ${moveLabel(row.move)} (${row.words}), a move that ${outcomeWords(exact)}.`);
  }
  const horizonSaid = row.tied.length > 1 && parts.length > 1 && parts[1].includes("beyond the horizon");
  if (worse(row.move)) {
    if (!horizonSaid) parts.push(`What decides it lies more than ${plies(d)} ahead, beyond the search's horizon, where only the evaluation function's guess reaches.`);
    parts.push(`The exact best move is ${moveLabel(best.move)}, which ${outcomeWords(best)}.`);
    const deeper = rows.find((r) => r.depth > d && !worse(r.move));
    parts.push(deeper ? `Depth ${deeper.depth} sees far enough and plays ${moveLabel(deeper.move)}.` : "Search deeper to see it.");
  } else {
    parts.push(row.move === best.move ? "It is the exact best move." : `No move does better: the exact best move, ${moveLabel(best.move)}, also ${outcomeWords(best)}.`);
    const shallow = rows.filter((r) => r.depth < d && worse(r.move));
    if (shallow.length) {
      const depths = shallow.map((r) => r.depth).join(", ");
      parts.push(`At depth ${depths} the search chose ${[...new Set(shallow.map((r) => moveLabel(r.move)))].join(", ")} instead: the danger was past its horizon.`);
    }
  }
  return parts.join(" ");
}

/** Beside the line the search expects, the exact line beyond its horizon:
 * the moves it saw, then those it could not, and how the game really ends. */
function renderLines(row) {
  const box = $("depth-lines");
  box.hidden = !row;
  if (!row) return;
  const trace = learn.traces.minimax;
  const who = sideLabel(trace.game, trace.root.to_move);
  const exact = depth.exact.get(row.move);
  const seen = row.line.map((move) => moveLabel(move, true));
  $("depth-line-seen-title").textContent = `The line depth ${row.depth} expects`;
  $("depth-line-seen").textContent = `${seen.join(" ")}, then the horizon: ${row.end}`;
  const real = (exact.line || []).map((move) => moveLabel(move, true));
  const before = real.slice(0, row.depth);
  const beyond = real.slice(row.depth);
  const shown = beyond.slice(0, 8);
  const title = worse(row.move) ? "Beyond the horizon, the line that refutes it" : "Beyond the horizon, with best play";
  $("depth-line-real-title").textContent = title;
  const dd = $("depth-line-real");
  dd.replaceChildren();
  if (before.length) dd.append(`${before.join(" ")} `);
  const past = document.createElement("span");
  past.className = "learn-beyond";
  past.textContent = beyond.length ? `┊ ${shown.join(" ")}${beyond.length > shown.length ? " …" : ""}` : "┊";
  dd.append(past, `: ${who} ${outcomeWords(exact)}.`);
}

function fillExamples(game) {
  const select = $("depth-example");
  select.replaceChildren();
  const about = description(game);
  for (const example of about.lesson ? about.lesson.examples : []) {
    const option = document.createElement("option");
    option.value = example.position;
    option.textContent = example.name;
    select.append(option);
  }
  const own = document.createElement("option");
  own.value = "";
  own.textContent = "Your own position";
  select.append(own);
  $("depth-position-help").textContent = about.notation || "In the game's notation.";
}

/** The game select, filled once the games are known. */
export function setUpDepth() {
  const select = $("depth-game");
  if (select.options.length) return;
  for (const game of lessonGames()) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title;
    select.append(option);
  }
  if (!select.options.length) return; // the games are not known yet
  fillExamples(select.value);
  $("depth-position").value = $("depth-example").value;
}

/** Open the lesson on a game, position and depth (an address asks for them). */
export function chooseDepth(game, position, d) {
  setUpDepth();
  const select = $("depth-game");
  if (game && [...select.options].some((o) => o.value === game)) {
    select.value = game;
    fillExamples(game);
  }
  if (position !== null) $("depth-position").value = position;
  const known = [...$("depth-example").options].some((o) => o.value && o.value === $("depth-position").value.trim());
  $("depth-example").value = known ? $("depth-position").value.trim() : "";
  depth.wanted = d;
}

export function initDepth() {
  $("depth-form").addEventListener("submit", (e) => {
    e.preventDefault();
    drawDepth();
  });
  $("depth-game").addEventListener("change", () => {
    fillExamples($("depth-game").value);
    $("depth-position").value = $("depth-example").value;
    $("depth-depth").value = "1";
    drawDepth();
  });
  $("depth-example").addEventListener("change", () => {
    if (!$("depth-example").value) {
      $("depth-position").focus();
      return;
    }
    $("depth-position").value = $("depth-example").value;
    $("depth-depth").value = "1";
    drawDepth();
  });
  $("depth-position").addEventListener("input", () => {
    const known = [...$("depth-example").options].some((o) => o.value && o.value === $("depth-position").value.trim());
    $("depth-example").value = known ? $("depth-position").value.trim() : "";
  });
  $("depth-depth").addEventListener("change", drawDepth);
}
