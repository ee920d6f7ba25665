// sudokit board: the controls' HTML and the board's words (symbols, messages in the player's
// terms). Imported by board.js; no state here.

export const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@#";

// The controls, put in the element the board is created in (ids are looked up inside it).
// Tab order: the board, Hint and its row, the board's own buttons, then loading.
export const LAYOUT = `
  <section id="left">
    <div class="row"><span id="shape"></span><span id="busy" hidden></span>
      <span id="timer" title="time on this puzzle"></span>
      <span id="status" role="status"></span></div>
    <div id="board" tabindex="0" role="application" aria-roledescription="sudoku board"
      aria-label="Sudoku board: arrows move, digits enter, Shift+digit marks, H hints"></div>
    <div id="pad" aria-hidden="true"></div>
    <div class="row">
      <label>type <select id="mode" title="What a digit enters (Shift: corner mark, Ctrl: centre mark)">
        <option value="digit">digits</option><option value="corner">corner marks (Shift)</option>
        <option value="centre">centre marks (Ctrl)</option>
        <option value="paint">candidate colours (pick a colour below)</option></select></label>
      <label><input type="checkbox" id="auto" checked> auto candidates</label>
      <label>show where <select id="filter" title="Shade the open cells where this digit can go">
        <option value="0">-</option></select> can go</label>
    </div>
    <div class="row">
      <button id="undo" title="Ctrl+Z">Undo</button>
      <button id="redo" title="Ctrl+Y or Ctrl+Shift+Z">Redo</button>
      <button id="resetmarks" title="Your marks back to the automatic candidates">Reset marks</button>
      <button id="restart">Restart</button>
      <button id="share">Copy link</button>
    </div>
    <div class="row" id="palette" aria-label="cell colours"></div>
    <details id="keys-legend"><summary>Keys</summary>
      <dl>
        <dt>arrows</dt><dd>move (the board takes focus on r1c1)</dd>
        <dt>1-9, A-P</dt><dd>enter a digit (again: clear it)</dd>
        <dt>Shift+digit</dt><dd>corner mark (with auto candidates: the candidate out or back)</dd>
        <dt>Ctrl+digit</dt><dd>centre mark</dd>
        <dt>Ctrl/Shift+click, drag</dt><dd>select several cells (digits and marks go to all)</dd>
        <dt>Alt+1-6, Alt+0</dt><dd>colour the selected cells, take the colour off (in the
          candidate colours mode: pick the colour a typed candidate gets)</dd>
        <dt>Backspace, Delete, 0</dt><dd>clear the digit, then reset the cell's marks</dd>
        <dt>H</dt><dd>hint: the technique, then the step</dd>
        <dt>Enter</dt><dd>apply the hinted step</dd>
        <dt>Ctrl+Z, Ctrl+Y</dt><dd>undo, redo</dd>
        <dt>Esc</dt><dd>back from an explanation step to your grid</dd>
      </dl>
    </details>
  </section>
  <section id="right">
    <div class="row">
      <button id="hint" title="H: first the technique, then where to look, then the step">Hint</button>
      <button id="apply" disabled title="Enter">Apply step</button>
      <button id="explain">Explain all</button>
      <button id="rate">Rate</button>
      <button id="unique">Uniqueness</button>
      <button id="truecands" title="The digits each cell holds in some solution">True candidates</button>
      <button id="allsteps" title="Every step available now, each instance of each technique, easiest technique first (HoDoKu's all steps)">All steps</button>
      <button id="why" title="Why no solution (the clues and rules that clash) or several (where they differ, where to add a clue)">Why?</button>
    </div>
    <div class="row">
      <label>method <select id="method"></select></label>
      <button id="solve">Solve</button>
      <span>save the board as</span>
      <button id="svg" title="Save the board as an SVG picture">SVG</button>
      <button id="png" title="Save the board as a PNG picture">PNG</button>
    </div>
    <details id="techniques-box"><summary>Techniques the solver may use</summary>
      <div class="row"><button id="techniques-all">all</button><button id="techniques-none">none</button>
        <span>(hint, all steps, explain and rate use the checked ones)</span></div>
      <div class="sk-techniques"></div>
    </details>
    <div id="message" aria-live="polite"></div>
    <ol id="steps" aria-label="steps of the explanation"></ol>
    <details open id="load-box">
      <summary>Puzzle</summary>
      <textarea id="puzzle-text" rows="4" spellcheck="false" aria-label="puzzle text"
        placeholder="Paste a puzzle: line form, a grid, an f-puzzles / SudokuPad link or JSON, a Janko file"></textarea>
      <div class="row">
        <label>variant <input id="variant" value="" size="14" list="variants"
          placeholder="from the text"></label>
        <datalist id="variants"><option>standard</option><option>diagonal</option>
          <option>hyper</option><option>disjoint</option><option>anti-knight</option>
          <option>anti-king</option><option>non-consecutive</option><option>jigsaw</option>
          <option>killer</option><option>even-odd</option><option>samurai</option>
          <option>butterfly</option><option>sumo</option><option>windmill</option>
          <option>gattai-8</option><option>shogun</option><option>sohei</option>
          <option>clueless-1</option><option>clueless-2</option></datalist>
        <label>box <input id="box" placeholder="auto" size="4"></label>
        <button id="load">Load</button>
        <input type="file" id="file" aria-label="load a puzzle file">
      </div>
      <div class="row">
        <label>size <select id="gen-size"><option>4</option><option>6</option>
          <option selected>9</option><option>12</option><option>16</option>
          <option>25</option></select></label>
        <label>level <select id="gen-level"><option value="">any</option>
          <option>easy</option><option>medium</option><option>hard</option>
          <option>expert</option><option>extreme</option></select></label>
        <button id="generate" title="A new puzzle of this size, level and the variant above">Generate</button>
      </div>
    </details>
  </section>
`;

// The digit buttons under the board (mouse and touch; the keyboard types digits itself):
// enter(digit, kind), digit 0 clears; Shift+click a corner mark, Ctrl+click a centre mark.
export function buildPad(pad, side, enter) {
  pad.replaceChildren();
  for (let d = 0; d <= side; d++) {
    const b = document.createElement("button");
    b.textContent = d ? SYMBOLS[d - 1] : "⌫";
    if (!d) b.title = "Clear the cell (Backspace)";
    b.tabIndex = -1;
    b.onclick = (e) => enter(d, e.shiftKey ? "corner" : e.ctrlKey || e.metaKey ? "centre" : undefined);
    if (d) pad.appendChild(b); else pad.append(b);
  }
  pad.appendChild(pad.firstChild);  // the clear button last
}

// "a" or "an" before a technique's name ("an AIC", "an X-Wing", "a Naked Pair").
export function article(name) {
  const word = String(name).split(/[\s-]/)[0];
  if (word.length <= 4 && /[A-Z]/.test(word) && word === word.toUpperCase()) {
    return /^[AEFHILMNORSX]/.test(word) ? "an" : "a";  // spelled out: "an ALS", "a W-Wing"
  }
  return /^[AEIOU]/i.test(word) && !/^(Uni|Use|One)/i.test(word) ? "an" : "a";
}

// A message of the API in the player's words: no `<request>:1:1:` position, no option names
// of the command line, the user's digits not called givens.
export function plainWords(text, gridSent = true) {
  let out = String(text).replace(/<request>(:\d+)*:\s*/g, "").replace(/--variant NAME/g,
    "the variant box").replace(/--variant/g, "the variant box").replace(/--box/g, "the box field");
  if (gridSent) out = out.replace(/\bgivens\b/g, "digits").replace(/\bgiven\b/g, "placed");
  return out;
}

// The cells a message names by their labels ("r1c1", "A3" on a grid whose labels are those).
export function cellsNamed(text, labels) {
  const index = new Map(labels.map((l, c) => [l, c]));
  const found = [];
  for (const word of String(text).match(/[A-Za-z]*\d+[A-Za-z]*\d*/g) || []) {
    if (index.has(word)) found.push(index.get(word));
  }
  return found;
}

// A hint in three levels: 1 the technique only, 2 where to look, 3 the step.
// What Hint says when none of the chosen techniques applies: `needs`, the technique that
// would (the server's answer; null: only trial goes on), `choice` the words of the choice.
export function stuckWords(needs, choice) {
  const none = choice ? `None of the chosen techniques applies${choice}` : "No technique applies";
  return needs ? `${none}: the next step needs ${article(needs)} ${needs}, which is turned off.`
    : `${none}: no technique goes on from here, only trial (a guess searched to its end).`;
}

export function hintMessage(step, level) {
  const rating = step.rating.toFixed(1);
  if (level === 1) {
    return `Try ${article(step.technique)} ${step.technique} (rating ${rating}). Hint again for where to look.`;
  }
  if (level === 2) {
    const where = step.cells.slice(0, 6).map(([r, c]) => `r${r}c${c}`).join(", ");
    return `${step.technique}: look at the highlighted cells` + (where ? ` (${where})` : "") +
           ". Hint again for the step itself.";
  }
  return `[${rating}] ${step.technique}: ${step.text}`;
}

// Messages are [text, error].
export function solveMessage(r) {
  const counters = Object.entries(r.stats || {}).filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k} ${v}`).join(", ");
  const several = r.grid && r.unique === false;
  return [(several ? `One of several solutions, found by ${r.method}` : `${r.status} by ${r.method}`) +
          ` in ${(r.seconds * 1000).toFixed(1)} ms` + (counters ? `; ${counters}` : "") +
          (r.error ? `\n${plainWords(r.error)}` : ""), !r.grid];
}

export function countMessage(r) {
  return r.unique ? ["Exactly one solution from here.", false]
    : r.solutions_found ? ["Several solutions from here.", true]
      : [`No solution from here${r.error ? ": " + plainWords(r.error) : "."}`, true];
}

// The checks on Load (a count to two of the puzzle alone).
export function loadMessage(r, welcome) {
  if (r.solutions_found === 1) return [`One solution. ${welcome}`, false];
  if (r.solutions_found > 1) {
    return [`This puzzle has several solutions (2 or more): hints, ratings and "solved" ` +
            `need a puzzle with one. Why? shows where they differ and where a clue would help.`, true];
  }
  const reason = r.error ? `: ${plainWords(r.error, false).replace(/\.$/, "")}` : "";
  return [`This puzzle has no solution${reason}` + (r.status === "unsolvable" ? "" : ` (${r.status})`) +
          ". Why? shows the clues and rules that clash.", true];
}

const ENGINE_WORDS = new Set(["pair-relation", "linear-sum", "sequence", "must-contain", "indexing"]);

// The shape line in the player's words: the engine's rule kinds ("pair-relation",
// "linear-sum", ...) left out of the shape, the drawn rules named as their setters name them.
export function shapeWords(geo, svg) {
  const shape = geo.shape.replace(/\(([^)]*)\)/, (_, inner) =>
    `(${inner.split(", ").filter((w) => !ENGINE_WORDS.has(w)).join(", ")})`);
  const drawn = [...new Set([...svg.querySelectorAll(".sk-rule")].map((g) => g.dataset.rule))];
  const givens = geo.givens.filter((d) => d).length;
  return `${shape}${drawn.length ? `; ${drawn.join(", ")}` : ""}; ${givens} given${givens === 1 ? "" : "s"}`;
}

// The steps of an explanation (or the steps available now) as the items of `list`; pick(i) on
// a click or Enter.
export function fillSteps(list, steps, pick) {
  list.replaceChildren();
  steps.forEach((s, i) => {
    const li = document.createElement("li");
    li.tabIndex = 0;
    li.innerHTML = `<span class="rating">[${s.rating.toFixed(1)}]</span> `;
    li.appendChild(document.createTextNode(`${s.technique}: ${s.text}`));
    li.onclick = () => pick(i);
    li.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { pick(i); e.preventDefault(); } };
    list.appendChild(li);
  });
}
