// sudokit board: what the grid holds, computed from the /api/parse answer (`geo`: givens,
// peers, allowed digits per cell, labels) and the user's state. Pure functions, no drawing.
//
// The user's candidates are never stored whole: a cell's candidates are its automatic ones
// (allowed digits no peer holds) less the digits removed from it (`elim`, by the user or by an
// applied step), so they stay right whatever digit is placed, changed or erased.

import { SYMBOLS } from "./layout.js";

export function digitAt(geo, values, cell) { return geo.givens[cell] || values[cell]; }

// Allowed digits of `cell` that no peer holds (givens and the user's digits), ascending.
export function autoCandidates(geo, values, cell) {
  const seen = new Set(geo.peers[cell].map((p) => digitAt(geo, values, p)));
  return geo.allowed[cell].filter((d) => !seen.has(d));
}

// The candidates of an open cell: its automatic ones less those removed (elim[cell]).
export function candidatesOf(geo, values, elim, cell) {
  const auto = autoCandidates(geo, values, cell);
  return elim[cell] && elim[cell].length ? auto.filter((d) => !elim[cell].includes(d)) : auto;
}

// The `marks` field of the API: per cell the candidates where some were removed, else null
// (the automatic ones); filled cells null.
export function apiMarks(geo, values, elim) {
  return values.map((_, cell) => (digitAt(geo, values, cell) || !(elim[cell] && elim[cell].length)
    ? null : candidatesOf(geo, values, elim, cell)));
}

// Cells whose digit a peer also holds.
export function conflicts(geo, values) {
  const bad = new Set();
  values.forEach((_, cell) => {
    const d = digitAt(geo, values, cell);
    if (d && geo.peers[cell].some((p) => digitAt(geo, values, p) === d)) bad.add(cell);
  });
  return bad;
}

export function isFull(geo, values) { return values.every((_, c) => digitAt(geo, values, c)); }

// The board at step i of an explanation made from `from` (the user's digits and removals when
// Explain was asked): its digits, and the candidates before the step (sent with the steps, or
// replayed from the eliminations on big grids).
export function explanationView(geo, from, steps, i) {
  const values = from.values.slice();
  for (let k = 0; k < i; k++) for (const [cell, d] of steps[k].board.placements) values[cell] = d;
  const before = i > 0 ? steps[i - 1].candidates : null;
  if (before) return {values, marks: before.map((m) => m || [])};
  const elim = from.elim.map((e) => (e ? e.slice() : []));
  for (let k = 0; k < i; k++) for (const [cell, d] of steps[k].board.eliminations) elim[cell].push(d);
  return {values, marks: values.map((_, c) => candidatesOf(geo, values, elim, c))};
}

// The cells of the house a step's text names ("in box 4", "in row 3", "in column 5") around
// `cell`, on a grid of regular boxes; [] when the text names none or the boxes are irregular.
export function houseNamed(geo, cellsByIndex, text, cell) {
  const found = /\bin (row|column|box) (\d+)/.exec(text || "");
  const g = cellsByIndex[cell];
  if (!found || !g) return [];
  const [rows, cols] = geo.box, r = +g.dataset.row, c = +g.dataset.col;
  const same = {
    row: (x) => +x.dataset.row === r,
    column: (x) => +x.dataset.col === c,
    box: (x) => Math.floor(+x.dataset.row / rows) === Math.floor(r / rows) &&
      Math.floor(+x.dataset.col / cols) === Math.floor(c / cols),
  }[found[1]];
  if (found[1] === "box" && /jigsaw|irregular/.test(geo.variant)) return [];
  const peers = new Set([cell, ...geo.peers[cell]]);
  return cellsByIndex.map((x, k) => (x && peers.has(k) && same(x) ? k : -1)).filter((k) => k >= 0);
}

// What a screen reader says of a cell: "r1c2, empty, candidates 1 6 7 9, centre 1 6",
// "r1c1, given 4"; a pencil-mark puzzle's cell names the candidates the puzzle gives, then
// those shown when fewer ("r1c2, empty, given candidates 1 2 6, candidates 1 6").
export function cellLabel(geo, values, shown, cell, centre = []) {
  const label = geo.labels[cell], words = (ds) => ds.map((d) => SYMBOLS[d - 1]).join(" ");
  if (geo.givens[cell]) return `${label}, given ${SYMBOLS[geo.givens[cell] - 1]}`;
  if (values[cell]) return `${label}, ${SYMBOLS[values[cell] - 1]}`;
  const given = (geo.given_candidates || [])[cell], marks = words(shown), middle = words(centre);
  const start = given ? `, given candidates ${words(given)}` : "";
  const now = marks && (!given || marks !== words(given)) ? `, candidates ${marks}` : "";
  return `${label}, empty${start}${now}${middle ? `, centre ${middle}` : ""}`;
}

// A list of per-cell digit lists in a link: "." none, "-" empty list, else the symbols.
export function packLists(lists) {
  return lists.map((m) => (!m ? "." : m.length ? m.map((d) => SYMBOLS[d - 1]).join("") : "-"))
    .join(",");
}

export function unpackLists(text) {
  return text.split(",").map((m) => (m === "." ? null : m === "-" ? []
    : [...m].map((s) => SYMBOLS.indexOf(s) + 1)));
}
