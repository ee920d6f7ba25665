// sudokit board: what a key press asks of the board, as a command ({name, ...}), or null
// (pure: board.js runs the command); and the pointer's selection of cells.

import { SYMBOLS } from "./layout.js";

const MOVES = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

// Keys a notebook keeps for itself while the board has focus: run the cell, save, ...
export function notebookKey(e) {
  return (e.key === "Enter" && (e.shiftKey || e.ctrlKey || e.metaKey)) ||
    ((e.ctrlKey || e.metaKey) && !["z", "y"].includes(e.key.toLowerCase()) && !/^Digit\d$/.test(e.code));
}

// The command of key event `e` on a board of `side` digits: undo, redo, back (Esc), apply,
// move {dr, dc}, enter {digit, kind} (digit 0 clears; kind "corner" with Shift, "centre" with
// Ctrl as in SudokuPad, else none: the mode box says), colour {k}, hint; null for a key the
// board leaves.
export function keyCommand(e, side) {
  const key = e.key, mod = e.ctrlKey || e.metaKey;
  const colour = /^Digit([0-6])$/.exec(e.code);
  if (e.altKey) return colour && !mod ? {name: "colour", k: +colour[1]} : null;
  if (mod && key.toLowerCase() === "z") return {name: e.shiftKey ? "redo" : "undo"};
  if (mod && key.toLowerCase() === "y") return {name: "redo"};
  const centre = mod && /^Digit(\d)$/.exec(e.code);  // Ctrl+digit: a centre mark
  if (centre && +centre[1] >= 1 && +centre[1] <= Math.min(side, 9)) {
    return {name: "enter", digit: +centre[1], kind: "centre"};
  }
  if (mod) return null;
  if (key === "Escape") return {name: "back"};
  const onControl = e.target.closest && e.target.closest("button, summary, li, a");
  if (onControl && (key === "Enter" || key === " ")) return null;  // the control's own click
  if (key === "Enter") return e.shiftKey ? null : {name: "apply"};
  if (MOVES[key]) return {name: "move", dr: MOVES[key][0], dc: MOVES[key][1]};
  if (["Backspace", "Delete", "0"].includes(key)) return {name: "enter", digit: 0};
  const code = /^Digit(\d)$/.exec(e.code);  // Shift+digit still names the digit here
  let digit = code && side <= 9 ? +code[1] : SYMBOLS.indexOf(key) + 1;
  if (side > 9 && side <= 35) digit = SYMBOLS.slice(0, side).toUpperCase().indexOf(key.toUpperCase()) + 1;
  if (digit >= 1 && digit <= side) return {name: "enter", digit, kind: e.shiftKey ? "corner" : undefined};
  if (key.toLowerCase() === "h" && side < 17) return {name: "hint"};
  return null;
}

// The pointer on the board: a press selects a cell (Ctrl/Shift: adds it), a drag selects the
// cells it passes; select(cell, add) is the board's.
export function wirePointer(board, state, select) {
  let dragging = false;
  board.addEventListener("pointerdown", (e) => {
    const g = e.target.closest(".sk-cell");
    if (!g) return;
    dragging = true;
    select(+g.dataset.cell, e.ctrlKey || e.metaKey || e.shiftKey);
    board.focus();
    e.preventDefault();
  });
  board.addEventListener("pointerover", (e) => {
    const g = dragging && e.buttons && e.target.closest(".sk-cell");
    if (g && !state.selection.includes(+g.dataset.cell)) select(+g.dataset.cell, true);
  });
  document.addEventListener("pointerup", () => { dragging = false; });
}
