// sudokit board: the buttons that ask the server and say its answer (Solve, Rate, Uniqueness,
// True candidates, Generate). Each takes the board's context `b`: {state, api(name, body),
// body(extra) (the puzzle fields of a request), change(update) (an undoable edit), load(...),
// $(id), chosen() (the fields of the techniques chosen: hint, explain, rate)} and returns its message (text, or [text, error]).

import { countMessage, solveMessage } from "./layout.js";
import { autoCandidates, digitAt } from "./grid.js";

export async function solve(b) {
  const r = await b.api("solve", b.body({method: b.$("method").value, count_limit: 2}));  // unique?
  if (r.grid) b.change(() => { b.state.values = r.grid.map((d, c) => (b.state.geo.givens[c] ? 0 : d)); });
  return solveMessage(r);
}

export async function rate(b) {
  const known = b.state.solutionsFound > 1;  // the load check counted them: no need to ask
  const r = known ? {unique: false} : await b.api("rate", b.body({grid: null, ...b.chosen()}));
  if (r.unique === false) {
    return ["Not rated: this puzzle has several solutions (a rating needs a puzzle with one).", true];
  }
  return `Rating ${r.rating.toFixed(1)} (${r.hardest || "none"}), level ${r.level}, ${r.steps} steps`;
}

export async function unique(b) {
  return countMessage(await b.api("count", b.body()));
}

// Each open cell keeps only the digits it holds in some solution (its other candidates removed).
export async function trueCandidates(b) {
  const r = await b.api("candidates", b.body({after: "true"})), state = b.state;
  if (!r.solutions_found) return ["No solution from here.", true];
  b.change(() => {
    state.elim = r.candidates.map((c, cell) => (digitAt(state.geo, state.values, cell) ? []
      : autoCandidates(state.geo, state.values, cell).filter((d) => !c.includes(d))));
  });
  return `True candidates: the digits of each cell in ${r.solutions_found} solution` +
      `${r.solutions_found === 1 ? "" : "s"}${r.complete ? "" : " (some left undecided by the time limit)"}.`;
}

// A new puzzle of the size, level and variant the controls say.
export async function generate(b) {
  const level = b.$("gen-level").value || null, variant = b.$("variant").value.trim();
  const body = {size: +b.$("gen-size").value, level};
  if (variant) body.variant = variant;
  const r = await b.api("generate", body);
  await b.load(r.puzzle, r.variant || variant || "standard", "", {}, false);
  return `New puzzle: ${r.givens} givens` + (r.rating !== null && r.rating !== undefined
    ? `, rating ${r.rating} (${r.rater})` : "");
}
