// The page of `sudokit serve`: the board of board.js in <main>, its API over HTTP.
import { createBoard, fetchApi } from "./board.js";

const board = createBoard(document.getElementById("app"), {api: fetchApi, link: true,
                                                           keys: document});
window.sudokitBoard = board.state;  // read by the browser tests
window.sudokitAct = board.act;      // a button's action, a digit: what a key or a click does
board.start();
