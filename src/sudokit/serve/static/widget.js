// sudokit board in a notebook (anywidget): draws the SVG the kernel sends, sends back clicks,
// keys and buttons. The state and the hints live in Python (sudokit.serve.widget).
const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@#";

function render({ model, el }) {
  const board = document.createElement("div");
  board.tabIndex = 0;
  board.style.maxWidth = "480px";
  const bar = document.createElement("div");
  const message = document.createElement("div");
  for (const action of ["hint", "apply", "undo"]) {
    const b = document.createElement("button");
    b.textContent = { hint: "Hint", apply: "Apply step", undo: "Undo" }[action];
    b.onclick = () => model.send({ action });
    bar.appendChild(b);
  }
  const draw = () => {
    board.innerHTML = model.get("svg");
    const selected = model.get("selected");
    const g = board.querySelector(`.sk-cell[data-cell="${selected}"]`);
    if (g) g.classList.add("sk-selected");
    message.textContent = model.get("message");
  };
  board.addEventListener("click", (e) => {
    const g = e.target.closest(".sk-cell");
    if (g) { model.set("selected", +g.dataset.cell); model.save_changes(); board.focus(); }
  });
  board.addEventListener("keydown", (e) => {
    const cell = model.get("selected");
    if (cell < 0) return;
    const side = +board.querySelector("svg").dataset.side;
    const code = /^Digit(\d)$/.exec(e.code);
    let digit = code && side <= 9 ? +code[1] : SYMBOLS.slice(0, side).toUpperCase().indexOf(e.key.toUpperCase()) + 1;
    if (["Backspace", "Delete"].includes(e.key)) digit = 0;
    if (digit < 0 || digit > side) return;
    model.send({ action: "enter", cell, digit, pencil: e.shiftKey });
    e.preventDefault();
  });
  model.on("change:svg", draw);
  model.on("change:selected", draw);
  model.on("change:message", draw);
  el.append(board, bar, message);
  draw();
}

export default { render };
