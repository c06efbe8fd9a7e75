// Which table to open, when the Activity was not launched from one and its channel holds not
// exactly one: the channel's tables first, then the server's (or, outside a server, the member's).

import { el } from "./dom.js";

export function drawPicker(found, open) {
  const labels = found.labels;
  const parts = [el("h1", { text: labels.choose })];
  const group = (heading, tables) => {
    if (!tables.length) return;
    parts.push(el("section", { class: "pick" }, [
      el("h2", { text: heading }),
      el("ul", {}, tables.map((t) => el("li", {}, [
        el("button", { type: "button", class: "table-choice", "data-table": String(t.id), on: { click: () => open(t.id) } }, [
          el("span", { class: "title", text: t.title }),
          el("span", { class: "summary", text: t.summary }),
        ]),
      ]))),
    ]));
  };
  group(labels.here, found.here);
  group(found.placed ? labels.elsewhere : labels.mine, found.elsewhere);
  if (!found.here.length && !found.elsewhere.length) parts.push(el("p", { class: "hint", text: labels.none }));
  return parts;
}

// The table to open without asking: the one named in the address, the one launched, the channel's only one.
export function chosen(found, asked) {
  if (asked) return asked;
  if (found.launched) return found.launched;
  if (found.here.length === 1) return found.here[0].id;
  return null;
}
