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

// The choice as the share link keeps it: ["x", "A,B"] (the names turned off) or, when more
// are off than on, ["t", "C,D"] (the names left on); null when every technique is on.
export function choiceLink(box) {
  const inputs = [...box.querySelectorAll(".sk-techniques input")];
  const off = inputs.filter((i) => !i.checked), on = inputs.filter((i) => i.checked);
  if (!off.length) return null;
  return off.length <= on.length ? ["x", off.map((i) => i.value).join(",")] : ["t", on.map((i) => i.value).join(",")];
}

// Turn the picker to a link's choice: kind "x" (these names off) or "t" (only these on).
export function setChoice(box, kind, names) {
  const listed = new Set(names ? names.split(",") : []);
  for (const input of box.querySelectorAll(".sk-techniques input")) {
    input.checked = kind === "t" ? listed.has(input.value) : !listed.has(input.value);
  }
}
