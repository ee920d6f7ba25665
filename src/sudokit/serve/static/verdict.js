// sudokit board: the verdicts of the server on the player's grid, as the board draws them.
// /api/check: the rules the grid breaks so far (each with its cells), and "solved!" only when
// every cell is filled and no rule of the puzzle (drawn rules included) is broken.
// /api/why: why the grid has no solution (the members of the first reason: given cells
// ringed, a rule's or cage's cells outlined, the contradiction said) or several (the cells
// where two solutions differ, an unavoidable set more strongly, each single clue that would
// make it unique shown as "add a clue here"). Pure: board.js asks and draws.

import { plainWords } from "./layout.js";

export const NO_CHECK = Object.freeze({key: "", status: "", cells: [], rules: []});

// The board's check of a grid from an /api/check answer `r` ({violations, filled, solved}).
export function checkOf(key, r) {
  const cells = [...new Set(r.violations.flatMap((v) => v.cells))];
  return {key, status: r.solved ? "solved!" : r.violations.length ? "rule broken" : "",
          cells, rules: r.violations};
}

// The message of a full grid that breaks rules: each broken rule once, in the player's words.
export function brokenMessage(check) {
  const said = [...new Set(check.rules.map((v) => `${v.rule}: ${v.text}`))].slice(0, 4);
  return `Not solved: ${plainWords(said.join("; "))}.`;
}

// What the board draws of an /api/why answer: cell index -> class, and the "add a clue here"
// digits (cell -> digit).
export function whyMarks(why) {
  const classes = new Map(), fixes = new Map();
  const mark = (cells, css) => { for (const c of cells) if (!classes.has(c)) classes.set(c, css); };
  if (why.verdict === "none" && why.reasons.length) {
    const members = why.reasons[0].members;
    mark(members.filter((m) => m.kind === "given").flatMap((m) => m.cells), "sk-why-given");
    mark(members.filter((m) => m.kind !== "given").flatMap((m) => m.cells), "sk-why-rule");
  } else if (why.verdict === "several") {
    mark(why.unavoidable, "sk-why-unavoidable");
    mark(why.differ, "sk-why-differ");
    for (const f of why.fixes.length ? why.fixes : why.fix_set) fixes.set(f.cell, f.digit);
  }
  return {classes, fixes};
}

// The message of an /api/why answer: [text, error].
export function whyMessage(why) {
  if (why.verdict === "unique") return ["One solution: nothing to explain.", false];
  if (why.verdict === "none") {
    if (!why.reasons.length) return ["No solution, and no reason found in the time limit.", true];
    const first = why.reasons[0], members = first.members.map((m) => m.text).join(", ");
    const more = why.reasons.length > 1 ? ` (${why.reasons.length - 1} more reason` +
      `${why.reasons.length > 2 ? "s" : ""} apart from this one)` : "";
    return [`No solution: ${members} cannot hold together` +
            (first.contradiction ? `: ${plainWords(first.contradiction, false)}` : "") +
            `${more}. Ringed: the clues; outlined: the rules.`, true];
  }
  const fixes = why.fixes.length ? why.fixes : why.fix_set;
  const where = fixes.slice(0, 8).map((f) => f.text).join(", ");
  return [`Several solutions: they differ in the marked cells (${why.differ.length}), the ` +
          `strongly marked ones (${why.unavoidable.length}) can swap on their own. ` +
          (fixes.length ? `Add a clue here to make it unique: ${where}` +
            (fixes.length > 8 ? ` and ${fixes.length - 8} more` : "") +
            (why.fixes.length ? " (any one of them)." : " (all of them together).")
            : "No clue found that makes it unique."), true];
}
