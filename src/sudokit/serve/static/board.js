// sudokit board: the controls, the state (digits, removed candidates, pencil marks, undo),
// drawn into the SVG board of sudokit.present.svg, and the calls of the JSON API. ES modules,
// no build step, no library (layout.js: the HTML and the words; grid.js: the candidates and
// checks; draw.js: the SVG; keys.js: what a key asks; link.js: the share link), shared by the page (page.js: the API over HTTP, /api/...) and the
// notebook widget (widget.js: the same calls answered by the Jupyter kernel).

import { LAYOUT, SYMBOLS, buildPad, cellsNamed, fillSteps, hintMessage, loadMessage,
         plainWords, shapeWords, stuckWords } from "./layout.js";
import { apiMarks, cellLabel, conflicts, digitAt, explanationView, houseNamed,
         isFull } from "./grid.js";
import { MARK_LISTS, cellMarks, enterCell, resetCell } from "./marks.js";
import { drawLinks, drawMarks, labelCells } from "./draw.js";
import { NO_CHECK, brokenMessage, checkOf, whyMarks, whyMessage } from "./verdict.js";
import { keyCommand, notebookKey, wirePointer } from "./keys.js";
import { keepLink, readLink } from "./link.js";
import { buildPicker, choiceLink, choiceWords, setChoice, techniqueFields } from "./steps.js";
import { generate, rate, solve, trueCandidates, unique } from "./actions.js";
import { buildPalette, download, paintColours, picture } from "./picture.js";

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

const ON_PUZZLE = new Set(["hint", "apply", "explain", "solve", "rate", "unique", "truecands", "why"]);
const WHY_CLASSES = ["sk-why-given", "sk-why-rule", "sk-why-differ", "sk-why-unavoidable"];
const SHOW_BUSY_AFTER = 250;  // ms: an action longer than this shows that it is working
let boardCount = 0;

// Create a board in `root`. options: api(name, body) -> Promise of the answer (fetchApi, or
// the widget's messages); link: keep the puzzle and progress in the address (#...); keys: the
// element whose key presses the board takes (default root); isolateKeys: the keys the board
// receives go no further (a notebook's shortcuts); onRender(state): after each drawing.
// Returns {state, start, act}: start() loads the opening puzzle, act(name, args) runs a
// button's action ("hint", "apply", "undo", ...) or "enter" {cell, digit, kind or pencil}, "select"
// {cell} and resolves when it is done.
export function createBoard(root, options) {
  const state = {
    text: "", variant: "standard", box: "",  // what was loaded (the puzzle as the user gave it)
    geo: null,         // the /api/parse answer: side, box, givens, peers, allowed, labels, svg
    values: [],        // digit per cell placed by the user (0 empty; givens apart)
    elim: [],          // per cell: digits removed from its automatic candidates (user, steps)
    pencil: [],        // per cell: the user's corner marks, shown when auto candidates are off
    centre: [],        // per cell: the user's centre marks (marks.js)
    paint: [],         // per cell: [digit, colour] of the coloured candidates
    paintColour: 1,    // the colour a candidate gets in the "candidate colours" mode
    auto: true,        // candidates shown: automatic less the removed (else the user's marks)
    marks: [],         // per cell the candidates hints work from, null: the automatic ones
    colours: [],       // per cell: 0 or a colour of the palette (1..6)
    selected: -1, selection: [], version: 0,  // the cursor, the cells selected; +1 per change
    undo: [], redo: [],
    hint: null, hintLevel: 0,   // the step of the last hint; 1 technique, 2 cells, 3 step
    steps: null, stepsFrom: null, viewing: -1,  // the explanation, its grid, the step shown
    available: null, availableAt: -1,  // the steps available now (All steps), at which version
    check: NO_CHECK, checkAsked: "",  // the last /api/check of the grid (verdict.js), its key
    unsolvable: [],             // the cells the load check named (a puzzle without solution)
    why: null,                  // the last /api/why answer, drawn until the grid changes
    busy: [], ticket: 0,        // the actions running; the number of the latest one
    clock: {start: Date.now(), stopped: null},
    timings: {},                // milliseconds of the last calls, read by the browser tests
  };
  const id = `sk${++boardCount}`;
  let cells = [];  // SVG groups by cell index
  const actions = {};  // button name -> its action (set by start)
  const $ = (name) => root.querySelector(`#${name}`);

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

  // Run a button's action: its button off and the board marked busy while it runs (shown
  // after SHOW_BUSY_AFTER ms); its message (the action's return: text or [text, error]) said
  // only if no newer action started meanwhile.
  async function guarded(name, action) {
    const ticket = ++state.ticket;
    state.busy.push(name);
    const button = $(name);
    if (button) button.disabled = true;
    const shown = setTimeout(showBusy, SHOW_BUSY_AFTER);
    try {
      if (ON_PUZZLE.has(name) && unloaded()) {
        throw new Error("The Puzzle box holds text that is not loaded: press Load to play it " +
                        "(the board still shows the puzzle before).");
      }
      const out = await action();
      if (out !== undefined && ticket === state.ticket) say(...(Array.isArray(out) ? out : [out]));
    } catch (e) {
      if (ticket === state.ticket) say(plainWords(e.message), true);
    } finally {
      clearTimeout(shown);
      state.busy.splice(state.busy.indexOf(name), 1);
      if (button && !state.busy.includes(name)) button.disabled = false;
      showBusy();
      render();
    }
  }

  function showBusy() {
    const busy = state.busy.filter((n) => n !== "enter");
    root.setAttribute("aria-busy", busy.length ? "true" : "false");
    const note = $("busy");
    note.hidden = !busy.length;
    note.textContent = busy.length ? `working: ${busy.join(", ")}…` : "";
  }

  function unloaded() {
    const typed = $("puzzle-text").value.trim();
    return typed !== "" && typed !== state.text.trim();
  }

  function puzzleBody(extra = {}) {
    const body = {puzzle: state.text, variant: state.variant || "standard",
                  grid: state.values, ...extra};
    if (state.box) body.box = state.box;
    return body;
  }

  // -- loading -----------------------------------------------------------------------------------

  async function load(text, variant, box, saved = {}, check = true) {
    const geo = await api("parse", {puzzle: text, variant: variant || "standard", box: box || null});
    const n = geo.n_cells, fits = (list) => list && list.length === n;
    Object.assign(state, {text, variant: variant || "standard", box: box || "", geo,
                          selected: -1, selection: [], undo: [], redo: [], steps: null, viewing: -1,
                          check: NO_CHECK, checkAsked: "", unsolvable: [], why: null, solutionsFound: -1,
                          clock: {start: Date.now(), stopped: null}});
    state.version += 1;
    state.values = fits(saved.values) ? saved.values : geo.givens.map(() => 0);
    for (const name of MARK_LISTS) {
      state[name] = fits(saved[name]) ? saved[name].map((e) => e || []) : geo.givens.map(() => []);
    }
    state.colours = fits(saved.colours) ? saved.colours : geo.givens.map(() => 0);
    state.auto = saved.auto !== false;
    $("auto").checked = state.auto;
    $("board").innerHTML = geo.svg;
    cells = [];
    for (const g of $("board").querySelectorAll(".sk-cell")) cells[+g.dataset.cell] = g;
    labelCells($("board").querySelector("svg"), cells, id);
    $("shape").textContent = shapeWords(geo, $("board").querySelector("svg"));
    $("puzzle-text").value = text;
    $("variant").value = variant && variant !== "standard" ? variant : "";
    $("box").value = state.box;
    $("steps").innerHTML = "";
    buildPad($("pad"), geo.side, enter);
    $("filter").replaceChildren(new Option("-", "0"),
      ...Array.from({length: geo.side}, (_, d) => new Option(SYMBOLS[d], String(d + 1))));
    clearHint();
    state.linkText = null;
    render();
    shortenLink(text, variant, box, geo);
    const welcome = "Click a cell (or Tab to the board) and type a digit; Shift+digit for a " +
                    "corner mark, Ctrl+digit for a centre mark; H for a hint.";
    if (!check) return welcome;
    say(`${welcome} Checking the puzzle…`);
    return await checkPuzzle(welcome);
  }

  // The puzzle's solutions counted to two at once: none, several, or conflicting givens said.
  async function checkPuzzle(welcome) {
    const text = state.text;
    const r = await api("count", puzzleBody({grid: null}));
    if (text !== state.text) return undefined;
    if (!r.solutions_found) state.unsolvable = cellsNamed(r.error || "", state.geo.labels);
    state.solutionsFound = r.solutions_found;  // of the puzzle alone (2: two or more)
    return loadMessage(r, welcome);
  }

  // -- the grid ----------------------------------------------------------------------------------

  // The view: the user's grid (each open cell's marks: marks.js cellMarks), or the board at a
  // step of the explanation (its candidates in their keypad places).
  function view() {
    if (state.viewing < 0) {
      const shown = state.values.map((_, c) => cellMarks(state, state.values, c));
      return {values: state.values, shown, step: currentHint()};
    }
    const {values, marks} = explanationView(state.geo, state.stepsFrom, state.steps, state.viewing);
    const shown = marks.map((m) => ({corner: m, centre: [], paint: new Map(), grid: true}));
    return {values, shown, step: state.steps[state.viewing].board};
  }

  function currentHint() {
    if (!state.hint || state.hintLevel < 2) return null;
    const b = state.hint.board;
    if (state.hintLevel === 2) {
      const focus = b.cells.length ? b.cells : b.placements.map((p) => p[0]);
      const house = focus.length === 1 ? houseNamed(state.geo, cells, state.hint.text, focus[0]) : [];
      return {cells: focus, house, placements: [], eliminations: [], links: []};
    }
    return b;
  }

  function render() {
    if (!state.geo) return;
    if (state.available && state.availableAt !== state.version) {  // the grid changed: stale
      state.available = null;
      $("steps").replaceChildren();
    }
    const geo = state.geo, {values, shown, step} = view();
    state.marks = apiMarks(geo, state.values, state.elim);
    const bad = conflicts(geo, values);
    const key = values.join(","), mine = state.viewing < 0;
    const broken = new Set(mine ? [...state.unsolvable, ...(state.check.key === key ? state.check.cells : [])] : []);
    const why = mine && state.why ? whyMarks(state.why) : {classes: new Map(), fixes: new Map()};
    const focus = new Set(step ? step.cells : []);
    const house = new Set(step && step.house ? step.house : []);
    const placed = new Map((step ? step.placements : []).map(([c, d]) => [c, d]));
    const removed = new Map();
    for (const [c, d] of step ? step.eliminations : []) {
      if (!removed.has(c)) removed.set(c, new Set());
      removed.get(c).add(d);
    }
    const peers = state.selected >= 0 ? new Set(geo.peers[state.selected]) : new Set();
    const same = state.selected >= 0 ? digitAt(geo, values, state.selected) : 0;
    const where = +$("filter").value;  // the candidate filter: where this digit can go
    cells.forEach((g, cell) => {
      const d = digitAt(geo, values, cell);
      g.querySelector(".sk-digit").textContent = d ? SYMBOLS[d - 1] : "";
      g.classList.toggle("sk-conflict", bad.has(cell) || broken.has(cell));
      g.classList.toggle("sk-focus", focus.has(cell));
      g.classList.toggle("sk-house", house.has(cell) && !focus.has(cell));
      g.classList.toggle("sk-place", placed.has(cell));
      g.classList.toggle("sk-selected", cell === state.selected || state.selection.includes(cell));
      g.classList.toggle("sk-peer", peers.has(cell) && cell !== state.selected);
      g.classList.toggle("sk-same", !!same && d === same && cell !== state.selected);
      g.classList.toggle("sk-filter", !!where && !d && shown[cell].corner.includes(where));
      g.classList.toggle("sk-given-marks", !d && !!(geo.given_candidates || [])[cell]);
      for (const css of WHY_CLASSES) g.classList.toggle(css, why.classes.get(cell) === css);
      let digits = shown[cell].corner;
      const classes = {};
      for (const x of removed.get(cell) || []) classes[x] = "sk-elim";
      if (placed.has(cell)) classes[placed.get(cell)] = "sk-keep";
      if (why.fixes.has(cell)) classes[why.fixes.get(cell)] = "sk-fix";
      if (!d && (removed.has(cell) || placed.has(cell) || why.fixes.has(cell))) {
        digits = [...new Set([...digits, ...Object.keys(classes).map(Number)])].sort((a, b) => a - b);
      }
      const marks = {...shown[cell], corner: d ? [] : digits, grid: shown[cell].grid || !!step};
      drawMarks($("board").querySelector("svg"), geo.box, g, marks, classes);
      g.setAttribute("aria-label", cellLabel(geo, values, marks.corner, cell, shown[cell].centre));
    });
    drawLinks($("board").querySelector("svg"), geo.box, cells, step ? step.links : []);
    paintColours(cells, state.colours);
    if (state.selected >= 0) $("board").setAttribute("aria-activedescendant", `${id}-cell-${state.selected}`);
    $("undo").disabled = !state.undo.length;
    $("redo").disabled = !state.redo.length;
    $("apply").disabled = !(state.hint && state.viewing < 0) || state.busy.includes("apply");
    showStatus(values, bad);
    saveLink();
    if (options.onRender) options.onRender(state);
  }

  // "solved!" only when every cell is filled and no rule of the puzzle is broken: the server
  // checks the grid after each change (/api/check), the cells of a broken rule drawn red.
  function showStatus(values, bad) {
    const status = $("status");
    if (state.viewing >= 0) { status.textContent = `step ${state.viewing + 1} of ${state.steps.length}`; return; }
    const key = values.join(","), full = isFull(state.geo, values);
    if (state.check.key !== key) askCheck(key);
    status.textContent = bad.size ? "conflicts" : state.check.key === key ? state.check.status
      : full ? "checking…" : "";
  }

  function askCheck(key) {
    if (state.checkAsked === key) return;
    state.checkAsked = key;
    api("check", puzzleBody()).then((r) => {
      if (state.values.join(",") !== key) return;
      state.check = checkOf(key, r);
      if (r.solved && !state.clock.stopped) state.clock.stopped = Date.now();
      if (r.filled && !r.solved) say(brokenMessage(state.check), true);
      render();
    }).catch((e) => { state.checkAsked = ""; say(plainWords(e.message), true); });
  }

  // -- editing, undo -----------------------------------------------------------------------------

  function snapshot() {
    const copy = (lists) => lists.map((m) => m.slice());
    return {values: state.values.slice(), elim: copy(state.elim), pencil: copy(state.pencil),
            centre: copy(state.centre), paint: copy(state.paint), colours: state.colours.slice()};
  }

  function change(update) {
    const before = snapshot();
    if (update() === false) return;
    state.undo.push(before);
    state.redo = [];
    state.version += 1;
    state.why = null;
    clearHint();
    render();
  }

  function travel(from, to) {
    if (!from.length) return;
    to.push(snapshot());
    Object.assign(state, from.pop());
    state.version += 1;
    state.why = null;
    clearHint();
    render();
  }

  // A digit (0 clears) or a mark (kind: "digit", "corner", "centre", "paint"; none: the mode
  // box's) in every selected cell, as one change.
  function enter(digit, kind) {
    const geo = state.geo, chosen = state.selection.length ? state.selection : [state.selected];
    const open = chosen.filter((cell) => cell >= 0 && !geo.givens[cell]);
    if (!open.length || state.viewing >= 0 || digit > geo.side) return;
    const how = kind || $("mode").value;
    change(() => open.map((cell) => enterCell(state, cell, digit, how)).some((x) => x));
  }

  function colour(k) {
    if ($("mode").value === "paint" && k) { state.paintColour = k; return; }
    const chosen = state.selection.length ? state.selection : [state.selected];
    if (chosen[0] < 0) return;
    change(() => { for (const cell of chosen) state.colours[cell] = k; });
  }

  function applyStep() {
    if (!state.hint) return undefined;
    const b = state.hint.board;
    change(() => {
      for (const [cell, d] of b.eliminations) {
        if (!state.elim[cell].includes(d)) state.elim[cell].push(d);
      }
      for (const [cell, d] of b.placements) state.values[cell] = d;
    });
    return `Applied: ${b.placements.length} placed, ${b.eliminations.length} removed.`;
  }

  function resetMarks() {
    change(() => state.values.map((_, cell) => resetCell(state, cell)).some((x) => x));
    return "Marks reset: every open cell shows its automatic candidates.";
  }

  function restart() {
    if (!state.values.some((d) => d) && MARK_LISTS.every((n) => !state[n].some((e) => e.length))) return undefined;
    if (typeof window.confirm === "function" && !options.noConfirm &&
        !window.confirm("Restart: clear your digits and marks? (Undo brings them back.)")) return undefined;
    change(() => {
      state.values.fill(0);
      for (const name of MARK_LISTS) state[name] = state[name].map(() => []);
      state.colours.fill(0);
    });
    state.clock = {start: Date.now(), stopped: null};
    return "Restarted (Undo brings your grid back).";
  }

  // -- hints, explanation, solving ---------------------------------------------------------------

  function clearHint() { state.hint = null; state.hintLevel = 0; }

  async function hint() {
    if (state.viewing >= 0) showStep(-1);
    if (state.hint && state.hintLevel < 3) {
      state.hintLevel += 1;
      render();
      return hintMessage(state.hint, state.hintLevel);
    }
    const started = performance.now(), version = state.version;
    const answer = await api("hint", puzzleBody({marks: state.marks, ...chosen()}));
    if (version !== state.version) return undefined;  // the grid changed meanwhile
    if (!answer.step) return isFull(state.geo, state.values) ? "The grid is full." : [stuckWords(answer.needs, choiceWords($("techniques-box"))), true];
    state.hint = answer.step;
    state.hintLevel = 1;
    render();
    state.timings.hintShown = performance.now() - started;
    return hintMessage(state.hint, state.hintLevel);
  }

  async function explain() {
    const from = snapshot(), version = state.version;
    const answer = await api("explain", puzzleBody(chosen()));
    if (version !== state.version) return "Your grid changed meanwhile: Explain all again.";
    Object.assign(state, {steps: answer.steps, stepsFrom: from, viewing: -1});
    fillSteps($("steps"), answer.steps, showStep);
    return `Rating ${answer.rating.toFixed(1)} (${answer.hardest || "none"}), level ` +
           `${answer.level}, ${answer.steps.length} steps from your grid. Click a step to see the board there.`;
  }

  // Why the grid has no solution or several, drawn until the grid changes (verdict.js).
  async function why() {
    const version = state.version;
    const answer = await api("why", puzzleBody());
    if (version !== state.version) return "Your grid changed meanwhile: ask Why? again.";
    state.why = answer;
    return whyMessage(answer);
  }

  function chosen() { return techniqueFields($("techniques-box")); }

  // Every step available now (each instance, easiest technique first), listed; a click shows one
  // as a hint's step, which Apply step applies.
  async function allSteps() {
    if (state.viewing >= 0) showStep(-1);
    const version = state.version;
    const answer = await api("hint", puzzleBody({marks: state.marks, all: true, ...chosen()}));
    if (version !== state.version) return undefined;
    Object.assign(state, {available: answer.steps, availableAt: version, steps: null});
    fillSteps($("steps"), answer.steps, (i) => {
      [...$("steps").children].forEach((li, k) => li.classList.toggle("current", k === i));
      Object.assign(state, {hint: answer.steps[i], hintLevel: 3});
      say(hintMessage(state.hint, 3));
      render();
    });
    return answer.steps.length ? `${answer.steps.length} steps available now${choiceWords($("techniques-box"))}, ` +
      "easiest technique first: click one to see it, Apply step applies it." : "No step available now.";
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

  // -- the share link ----------------------------------------------------------------------------

  // A long text (f-puzzles JSON, a grid) goes in the link in a shorter form that draws the very
  // same board (every rule kept; the parse of the short form is compared): the line form, or
  // geo.compact (a pencil-mark puzzle's candidates, 9 bits a cell; f-puzzles JSON compressed as
  // f-puzzles links hold it), the shortest that does.
  async function shortenLink(text, variant, box, geo) {
    if (!options.link || text.length <= 120) return;
    const forms = [geo.puzzle, geo.compact].filter((f) => f && f.length < text.length)
      .sort((a, b) => a.length - b.length);
    for (const form of forms) {
      const short = await api("parse", {puzzle: form, variant: geo.variant, box: box || null})
        .catch(() => null);
      if (state.text !== text) return;
      if (short && short.svg === geo.svg) {
        state.linkText = {text: form, variant: geo.variant};
        saveLink();
        return;
      }
    }
  }

  function saveLink() { keepLink(state, options); }

  async function loadLink() {
    const link = options.link && readLink(location.hash);
    if (!link) return false;
    say(await load(link.text, link.variant, link.box, link.saved, false));
    return true;
  }

  // -- input -------------------------------------------------------------------------------------

  function onKey(e) {
    if (options.isolateKeys && !notebookKey(e)) e.stopPropagation();
    if (!state.geo || e.target.closest("textarea, input, select")) return;
    const command = keyCommand(e, state.geo.side);
    if (!command) return;
    e.preventDefault();
    const run = {
      undo: () => travel(state.undo, state.redo), redo: () => travel(state.redo, state.undo),
      back: () => { if (state.viewing >= 0) showStep(-1); },
      apply: () => act("apply"), hint: () => act("hint"),
      move: () => (state.selected < 0 ? select(0) : move(command.dr, command.dc)),
      enter: () => enter(command.digit, command.kind), colour: () => colour(command.k),
    };
    run[command.name]();
  }

  function select(cell, add = false) {
    state.selected = cell;
    state.selection = !add ? [cell] : state.selection.includes(cell) && state.selection.length > 1
      ? state.selection.filter((c) => c !== cell) : [...state.selection, cell];
    render();
  }

  function move(dr, dc) {
    const g = cells[state.selected];
    const r = +g.dataset.row + dr, c = +g.dataset.col + dc;
    const next = cells.findIndex((x) => x && +x.dataset.row === r && +x.dataset.col === c);
    if (next >= 0) select(next);
  }

  function tick() {
    const clock = state.clock, seconds = Math.floor(((clock.stopped || Date.now()) - clock.start) / 1000);
    $("timer").textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    if (root.isConnected || !state.geo) setTimeout(tick, 1000);
  }

  function wire() {
    const board = $("board");
    wirePointer(board, state, select);
    board.addEventListener("focus", () => { if (state.selected < 0 && state.geo) select(0); });
    (options.keys || root).addEventListener("keydown", onKey);
    buildPalette($("palette"), colour);
    const save = (kind) => async () => {
      download(await picture($("board").querySelector("svg"), kind), `sudoku.${kind}`);
      return `The board saved as sudoku.${kind}.`;
    };
    if (options.keys && options.keys !== root && options.isolateKeys) root.addEventListener("keydown", onKey);
    const loadBox = () => load($("puzzle-text").value, $("variant").value.trim(), $("box").value.trim());
    const b = {state, api, body: puzzleBody, change, load, $, chosen};
    const buttons = {load: loadBox, hint, apply: applyStep, explain, why, allsteps: allSteps, solve: () => solve(b),
                     rate: () => rate(b), unique: () => unique(b), generate: () => generate(b),
                     truecands: () => trueCandidates(b), svg: save("svg"), png: save("png"), resetmarks: resetMarks, restart,
                     undo: () => travel(state.undo, state.redo), redo: () => travel(state.redo, state.undo),
                     share: async () => { await navigator.clipboard?.writeText(location.href); return "Link copied: it holds the puzzle and your progress."; }};
    Object.assign(actions, buttons);
    for (const name of Object.keys(buttons)) $(name).onclick = () => act(name);
    $("share").hidden = !options.link;
    $("auto").onchange = () => { state.auto = $("auto").checked; render(); };
    $("filter").onchange = render;
    let variantTyped = false;
    $("variant").addEventListener("input", () => { variantTyped = true; });
    $("puzzle-text").addEventListener("input", () => {  // a new text: its own variant, not the last one's
      if (!variantTyped) $("variant").value = "";
    });
    $("puzzle-text").addEventListener("paste", () => setTimeout(() => {
      if (unloaded()) act("load").then(() => { variantTyped = false; });
    }, 0));
    $("load").addEventListener("click", () => { variantTyped = false; });
    $("file").onchange = async (e) => {
      const file = e.target.files[0];
      if (file) guarded("load", async () => load(await file.text(), $("variant").value.trim(), $("box").value.trim()));
    };
  }

  async function start() {
    wire();
    const linked = options.link && readLink(location.hash);  // the opening asked meanwhile
    const asked = linked ? null : api("opening", {}).catch(() => ({}));
    const methods = await api("methods", {});
    const pick = $("techniques-box"), picked = () => { state.choice = choiceLink(pick); clearHint(); render(); };
    buildPicker(pick, methods.techniques || [], picked);
    if (linked && linked.choice) { setChoice(pick, ...linked.choice); state.choice = choiceLink(pick); }
    for (const m of methods.methods.filter((x) => x.available)) {
      const o = new Option(`${m.name}`, m.name, false, m.name === methods.default);
      o.title = m.summary;
      $("method").add(o);
    }
    if (!(await loadLink())) {
      const opening = await asked;
      say(await load(opening.puzzle || ".".repeat(81), opening.variant, "", {}, false));
    }
    state.timings.pageReady = performance.now();
    tick();
  }

  // What a program asks of the board (the notebook kernel, a key): a button's action, a digit
  // ("enter" {cell, digit, kind ("digit", "corner", "centre", "paint") or pencil}) or a cell ("select" {cell}); resolves when it is done.
  async function act(name, args = {}) {
    if (name === "enter") {
      state.selected = args.cell;
      state.selection = [args.cell];
      enter(args.digit, args.kind || (args.pencil ? "corner" : "digit"));
      return;
    }
    if (name === "select") { select(args.cell); return; }
    if (!actions[name]) throw new Error(`no action ${name}`);
    await guarded(name, actions[name]);
  }

  root.classList.add("sk-app");
  root.innerHTML = LAYOUT;
  return {state, start: () => guarded("start", start), act};
}
