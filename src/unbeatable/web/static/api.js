// The HTTP API as the page uses it: one function per endpoint. The server
// keeps no state, so every call carries the whole position; errors come back
// as RequestError with the server's own sentence when it sent one.

/** A failed request, with the server's own message when it sent one. */
export class RequestError extends Error {}

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

/** Every game the server plays, as each describes itself. */
export function games() {
  return call("/api/games");
}

/** One game the server plays, listed or not (any board of a family). */
export function game(name) {
  return call(`/api/games/${encodeURIComponent(name)}`);
}

/** A position as the page shows it (after ``move``, if given): board, side
 * to move, legal moves with their cells, status. */
export function position(game, notation, move = null) {
  const body = { game, position: notation };
  if (move !== null) body.move = move;
  return call("/api/position", body);
}

/** The value of the position and of each of its moves. */
export function analyze(game, notation) {
  return call("/api/analyze", { game, position: notation });
}

/** The AI's move at ``level``, with the analysis it came from if ``explain``. */
export function aiMove(game, notation, level, explain = false) {
  const body = { game, position: notation, level };
  if (explain) body.explain = true;
  return call("/api/move", body);
}

/** The game's review: each move's value before and after it, the mistakes,
 * the game in one line. ``start``: the position it started from ("": the
 * game's initial one). */
export function review(game, moves, start = "") {
  const body = { game, moves };
  if (start) body.position = start;
  return call("/api/review", body);
}

/** The textbook tree over ``leaves`` as ``algorithm`` walks it. */
export function textbookTree(leaves, algorithm) {
  return call("/api/tree", { leaves, algorithm });
}

/** The tree below a position, ``depth`` plies deep, as ``algorithm`` walks
 * it; ``cutoff`` "heuristic" values the positions at the depth limit with the
 * game's evaluation function, "exact" with the engine. */
export function gameTree(game, notation, depth, algorithm, cutoff) {
  return call("/api/tree", { game, position: notation, depth, algorithm, cutoff });
}
