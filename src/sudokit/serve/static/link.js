// sudokit board: the share link, the address's `#` part: p (the puzzle as given), v (variant),
// b (box), g (the user's digits), e (digits removed per cell), n (the user's own marks),
// a=0 (automatic candidates off), c (a colour per cell, 0 none), m (centre marks per cell), k
// (coloured candidates: per cell the candidate's symbol and its colour), x or t (the techniques
// the solver may use: the names turned off, or those left on; steps.js). Pure.

import { SYMBOLS } from "./layout.js";
import { packLists, unpackLists } from "./grid.js";
import { packPaint, unpackPaint } from "./marks.js";

export function linkOf(state) {
  const short = state.linkText;  // {text, variant}: the same board in fewer characters
  const p = new URLSearchParams({p: short ? short.text : state.text});
  const variant = short ? short.variant : state.variant;
  if (variant !== "standard") p.set("v", variant);
  if (state.box) p.set("b", state.box);
  if (state.values.some((d) => d)) p.set("g", state.values.map((d) => SYMBOLS[d - 1] || ".").join(""));
  if (state.elim.some((m) => m.length)) p.set("e", packLists(state.elim));
  if (state.pencil.some((m) => m.length)) p.set("n", packLists(state.pencil));
  if (state.centre.some((m) => m.length)) p.set("m", packLists(state.centre));
  if (state.paint.some((m) => m.length)) p.set("k", packPaint(state.paint, SYMBOLS));
  if (!state.auto) p.set("a", "0");
  if (state.colours.some((k) => k)) p.set("c", state.colours.join(""));
  if (state.choice) p.set(...state.choice);
  return "#" + p.toString();
}

// The board's link kept in the address (options.link), or not.
export function keepLink(state, options) {
  if (options.link) history.replaceState(history.state, "", location.pathname + location.search + linkOf(state));
}

// What a link holds: {text, variant, box, choice, saved: {values, elim, pencil, auto, ...}}, or null.
export function readLink(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  if (!p.get("p")) return null;
  const choice = ["x", "t"].filter((k) => p.has(k)).map((k) => [k, p.get(k)])[0] || null;
  return {text: p.get("p"), variant: p.get("v"), box: p.get("b"), choice, saved: {
    values: p.get("g") ? [...p.get("g")].map((s) => SYMBOLS.indexOf(s) + 1) : null,
    elim: p.get("e") ? unpackLists(p.get("e")) : null,
    pencil: p.get("n") ? unpackLists(p.get("n")) : null,
    centre: p.get("m") ? unpackLists(p.get("m")) : null,
    paint: p.get("k") ? unpackPaint(p.get("k"), SYMBOLS) : null,
    auto: p.get("a") !== "0",
    colours: p.get("c") ? [...p.get("c")].map(Number) : null,
  }};
}
