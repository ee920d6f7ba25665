// sudokit board: the techniques the solver may use (SudokuWiki's and HoDoKu's solver options)
// as a picker of check boxes, one per technique name of /api/methods, all on at first; what
// hint, explain and rate send of it (`exclude`: the names turned off). Pure but for the DOM
// of the picker.

// The picker in `box` (a <details>): a box per name, and "all" / "none"; onChange() after
// each change.
export function buildPicker(box, names, onChange) {
  const list = box.querySelector(".sk-techniques");
  list.replaceChildren();
  for (const name of names) {
    const label = document.createElement("label");
    const input = Object.assign(document.createElement("input"), {type: "checkbox", checked: true});
    input.value = name;
    input.onchange = onChange;
    label.append(input, ` ${name}`);
    list.appendChild(label);
  }
  for (const [id, on] of [["techniques-all", true], ["techniques-none", false]]) {
    box.querySelector(`#${id}`).onclick = () => {
      for (const input of list.querySelectorAll("input")) input.checked = on;
      onChange();
    };
  }
}

// The names turned off in the picker.
export function excluded(box) {
  return [...box.querySelectorAll(".sk-techniques input")].filter((i) => !i.checked).map((i) => i.value);
}

// The fields of a hint, explain or rate request for the picker's choice: {} when every
// technique is on, else {exclude: [...]}.
export function techniqueFields(box) {
  const off = excluded(box);
  return off.length ? {exclude: off} : {};
}

// The words of the choice, for a message: "" when every technique is on.
export function choiceWords(box) {
  const off = excluded(box), all = box.querySelectorAll(".sk-techniques input").length;
  if (!off.length) return "";
  return off.length === all ? " (no technique chosen)" : ` (without ${off.length} of ${all} techniques)`;
}
