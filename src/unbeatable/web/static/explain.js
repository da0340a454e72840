// Explanations in sentences: why the AI played its move (the Explain panel)
// and what best play looks like after a hinted move. Every claim is read
// from the server's analysis: values, lines of best play, threats. Where the
// rules name threats (k in a row: Gomoku), the server says it all in the
// game's words (the analysis' ``explanation``: a summary and the moves in
// lines of equal value), and the page shows those sentences as they are.

import { $, moveName, opponent, sentence, sideName, state } from "./state.js";
import { GUESS, atOnce, bestOf, lineText, listed, movesToList, sameValue, valueWords } from "./values.js";

/** What best play after ``value.move`` looks like: "X answers a1 and wins in 2 more". */
function continuation(value, mover) {
  const line = value.line || [];
  const other = sideName(opponent(mover));
  if (value.result === "unknown") return "not proven within the time limit";
  const ending = atOnce(value);
  if (ending) return ending;
  if (value.threat && value.result === "win") {
    return `${sideName(mover)} wins by ${value.threat} in ${value.plies}: ${lineText(line)}`;
  }
  if (value.threat && value.result === "loss") {
    return `${other} answers ${moveName(line[1])} and wins by ${value.threat} in ${value.plies - 1}: ${lineText(line.slice(1))}`;
  }
  if (line.length < 2) return "best play is not proven move by move yet";
  const after = value.plies - 2;
  const later = after > 0 ? ` in ${after} more` : "";
  const answer = `${other} answers ${moveName(line[1])}`;
  if (value.result === "loss") return `${answer} and wins${later}`;
  if (value.result === "win") return `${answer}, and ${sideName(mover)} still wins${later}`;
  return `${answer}, and best play ends in a draw`;
}

/** The server's explanation in the game's words, where the rules name
 * threats (else null). */
export function wordsOf(analysis) {
  const words = analysis && analysis.explanation;
  return words && words.groups.length ? words : null;
}

/** "c2 (loss in 2): X answers a1 and wins." */
export function lineSentence(value, mover, best = false) {
  const name = moveName(value.move);
  if (value.result === "unknown") return `${name}: its value was not proven within the time limit.`;
  return `${name} (${valueWords(value)}${best ? ", best" : ""}): ${continuation(value, mover)}.`;
}

/** The words under the board with a hint: the best move (or moves) and the
 * line of best play after it, for ``you``; where the rules name threats, the
 * server's summary of the position in the game's words. */
export function hintText(analysis, you) {
  const best = bestOf(analysis);
  if (!best) return "";
  const words = wordsOf(analysis);
  if (words && words.summary) return words.summary;
  if (best.result === "unknown") {
    const losing = analysis.moves.filter((m) => m.result === "loss").length;
    let text = `Best guess: ${moveName(best.move)} (${GUESS} on the board), not proven.`;
    if (losing === analysis.moves.length - 1) text += " Every other move is proven to lose.";
    else if (losing) text += ` ${losing} ${losing === 1 ? "move is" : "moves are"} proven to lose.`;
    return text;
  }
  const equals = analysis.moves.filter((m) => sameValue(m, best));
  return equals.length > 1
    ? `Equally good: ${listed(equals.map((m) => moveName(m.move)))}. For example, ${lineSentence(best, you)}`
    : `Best: ${lineSentence(best, you)}`;
}

/** The Explain panel: every move the AI could play (the best few on big
 * boards) with its value and line, and why it chose the one it played. */
export function renderExplanation() {
  const panel = $("explanation");
  const info = state.explanation;
  panel.hidden = !$("explain").checked || !info;
  if (panel.hidden) return;
  const { analysis, chosen, mover } = info;
  const list = $("considered");
  list.replaceChildren();
  const words = wordsOf(analysis);
  $("explain-title").textContent = `Why the AI played ${moveName(chosen)}`;
  let summary;
  if (words) {
    // The game's words, from the server: the moves in lines of equal value.
    for (const group of words.groups) {
      const item = document.createElement("li");
      item.className = `v-${group.result}`;
      item.dataset.moves = group.moves.join(" ");
      item.textContent = group.words;
      if (group.moves.includes(chosen)) {
        item.classList.add("chosen");
        item.prepend("▶ ");
      }
      list.append(item);
    }
    if (words.more) list.append(moreItem(words.more));
    summary = [words.summary, verdict(info, Boolean(words.summary))].filter(Boolean).join(" ");
  } else {
    const best = bestOf(analysis);
    const { shown, rest } = movesToList(analysis, chosen);
    for (const value of shown) {
      const item = document.createElement("li");
      item.className = `v-${value.result}`;
      item.dataset.move = value.move;
      const top = best && sameValue(value, best);
      item.textContent = sentence(lineSentence(value, mover, top));
      if (value.move === chosen) {
        item.classList.add("chosen");
        item.prepend("▶ ");
      }
      list.append(item);
    }
    if (rest) list.append(moreItem(`${rest}.`));
    summary = rest
      ? `The AI's (${sideName(mover)}) best moves by value, each with its value for the AI under perfect play from both sides; the other moves are counted below.`
      : `Every move the AI (${sideName(mover)}) could play, with its value for the AI under perfect play from both sides.`;
    const said = verdict(info);
    if (said) summary += ` ${said}`;
  }
  $("explain-summary").textContent = summary;
}

function moreItem(text) {
  const more = document.createElement("li");
  more.className = "more";
  more.textContent = text;
  return more;
}

/** How the move played compares with the best, in a sentence or two ("" when
 * there is nothing to compare). ``said``: the server's words already name
 * the moves as good as the best (their line), so they are not listed again. */
function verdict({ analysis, chosen, level }, said = false) {
  const best = bestOf(analysis);
  const played = analysis.moves.find((m) => m.move === chosen);
  const name = moveName(chosen);
  const mistakes = `at the ${level} level the AI makes mistakes on purpose`;
  let text = "";
  if (best && played) {
    const equals = analysis.moves.filter((m) => sameValue(m, best)).map((m) => moveName(m.move));
    if (best.result === "unknown" && played.move === best.move && said) {
      return sentence(`${name}'s own value was not proven within the time limit.`);
    } else if (best.result === "unknown" && played.move === best.move) {
      text = `No move was proven to win or draw within the time limit: ${name} is the engine's best guess.`;
    } else if (best.result === "unknown") {
      text = `No move was proven to win or draw within the time limit; the engine's best guess was ${moveName(best.move)}, and ${mistakes}.`;
    } else if (sameValue(played, best) && said) {
      text = "";
    } else if (sameValue(played, best)) {
      text = equals.length > 1
        ? `${name} is one of ${equals.length} equally good moves (${listed(equals)}: ${valueWords(best)}).`
        : `It played the best move: ${valueWords(best)}.`;
    } else if (played.result === "unknown") {
      text = `${name} was not valued in time; ${listed(equals)} ${equals.length > 1 ? "are" : "is"} proven: ${valueWords(best)}.`;
    } else {
      text = `${listed(equals)} ${equals.length > 1 ? "were" : "was"} better (${valueWords(best)}); ${mistakes}.`;
    }
  }
  if (analysis.exact === false) text += `${text ? " " : ""}Some values could not be proven within the time limit.`;
  return sentence(text);
}
