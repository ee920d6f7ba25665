// sudokit board: cell colours (a small palette, Alt+1..6) and the board saved as a picture
// (SVG as drawn, or PNG at twice its size).

export const PALETTE = ["#f9c8c8", "#fbe0a8", "#fff3a0", "#c7f0d2", "#c8dcfb", "#e2cdf7"];

// The palette's buttons in `row`: pick(k) on a click, k = 1..6, 0 clears.
export function buildPalette(row, pick) {
  row.replaceChildren();
  PALETTE.forEach((colour, k) => {
    const b = document.createElement("button");
    b.className = "sk-swatch";
    b.style.background = colour;
    b.setAttribute("aria-label", `colour ${k + 1} (Alt+${k + 1})`);
    b.title = `Colour the selected cells (Alt+${k + 1})`;
    b.onclick = () => pick(k + 1);
    b.tabIndex = -1;  // the keyboard colours with Alt+digit
    row.appendChild(b);
  });
  const clear = document.createElement("button");
  clear.textContent = "no colour";
  clear.title = "Take the colour off the selected cells (Alt+0)";
  clear.onclick = () => pick(0);
  clear.tabIndex = -1;
  row.appendChild(clear);
}

// The colours in a cell's background (drawn under the highlights).
export function paintColours(cells, colours) {
  cells.forEach((g, cell) => {
    const k = colours[cell] || 0;
    g.classList.toggle("sk-coloured", k > 0);
    if (k) g.style.setProperty("--sk-colour", PALETTE[k - 1]); else g.style.removeProperty("--sk-colour");
  });
}

// The board as a file: "svg" (the document as drawn) or "png"; resolves to a Blob.
export async function picture(svg, kind) {
  const copy = svg.cloneNode(true);
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  for (const g of copy.querySelectorAll(".sk-coloured")) {
    g.querySelector(".sk-bg")?.setAttribute("style", `fill:${g.style.getPropertyValue("--sk-colour")};fill-opacity:1`);
  }
  const text = new XMLSerializer().serializeToString(copy);
  const blob = new Blob([text], {type: "image/svg+xml"});
  if (kind === "svg") return blob;
  const image = new Image();
  const url = URL.createObjectURL(blob);
  await new Promise((resolve, reject) => { image.onload = resolve; image.onerror = reject; image.src = url; });
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  const canvas = Object.assign(document.createElement("canvas"), {width: width * 2, height: height * 2});
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  URL.revokeObjectURL(url);
  return await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}

// Offer a Blob as a download named `name`.
export function download(blob, name) {
  const a = Object.assign(document.createElement("a"), {href: URL.createObjectURL(blob), download: name});
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
