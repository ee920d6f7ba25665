// sudokit board: what a key press asks of the board, as a command ({name, ...}), or null.
// Pure: board.js runs the command.

import { SYMBOLS } from "./layout.js";

const MOVES = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

// Keys a notebook keeps for itself while the board has focus: run the cell, save, ...
export function notebookKey(e) {
  return (e.key === "Enter" && (e.shiftKey || e.ctrlKey || e.metaKey)) ||
    ((e.ctrlKey || e.metaKey) && !["z", "y"].includes(e.key.toLowerCase()));
}

// The command of key event `e` on a board of `side` digits: undo, redo, back (Esc), apply,
// move {dr, dc}, enter {digit, pencil} (digit 0 clears), colour {k}, hint; null for a key the board leaves.
export function keyCommand(e, side) {
  const key = e.key, mod = e.ctrlKey || e.metaKey;
  const colour = /^Digit([0-6])$/.exec(e.code);
  if (e.altKey) return colour && !mod ? {name: "colour", k: +colour[1]} : null;
  if (mod && key.toLowerCase() === "z") return {name: e.shiftKey ? "redo" : "undo"};
  if (mod && key.toLowerCase() === "y") return {name: "redo"};
  if (mod) return null;
  if (key === "Escape") return {name: "back"};
  const onControl = e.target.closest && e.target.closest("button, summary, li, a");
  if (onControl && (key === "Enter" || key === " ")) return null;  // the control's own click
  if (key === "Enter") return e.shiftKey ? null : {name: "apply"};
  if (MOVES[key]) return {name: "move", dr: MOVES[key][0], dc: MOVES[key][1]};
  if (["Backspace", "Delete", "0"].includes(key)) return {name: "enter", digit: 0, pencil: false};
  const code = /^Digit(\d)$/.exec(e.code);  // Shift+digit still names the digit here
  let digit = code && side <= 9 ? +code[1] : SYMBOLS.indexOf(key) + 1;
  if (side > 9 && side <= 35) digit = SYMBOLS.slice(0, side).toUpperCase().indexOf(key.toUpperCase()) + 1;
  if (digit >= 1 && digit <= side) return {name: "enter", digit, pencil: e.shiftKey};
  if (key.toLowerCase() === "h" && side < 17) return {name: "hint"};
  return null;
}
