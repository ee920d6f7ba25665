// sudokit board: drawing into the SVG board of sudokit.present.svg (cells are `.sk-cell`
// groups with data-cell, data-row, data-col; `.sk-marks` and `.sk-links` layers are empty).

import { SYMBOLS } from "./layout.js";
import { cornerPlace } from "./marks.js";
import { PALETTE } from "./picture.js";

const CELL = 40, MARGIN = 4;  // drawing units of sudokit.present.svg
const SVG_NS = "http://www.w3.org/2000/svg";

// The left, top, right, bottom blank inside the cell group `g`: the board's, or the cell's own
// where a glyph reaches into it (a quadruple's circle, a chevron: present/svg.py mark_pad).
function markPad(svg, g) {
  return (g.dataset.pad || svg.dataset.pad).split(" ").map(Number);
}

// Where digit d's pencil mark sits inside the cell `g`, in drawing units from its corner.
function markPosition(svg, box, d, g) {
  const [rows, cols] = box, [left, top, right, bottom] = markPad(svg, g);
  const r = Math.floor((d - 1) / cols), c = (d - 1) % cols;
  return [left + (c + 0.5) * (CELL - left - right) / cols,
          top + (r + 0.5) * (CELL - top - bottom) / rows];
}

function svgElement(name, attributes, text) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// The marks of the cell group `g` (marks.js cellMarks: corner, centre, paint, grid);
// classes[d]: extra class of digit d ("sk-elim", "sk-keep", "sk-fix"). Colours and places are
// attributes, so a saved picture keeps them.
export function drawMarks(svg, box, g, shown, classes) {
  const holder = g.querySelector(".sk-marks");
  holder.replaceChildren();
  const [rows, cols] = box, pad = markPad(svg, g), [left, top, right, bottom] = pad;
  const w = (CELL - left - right) / cols, h = (CELL - top - bottom) / rows;
  shown.corner.forEach((d, i) => {
    const at = shown.grid ? null : cornerPlace(i, shown.corner.length, pad, CELL);
    const [x, y] = at || markPosition(svg, box, d, g);
    const extra = classes[d] || "", paint = shown.paint.get(d);
    if (extra || paint) {
      holder.appendChild(svgElement("rect", {class: `sk-mark-bg ${extra}`, x: x - w / 2, y: y - h / 2,
        width: w, height: h, ...(paint && !extra ? {fill: PALETTE[paint - 1], "data-paint": paint} : {})}));
    }
    holder.appendChild(svgElement("text", {class: `sk-mark ${extra}${at ? " sk-corner" : ""}`, x, y},
                                  SYMBOLS[d - 1]));
  });
  if (shown.centre.length) {
    const text = shown.centre.map((d) => SYMBOLS[d - 1]).join("");
    holder.appendChild(svgElement("text", {class: "sk-centre", x: CELL / 2, y: CELL / 2 + 1,
      "text-anchor": "middle", "dominant-baseline": "central", fill: "#2b6cb0",
      "font-size": Math.min(13, 36 / (text.length * 0.62)).toFixed(1)}, text));
  }
}

// A chain's links, candidate to candidate (weak links dashed); cells: groups by index.
export function drawLinks(svg, box, cells, links) {
  const layer = svg.querySelector(".sk-links");
  layer.replaceChildren();
  for (const link of links) {
    const [a, b] = [link.from, link.to].map((node) => {
      const g = cells[node.cells[0]];
      const [x, y] = markPosition(svg, box, node.digit, g);
      return [+g.dataset.col * CELL + MARGIN + x, +g.dataset.row * CELL + MARGIN + y];
    });
    layer.appendChild(svgElement("line", {class: `sk-link${link.kind === "weak" ? " sk-weak" : ""}`,
      x1: a[0], y1: a[1], x2: b[0], y2: b[1]}));
  }
}

// Accessible names: the board a group, each cell an image named by its label and content;
// ids for aria-activedescendant (prefix: one per board, a notebook may hold several).
export function labelCells(svg, cells, prefix) {
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "cells");
  cells.forEach((g, cell) => {
    g.id = `${prefix}-cell-${cell}`;
    g.setAttribute("role", "img");
  });
}
