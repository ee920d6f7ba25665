// sudokit board: the share link, the address's `#` part: p (the puzzle as given), v (variant),
// b (box), g (the user's digits), e (digits removed per cell), n (the user's own marks),
// a=0 (automatic candidates off), c (a colour per cell, 0 none). Pure.

import { SYMBOLS } from "./layout.js";
import { packLists, unpackLists } from "./grid.js";

export function linkOf(state) {
  const short = state.linkText;  // {text, variant}: the same board in fewer characters
  const p = new URLSearchParams({p: short ? short.text : state.text});
  const variant = short ? short.variant : state.variant;
  if (variant !== "standard") p.set("v", variant);
  if (state.box) p.set("b", state.box);
  if (state.values.some((d) => d)) p.set("g", state.values.map((d) => SYMBOLS[d - 1] || ".").join(""));
  if (state.elim.some((m) => m.length)) p.set("e", packLists(state.elim));
  if (state.pencil.some((m) => m.length)) p.set("n", packLists(state.pencil));
  if (!state.auto) p.set("a", "0");
  if (state.colours.some((k) => k)) p.set("c", state.colours.join(""));
  return "#" + p.toString();
}

// What a link holds: {text, variant, box, saved: {values, elim, pencil, auto}}, or null.
export function readLink(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  if (!p.get("p")) return null;
  return {text: p.get("p"), variant: p.get("v"), box: p.get("b"), saved: {
    values: p.get("g") ? [...p.get("g")].map((s) => SYMBOLS.indexOf(s) + 1) : null,
    elim: p.get("e") ? unpackLists(p.get("e")) : null,
    pencil: p.get("n") ? unpackLists(p.get("n")) : null,
    auto: p.get("a") !== "0",
    colours: p.get("c") ? [...p.get("c")].map(Number) : null,
  }};
}
