// The board in a notebook (anywidget): the page's board.js, its API calls sent to the Jupyter
// kernel (sudokit.serve.widget answers them with the functions of the server's API), and the
// actions the kernel asks for (board.hint(), board.apply(), ...) run as the buttons do.
// The kernel sends this module with board.js put in place of the import line.
import { createBoard } from "./board.js";

function render({ model, el }) {
  const pending = new Map();
  let next = 0;
  const api = (name, body) => new Promise((resolve, reject) => {
    next += 1;
    pending.set(next, {resolve, reject});
    model.send({type: "api", id: next, name, body});
  });
  let synced = "";
  const onRender = (state) => {  // the kernel keeps the user's digits and marks
    const now = JSON.stringify([state.values, state.marks]);
    if (now === synced) return;
    synced = now;
    model.set("values", state.values);
    model.set("marks", state.marks);
    model.save_changes();
  };
  const root = document.createElement("div");
  root.tabIndex = -1;
  el.appendChild(root);
  const board = createBoard(root, {api, link: false, keys: root, onRender});
  const onMessage = (msg) => {
    if (msg.type === "answer") {
      const call = pending.get(msg.id);
      pending.delete(msg.id);
      if (call) msg.error === undefined ? call.resolve(msg.answer) : call.reject(new Error(msg.error));
    } else if (msg.type === "action") {
      board.act(msg.action, msg.args || {});
    }
  };
  model.on("msg:custom", onMessage);
  board.start();
  return () => model.off("msg:custom", onMessage);
}

export default { render };
