// sudokit board: the marks of a cell, in SudokuPad's two kinds at once (Shift: corner, Ctrl:
// centre) next to the automatic candidates, and candidate colouring. Pure functions of the
// board's state (no drawing):
//   elim[cell]   digits removed from the cell's automatic candidates (by the player or a step)
//   pencil[cell] the player's corner marks, shown when automatic candidates are off
//   centre[cell] the player's centre marks, shown in the middle of the cell in both modes
//   paint[cell]  [[digit, colour], ...]: candidates coloured (colour 1..6 of the palette)
// With automatic candidates on, a corner mark (Shift+digit) takes the candidate out (or puts
// it back): the candidates stay the automatic ones less the removed, so they stay right
// whatever digit is placed, changed or erased.

import { autoCandidates, candidatesOf, digitAt } from "./grid.js";

export const MARK_LISTS = ["elim", "pencil", "centre", "paint"];

function toggle(lists, cell, digit) {
  const now = lists[cell];
  lists[cell] = now.includes(digit) ? now.filter((x) => x !== digit)
    : [...now, digit].sort((a, b) => a - b);
}

// Enter `digit` in an open `cell` as `kind` ("digit", "corner", "centre", "paint"); digit 0
// clears the cell's digit, else its marks. Returns whether the state changed.
export function enterCell(state, cell, digit, kind) {
  if (!digit) return state.values[cell] ? ((state.values[cell] = 0), true) : resetCell(state, cell);
  if (kind === "digit") {
    state.values[cell] = state.values[cell] === digit ? 0 : digit;
    return true;
  }
  if (state.values[cell]) return false;
  if (kind === "centre") { toggle(state.centre, cell, digit); return true; }
  if (kind === "paint") {
    const had = state.paint[cell].find(([d]) => d === digit);
    const rest = state.paint[cell].filter(([d]) => d !== digit);
    state.paint[cell] = had && had[1] === state.paintColour ? rest
      : [...rest, [digit, state.paintColour]].sort((a, b) => a[0] - b[0]);
    return true;
  }
  if (!state.auto) { toggle(state.pencil, cell, digit); return true; }
  const auto = autoCandidates(state.geo, state.values, cell);
  if (!auto.includes(digit) && !state.elim[cell].includes(digit)) return false;
  toggle(state.elim, cell, digit);
  return true;
}

// The cell's marks back to its automatic candidates: removals, corner and centre marks and
// candidate colours gone. Returns whether anything changed.
export function resetCell(state, cell) {
  if (MARK_LISTS.every((name) => !state[name][cell].length)) return false;
  for (const name of MARK_LISTS) state[name][cell] = [];
  return true;
}

// What an open cell shows: corner (the candidates with auto on, else the player's corner
// marks, or the puzzle's given candidates while the player has none there), centre (the
// player's centre marks), paint (digit -> colour); grid: the corner digits in their keypad
// places (candidates, no centre marks) rather than SudokuPad's corners. A pencil-mark (Sukaku)
// puzzle's given candidates are the cell's `geo.allowed`, so automatic ones never show more.
export function cellMarks(state, values, cell) {
  if (digitAt(state.geo, values, cell)) return {corner: [], centre: [], paint: new Map(), grid: true};
  const given = (state.geo.given_candidates || [])[cell];
  const keypad = state.auto || (!!given && !state.pencil[cell].length);
  const corner = state.auto ? candidatesOf(state.geo, values, state.elim, cell)
    : keypad ? given : state.pencil[cell];
  const centre = state.centre[cell] || [];
  return {corner, centre, paint: new Map(state.paint[cell] || []), grid: keypad && !centre.length};
}

// Where corner mark number i (0-based, in ascending digit order) of `count` sits in a cell of
// `size` drawing units inside `pad` (left, top, right, bottom), in SudokuPad's order: the four
// corners, then the middles of the top, bottom, left and right edges; null past eight (the
// keypad places are used then).
export function cornerPlace(i, count, pad, size = 40) {
  if (count > 8) return null;
  const [l, t, r, b] = pad.map((p) => p + 4), right = size - r, bottom = size - b, mid = size / 2;
  return [[l, t], [right, t], [l, bottom], [right, bottom], [mid, t], [mid, bottom], [l, mid],
          [right, mid]][i];
}

// The link's form of the candidate colours: per cell "d k d k ..." as symbol + colour digit.
export function packPaint(paint, symbols) {
  return paint.map((p) => p.map(([d, k]) => symbols[d - 1] + k).join("")).join(",");
}

export function unpackPaint(text, symbols) {
  return text.split(",").map((p) => [...p.matchAll(/(.)(\d)/g)]
    .map((m) => [symbols.indexOf(m[1]) + 1, +m[2]]));
}
