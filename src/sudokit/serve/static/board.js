// sudokit board: the controls, the state (digits, pencil marks, undo), drawn into the SVG board
// of sudokit.present.svg, and the calls of the JSON API. One ES module, no build step, no
// library, shared by the page (page.js: the API over HTTP, /api/...) and the notebook widget
// (widget.js: the same calls answered by the Jupyter kernel).

const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@#";
const CELL = 40, MARGIN = 4;  // drawing units of sudokit.present.svg
const SVG_NS = "http://www.w3.org/2000/svg";

// The controls, put in the element the board is created in (ids are looked up inside it).
export const LAYOUT = `
  <section id="left">
    <div class="row"><span id="shape"></span><span id="status" role="status"></span></div>
    <div id="board" tabindex="0" aria-label="Sudoku board: click a cell, type a digit"></div>
    <div id="pad"></div>
    <div class="row">
      <label><input type="checkbox" id="pencil"> pencil marks (or hold Shift)</label>
      <label><input type="checkbox" id="auto" checked> auto candidates</label>
    </div>
    <div class="row">
      <button id="undo" title="Ctrl+Z">Undo</button>
      <button id="redo" title="Ctrl+Y">Redo</button>
      <button id="restart">Restart</button>
      <button id="share">Copy link</button>
    </div>
  </section>
  <section id="right">
    <details open id="load-box">
      <summary>Puzzle</summary>
      <textarea id="puzzle-text" rows="4" spellcheck="false"
        placeholder="Paste a puzzle: line form, a grid, an f-puzzles / SudokuPad link or JSON, a Janko file"></textarea>
      <div class="row">
        <label>variant <input id="variant" value="standard" size="14" list="variants"></label>
        <datalist id="variants"><option>standard</option><option>diagonal</option>
          <option>hyper</option><option>disjoint</option><option>anti-knight</option>
          <option>anti-king</option><option>non-consecutive</option><option>jigsaw</option>
          <option>killer</option><option>even-odd</option><option>samurai</option>
          <option>butterfly</option><option>sumo</option><option>windmill</option>
          <option>gattai-8</option><option>shogun</option><option>sohei</option>
          <option>clueless-1</option><option>clueless-2</option></datalist>
        <label>box <input id="box" placeholder="auto" size="4"></label>
        <button id="load">Load</button>
        <input type="file" id="file">
      </div>
      <div class="row">
        <label>size <select id="gen-size"><option>4</option><option>6</option>
          <option selected>9</option><option>12</option><option>16</option></select></label>
        <label>level <select id="gen-level"><option value="">any</option>
          <option>easy</option><option>medium</option><option>hard</option>
          <option>expert</option><option>extreme</option></select></label>
        <button id="generate">Generate</button>
      </div>
    </details>
    <div class="row">
      <button id="hint" title="H: first where to look, then the step">Hint</button>
      <button id="apply" disabled title="Enter">Apply step</button>
      <button id="explain">Explain all</button>
      <button id="rate">Rate</button>
      <button id="unique">Uniqueness</button>
      <button id="truecands" title="The digits each cell holds in some solution">True candidates</button>
    </div>
    <div class="row">
      <select id="method"></select>
      <button id="solve">Solve</button>
    </div>
    <div id="message"></div>
    <ol id="steps"></ol>
  </section>
`;

// The server's per-run token: taken from the page's address (?token=..., which `sudokit serve`
// prints) into this tab's storage, and out of the address, so a copied link never carries it.
let token = null;
function apiToken() {
  if (token !== null) return token;
  const params = new URLSearchParams(location.search);
  token = params.get("token") || "";
  try {
    if (token) sessionStorage.setItem("sudokit-token", token);
    else token = sessionStorage.getItem("sudokit-token") || "";
  } catch (e) { /* storage refused: the cookie the address set still serves */ }
  if (params.has("token")) {
    params.delete("token");
    const query = params.toString();
    history.replaceState(history.state, "",
                         location.pathname + (query ? `?${query}` : "") + location.hash);
  }
  return token;
}

// The API over HTTP: POST /api/NAME with a JSON body and the token; an error answer throws
// its message.
export async function fetchApi(name, body) {
  const response = await fetch(`/api/${name}`, {
    method: "POST", headers: {"Content-Type": "application/json", "X-Sudokit-Token": apiToken()},
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

// Create a board in `root`. options: api(name, body) -> Promise of the answer (fetchApi, or
// the widget's messages); link: keep the puzzle and progress in the address (#...); keys: the
// element whose key presses the board takes (default root); onRender(state): after each
// drawing. Returns {state, start, act}: start() loads the opening puzzle, act(name, args)
// runs a button's action ("hint", "apply", "undo", ...) or "enter" {cell, digit, pencil}.
export function createBoard(root, options) {
  const state = {
    text: "", variant: "standard", box: "",  // what was loaded (the puzzle as the user gave it)
    geo: null,         // the /api/parse answer: side, box, givens, peers, allowed, labels, svg
    values: [],        // digit per cell placed by the user (0 empty; givens apart)
    marks: [],         // per cell: null (automatic) or an array of pencil-mark digits
    selected: -1,
    undo: [], redo: [],
    hint: null, hintLevel: 0,   // the step of the last hint and how much of it is shown
    steps: null, viewing: -1,   // the explanation and the step shown from it (-1: own grid)
    timings: {},                // milliseconds of the last calls, read by the browser tests
  };
  let cells = [];  // SVG groups by cell index
  const actions = {};  // button name -> its action (set by start)
  const $ = (id) => root.querySelector(`#${id}`);

  async function api(name, body) {
    const started = performance.now();
    try {
      return await options.api(name, body || {});
    } finally {
      state.timings[name] = performance.now() - started;
    }
  }

  function say(text, error = false) {
    const box = $("message");
    box.textContent = text;
    box.className = error ? "error" : "";
  }

  async function guarded(action) {
    try { await action(); } catch (e) { say(e.message, true); }
  }

  function puzzleBody(extra = {}) {
    const body = {puzzle: state.text, variant: state.variant || "standard",
                  grid: state.values, ...extra};
    if (state.box) body.box = state.box;
    return body;
  }

  // -- loading -----------------------------------------------------------------------------------

  async function load(text, variant, box, values, marks) {
    const geo = await api("parse", {puzzle: text, variant: variant || "standard", box: box || null});
    Object.assign(state, {text, variant: variant || "standard", box: box || "", geo,
                          selected: -1, undo: [], redo: [], steps: null, viewing: -1});
    state.values = values && values.length === geo.n_cells ? values : geo.givens.map(() => 0);
    state.marks = marks && marks.length === geo.n_cells ? marks : geo.givens.map(() => null);
    $("board").innerHTML = geo.svg;
    cells = [];
    for (const g of $("board").querySelectorAll(".sk-cell")) cells[+g.dataset.cell] = g;
    $("shape").textContent = `${geo.shape}, ${geo.givens.filter((d) => d).length} givens`;
    $("puzzle-text").value = text;
    $("variant").value = state.variant;
    $("box").value = state.box;
    $("steps").innerHTML = "";
    buildPad();
    clearHint();
    render();
    say("Click a cell and type a digit; Shift+digit for a pencil mark; H for a hint.");
  }

  function buildPad() {
    const pad = $("pad");
    pad.innerHTML = "";
    for (let d = 1; d <= state.geo.side; d++) {
      const b = document.createElement("button");
      b.textContent = SYMBOLS[d - 1];
      b.onclick = (e) => enter(d, e.shiftKey);
      pad.appendChild(b);
    }
    const clear = document.createElement("button");
    clear.textContent = "⌫";
    clear.title = "Clear the cell (Backspace)";
    clear.onclick = () => enter(0, false);
    pad.appendChild(clear);
  }

  // -- the grid ----------------------------------------------------------------------------------

  function digitAt(values, cell) { return state.geo.givens[cell] || values[cell]; }

  function autoCandidates(values, cell) {
    const seen = new Set(state.geo.peers[cell].map((p) => digitAt(values, p)));
    return state.geo.allowed[cell].filter((d) => !seen.has(d));
  }

  function shownMarks(values, marks, cell) {
    if (digitAt(values, cell)) return [];
    if (marks[cell]) return marks[cell];
    return $("auto").checked ? autoCandidates(values, cell) : [];
  }

  function conflicts(values) {
    const bad = new Set();
    values.forEach((_, cell) => {
      const d = digitAt(values, cell);
      if (d && state.geo.peers[cell].some((p) => digitAt(values, p) === d)) bad.add(cell);
    });
    return bad;
  }

  function markPad() {  // left, top, right, bottom blank inside a cell (sudokit.present.svg)
    return $("board").querySelector("svg").dataset.pad.split(" ").map(Number);
  }

  function markPosition(d) {
    const [rows, cols] = state.geo.box, [left, top, right, bottom] = markPad();
    const r = Math.floor((d - 1) / cols), c = (d - 1) % cols;
    return [left + (c + 0.5) * (CELL - left - right) / cols,
            top + (r + 0.5) * (CELL - top - bottom) / rows];
  }

  function cellOrigin(cell) {
    const g = cells[cell];
    return [+g.dataset.col * CELL + MARGIN, +g.dataset.row * CELL + MARGIN];
  }

  function svgElement(name, attributes, text) {
    const e = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function drawMarks(group, digits, classes) {
    const holder = group.querySelector(".sk-marks");
    holder.replaceChildren();
    const [rows, cols] = state.geo.box, [left, top, right, bottom] = markPad();
    const w = (CELL - left - right) / cols, h = (CELL - top - bottom) / rows;
    for (const d of digits) {
      const [x, y] = markPosition(d);
      const extra = classes[d] || "";
      if (extra) holder.appendChild(svgElement("rect", {class: `sk-mark-bg ${extra}`,
        x: x - w / 2, y: y - h / 2, width: w, height: h}));
      holder.appendChild(svgElement("text", {class: `sk-mark ${extra}`, x, y}, SYMBOLS[d - 1]));
    }
  }

  // The view: the user's grid, or the board at a step of the explanation.
  function view() {
    if (state.viewing < 0) return {values: state.values, marks: state.marks, step: currentHint()};
    const values = state.geo.givens.map(() => 0);
    const steps = state.steps;
    for (let i = 0; i < state.viewing; i++) {
      for (const [cell, d] of steps[i].board.placements) values[cell] = d;
    }
    const before = state.viewing > 0 ? steps[state.viewing - 1].candidates : null;
    const marks = values.map((_, cell) => (before ? before[cell] : null));
    if (!before) {  // no candidates sent (a big grid): replay the eliminations
      for (let i = 0; i < state.viewing; i++) {
        for (const [cell, d] of steps[i].board.eliminations) {
          const now = marks[cell] || autoCandidates(values, cell);
          marks[cell] = now.filter((x) => x !== d);
        }
      }
    }
    return {values, marks, step: steps[state.viewing]};
  }

  function currentHint() {
    if (!state.hint || !state.hintLevel) return null;
    const b = state.hint.board;
    if (state.hintLevel === 1) return {cells: b.cells.length ? b.cells :
      b.placements.map((p) => p[0]), placements: [], eliminations: [], links: []};
    return b;
  }

  function render() {
    if (!state.geo) return;
    const {values, marks, step} = view();
    const bad = conflicts(values);
    const focus = new Set(step ? (step.board || step).cells : []);
    const board = step ? (step.board || step) : null;
    const placed = new Map((board ? board.placements : []).map(([c, d]) => [c, d]));
    const removed = new Map();
    for (const [c, d] of board ? board.eliminations : []) {
      if (!removed.has(c)) removed.set(c, new Set());
      removed.get(c).add(d);
    }
    const peers = state.selected >= 0 ? new Set(state.geo.peers[state.selected]) : new Set();
    cells.forEach((g, cell) => {
      const d = digitAt(values, cell);
      g.querySelector(".sk-digit").textContent = d ? SYMBOLS[d - 1] : "";
      g.classList.toggle("sk-conflict", bad.has(cell));
      g.classList.toggle("sk-focus", focus.has(cell));
      g.classList.toggle("sk-place", placed.has(cell));
      g.classList.toggle("sk-selected", cell === state.selected);
      g.classList.toggle("sk-peer", peers.has(cell) && cell !== state.selected);
      let digits = shownMarks(values, marks, cell);
      const classes = {};
      for (const x of removed.get(cell) || []) classes[x] = "sk-elim";
      if (placed.has(cell)) classes[placed.get(cell)] = "sk-keep";
      if (!d && (removed.has(cell) || placed.has(cell))) {
        digits = [...new Set([...digits, ...Object.keys(classes).map(Number)])].sort((a, b) => a - b);
      }
      drawMarks(g, digits, classes);
    });
    drawLinks(board ? board.links : []);
    $("undo").disabled = !state.undo.length;
    $("redo").disabled = !state.redo.length;
    $("apply").disabled = !(state.hint && state.viewing < 0);
    const filled = values.every((_, c) => digitAt(values, c));
    $("status").textContent = filled && !bad.size ? "solved!" : `${bad.size ? "conflicts" : ""}`;
    saveLink();
    if (options.onRender) options.onRender(state);
  }

  function drawLinks(links) {
    const layer = $("board").querySelector(".sk-links");
    layer.replaceChildren();
    for (const link of links) {
      const [a, b] = [link.from, link.to].map((node) => {
        const [x0, y0] = cellOrigin(node.cells[0]);
        const [x, y] = markPosition(node.digit);
        return [x0 + x, y0 + y];
      });
      layer.appendChild(svgElement("line", {class: `sk-link${link.kind === "weak" ? " sk-weak" : ""}`,
        x1: a[0], y1: a[1], x2: b[0], y2: b[1]}));
    }
  }

  // -- editing, undo -----------------------------------------------------------------------------

  function snapshot() {
    return {values: state.values.slice(), marks: state.marks.map((m) => (m ? m.slice() : null))};
  }

  function change(update) {
    state.undo.push(snapshot());
    state.redo = [];
    update();
    clearHint();
    render();
  }

  function travel(from, to) {
    if (!from.length) return;
    to.push(snapshot());
    Object.assign(state, from.pop());
    clearHint();
    render();
  }

  function materialize() {  // automatic candidates become explicit marks (before an elimination)
    state.marks = state.marks.map((m, cell) => (m ? m : (digitAt(state.values, cell) ? null
      : shownMarks(state.values, state.marks, cell))));
  }

  function enter(digit, pencil) {
    const cell = state.selected;
    if (cell < 0 || state.geo.givens[cell] || state.viewing >= 0) return;
    if (digit > state.geo.side) return;
    change(() => {
      if (pencil || $("pencil").checked) {
        if (!digit) { state.marks[cell] = []; return; }
        const now = shownMarks(state.values, state.marks, cell);
        state.marks[cell] = now.includes(digit) ? now.filter((x) => x !== digit)
          : [...now, digit].sort((a, b) => a - b);
        return;
      }
      state.values[cell] = state.values[cell] === digit ? 0 : digit;
      if (digit) {
        for (const p of state.geo.peers[cell]) {
          if (state.marks[p]) state.marks[p] = state.marks[p].filter((x) => x !== digit);
        }
      }
    });
  }

  function applyStep() {
    if (!state.hint) return;
    const b = state.hint.board;
    change(() => {
      materialize();
      for (const [cell, d] of b.eliminations) {
        if (state.marks[cell]) state.marks[cell] = state.marks[cell].filter((x) => x !== d);
      }
      for (const [cell, d] of b.placements) {
        state.values[cell] = d;
        for (const p of state.geo.peers[cell]) {
          if (state.marks[p]) state.marks[p] = state.marks[p].filter((x) => x !== d);
        }
      }
    });
    say(`Applied: ${b.placements.length} placed, ${b.eliminations.length} removed.`);
  }

  // -- hints, explanation, solving ---------------------------------------------------------------

  function clearHint() { state.hint = null; state.hintLevel = 0; }

  async function hint() {
    if (state.viewing >= 0) showStep(-1);
    if (state.hint && state.hintLevel === 1) {
      state.hintLevel = 2;
      const s = state.hint;
      say(`[${s.rating.toFixed(1)}] ${s.technique}: ${s.text}`);
      render();
      return;
    }
    const started = performance.now();
    const answer = await api("hint", puzzleBody({marks: state.marks}));
    if (!answer.step) { say("The grid is full."); return; }
    state.hint = answer.step;
    state.hintLevel = 1;
    render();
    state.timings.hintShown = performance.now() - started;
    const where = answer.step.cells.slice(0, 6).map(([r, c]) => `r${r}c${c}`).join(", ");
    say(`Try a ${answer.step.technique} (rating ${answer.step.rating.toFixed(1)})` +
        (where ? ` around the highlighted cells (${where}).` : ".") +
        " Hint again for the step itself.");
  }

  async function explain() {
    const answer = await api("explain", puzzleBody());
    state.steps = answer.steps;
    const list = $("steps");
    list.replaceChildren();
    answer.steps.forEach((s, i) => {
      const li = document.createElement("li");
      li.innerHTML = `<span class="rating">[${s.rating.toFixed(1)}]</span> `;
      li.appendChild(document.createTextNode(`${s.technique}: ${s.text}`));
      li.onclick = () => showStep(i);
      list.appendChild(li);
    });
    say(`Rating ${answer.rating.toFixed(1)} (${answer.hardest || "none"}), level ${answer.level},` +
        ` ${answer.steps.length} steps. Click a step to see the board there.`);
  }

  function showStep(i) {
    state.viewing = i;
    [...$("steps").children].forEach((li, k) => li.classList.toggle("current", k === i));
    if (i >= 0) {
      const s = state.steps[i];
      say(`Step ${i + 1}: [${s.rating.toFixed(1)}] ${s.technique}: ${s.text}\n(Esc: back to your grid)`);
    }
    render();
  }

  async function solve() {
    const method = $("method").value;
    const r = await api("solve", puzzleBody({method}));
    const counters = Object.entries(r.stats || {}).filter(([, v]) => v !== null && typeof v !== "object")
      .map(([k, v]) => `${k} ${v}`).join(", ");
    say(`${r.status} by ${r.method} in ${(r.seconds * 1000).toFixed(1)} ms` +
        (counters ? `; ${counters}` : "") + (r.error ? `\n${r.error}` : ""));
    if (r.grid) change(() => { state.values = r.grid.map((d, c) => (state.geo.givens[c] ? 0 : d)); });
  }

  async function rate() {
    const r = await api("rate", puzzleBody({grid: null}));
    say(`Rating ${r.rating.toFixed(1)} (${r.hardest || "none"}), level ${r.level}, ${r.steps} steps` +
        (r.unique ? "" : ", not unique"));
  }

  async function unique() {
    const r = await api("count", puzzleBody());
    say(r.unique ? "Exactly one solution from here." : r.solutions_found ? "Several solutions." :
        `No solution from here${r.error ? ": " + r.error : "."}`, !r.solutions_found);
  }

  async function trueCandidates() {
    const r = await api("candidates", puzzleBody({after: "true"}));
    if (!r.solutions_found) { say("No solution from here.", true); return; }
    change(() => {
      state.marks = r.candidates.map((c, cell) => (digitAt(state.values, cell) ? null : c));
    });
    say(`True candidates: the digits of each cell in ${r.solutions_found} solution` +
        `${r.solutions_found === 1 ? "" : "s"}${r.complete ? "" : " (some left undecided by the time limit)"}.`);
  }

  async function generate() {
    say("Generating...");
    const level = $("gen-level").value || null;
    const r = await api("generate", {size: +$("gen-size").value, level});
    await load(r.puzzle, "standard", "");
    say(`New puzzle: ${r.givens} givens` + (r.rating !== null ? `, rating ${r.rating} (${r.rater})` : ""));
  }

  // -- the share link ----------------------------------------------------------------------------

  function saveLink() {
    if (!options.link) return;
    const p = new URLSearchParams({p: state.text});
    if (state.variant !== "standard") p.set("v", state.variant);
    if (state.box) p.set("b", state.box);
    if (state.values.some((d) => d)) p.set("g", state.values.map((d) => SYMBOLS[d - 1] || ".").join(""));
    if (state.marks.some((m) => m)) p.set("m", state.marks.map((m) => (m ? m.map((d) => SYMBOLS[d - 1]).join("") || "-" : ".")).join(","));
    history.replaceState(null, "", "#" + p.toString());
  }

  async function loadLink() {
    if (!options.link) return false;
    const p = new URLSearchParams(location.hash.slice(1));
    if (!p.get("p")) return false;
    const values = p.get("g") ? [...p.get("g")].map((s) => SYMBOLS.indexOf(s) + 1) : null;
    const marks = p.get("m") ? p.get("m").split(",").map((m) => (m === "." ? null
      : m === "-" ? [] : [...m].map((s) => SYMBOLS.indexOf(s) + 1))) : null;
    await load(p.get("p"), p.get("v"), p.get("b"), values, marks);
    return true;
  }

  // -- input -------------------------------------------------------------------------------------

  function onKey(e) {
    if (!state.geo || e.target.closest("textarea, input, select")) return;
    const side = state.geo.side, mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === "z") { travel(state.undo, state.redo); e.preventDefault(); return; }
    if (mod && e.key.toLowerCase() === "y") { travel(state.redo, state.undo); e.preventDefault(); return; }
    if (e.key === "Escape") { showStep(-1); return; }
    if (e.key === "Enter") { applyStep(); return; }
    const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
    if (moves[e.key] && state.selected >= 0) {
      move(...moves[e.key]);
      e.preventDefault();
      return;
    }
    if (["Backspace", "Delete", "0"].includes(e.key)) { enter(0, false); return; }
    const code = /^Digit(\d)$/.exec(e.code);  // Shift+digit still names the digit here
    let digit = code && side <= 9 ? +code[1] : SYMBOLS.indexOf(e.key) + 1;
    if (side > 9 && side <= 35) digit = SYMBOLS.slice(0, side).toUpperCase().indexOf(e.key.toUpperCase()) + 1;
    if (digit >= 1 && digit <= side) { enter(digit, e.shiftKey); e.preventDefault(); return; }
    if (e.key.toLowerCase() === "h" && side < 17) guarded(hint);
  }

  function move(dr, dc) {
    const g = cells[state.selected];
    const r = +g.dataset.row + dr, c = +g.dataset.col + dc;
    const next = cells.findIndex((x) => +x.dataset.row === r && +x.dataset.col === c);
    if (next >= 0) { state.selected = next; render(); }
  }

  async function start() {
    $("board").addEventListener("click", (e) => {
      const g = e.target.closest(".sk-cell");
      if (!g) return;
      state.selected = +g.dataset.cell;
      $("board").focus();
      render();
    });
    (options.keys || root).addEventListener("keydown", onKey);
    const buttons = {load: () => load($("puzzle-text").value, $("variant").value, $("box").value),
                     hint, apply: applyStep, explain, solve, rate, unique, generate,
                     truecands: trueCandidates,
                     undo: () => travel(state.undo, state.redo), redo: () => travel(state.redo, state.undo),
                     restart: () => change(() => { state.values.fill(0); state.marks.fill(null); }),
                     share: async () => { await navigator.clipboard?.writeText(location.href); say("Link copied: it holds the puzzle and your progress."); }};
    Object.assign(actions, buttons);
    for (const [id, action] of Object.entries(buttons)) $(id).onclick = () => guarded(action);
    $("share").hidden = !options.link;
    $("auto").onchange = render;
    $("file").onchange = async (e) => {
      const file = e.target.files[0];
      if (file) guarded(async () => load(await file.text(), $("variant").value, $("box").value));
    };
    const methods = await api("methods", {});
    for (const m of methods.methods.filter((x) => x.available)) {
      const o = new Option(`${m.name}`, m.name, false, m.name === methods.default);
      o.title = m.summary;
      $("method").add(o);
    }
    if (!(await loadLink())) {
      const opening = await api("opening", {}).catch(() => ({}));
      await load(opening.puzzle || ".".repeat(81), opening.variant, "");
    }
    state.timings.pageReady = performance.now();
  }

  // What a program asks of the board (the notebook kernel): a button's action, or a digit.
  async function act(name, args = {}) {
    if (name === "enter") {
      state.selected = args.cell;
      enter(args.digit, !!args.pencil);
      return;
    }
    if (!actions[name]) throw new Error(`no action ${name}`);
    await guarded(actions[name]);
  }

  root.classList.add("sk-app");
  root.innerHTML = LAYOUT;
  return {state, start: () => guarded(start), act};
}
