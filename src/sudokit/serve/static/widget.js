// The board in a notebook (anywidget): the page's board.js, its API calls sent to the Jupyter
// kernel (sudokit.serve.widget answers them with the functions of the server's API), and the
// actions the kernel asks for (board.hint(), board.apply(), ...) run as the buttons do, one
// after the other (w.hint(); w.hint(); w.apply() in one cell: the second waits for the first).
// Keys typed on the board stay there: JupyterLab's command-mode shortcuts (m, a, b, d d, ...)
// never see them. The kernel sends this module with the page's modules put in place of its
// import line.
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
  const onRender = (state) => {  // the kernel keeps the user's digits and marks: new arrays,
    const now = JSON.stringify([state.values, state.marks]);  // or the model sees no change
    if (now === synced) return;
    synced = now;
    model.set("values", state.values.slice());
    model.set("marks", state.marks.map((m) => (m ? m.slice() : null)));
    model.save_changes();
  };
  const root = document.createElement("div");
  el.appendChild(root);
  const board = createBoard(root, {api, link: false, keys: root, isolateKeys: true, onRender,
                                   noConfirm: true});
  let queue = board.start();
  const onMessage = (msg) => {
    if (msg.type === "answer") {
      const call = pending.get(msg.id);
      pending.delete(msg.id);
      if (call) msg.error === undefined ? call.resolve(msg.answer) : call.reject(new Error(msg.error));
    } else if (msg.type === "action") {
      queue = queue.then(() => board.act(msg.action, msg.args || {})).catch(() => {});
    }
  };
  model.on("msg:custom", onMessage);
  return () => model.off("msg:custom", onMessage);
}

export default { render };
