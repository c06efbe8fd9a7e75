// The table as one member sees it: whose turn and the clock, the seats with their scores, the
// public view, the lobby's actions, and their own hand as choices to tap (the greyed ones with the
// game's reason); the move list beside it on a wide screen, below it on a phone (activity.css).
// Every word is the server's: the state's labels and its HTML fragments, drawn from the catalogs.

import { el, fill } from "./dom.js";

const LOBBY = [["join", "join"], ["leave", "leave"], ["start", "start"]];

export function drawTable(state, api, act) {
  const labels = state.labels;
  const busy = act.busy();
  const header = el("header", { class: "top" }, [
    el("h1", { text: state.table.title }),
    el("div", { class: "top-actions" }, [
      clock(state),
      el("button", { type: "button", class: "quiet", "data-go": "tables", text: labels.all_tables, on: { click: act.back } }),
    ]),
  ]);
  const main = el("div", { class: "play" }, [
    el("div", { class: "turn", html: state.status_html }),
    seats(state),
    el("div", { class: "public", html: state.view.html }),
    board(api, state),
    state.lobby ? lobby(state, act, busy) : null,
    hand(state, act, busy),
  ]);
  const side = state.record_html ? el("aside", { class: "moves", html: state.record_html }) : null;
  return [header, el("div", { class: side ? "layout with-moves" : "layout" }, [main, side])];
}

function clock(state) {
  const deadline = state.clock.deadline;
  const shown = el("span", { class: "clock", "data-deadline": deadline && !state.clock.paused ? String(deadline) : null });
  tick(shown, state.labels.time_left);
  return shown;
}

// The clock counts down between states; the server's own line (status_html) says when it ends.
export function tick(node, words) {
  const deadline = Number(node.dataset.deadline || 0);
  if (!deadline) {
    node.textContent = "";
    return;
  }
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  const time = (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
  node.textContent = "⏰ " + fill(words, { time });
}

function seats(state) {
  const items = state.seats.map((seat) => {
    const parts = [
      el("span", { class: "marker", "aria-hidden": "true", text: seat.acting ? "▶" : "" }),
      el("span", { class: "name", text: seat.label }),
      seat.you ? el("span", { class: "tag", text: state.labels.you }) : null,
      seat.score !== null && seat.score !== undefined ? el("span", { class: "score", text: String(seat.score) }) : null,
    ];
    const kind = [seat.acting ? "acting" : "", seat.you ? "you" : ""].join(" ").trim() || null;
    return el("li", { class: kind, "data-member": seat.member }, parts);
  });
  return el("section", { class: "seats" }, [el("h2", { text: state.labels.seats }), el("ol", {}, items)]);
}

// The table's picture; a player whose prompt has one (a board with their own moves marked) sees
// that instead, in its place: the same table, as they are to play it.
function board(api, state) {
  const own = state.you.prompt && state.you.prompt.image;
  if (!own && !state.view.image) return null;
  const name = own ? "hand.png" : "table.png";
  const src = api.picture(state.table.id, name, state.table.version);
  const img = el("img", { class: "board", src, alt: state.table.title });
  img.addEventListener("error", () => setTimeout(() => { if (img.isConnected) img.src = src + "&again=1"; }, 1500), { once: true });
  return img;
}

function lobby(state, act, busy) {
  const { can, levels } = state.lobby;
  const labels = state.labels;
  const row = el("div", { class: "lobby-actions" });
  for (const [key, verb] of LOBBY) {
    if (!can[key]) continue;
    row.appendChild(el("button", { type: "button", class: "action", "data-lobby": verb, disabled: busy, text: labels[key], on: { click: () => act.change(verb, {}) } }));
  }
  if (can.add_computer) {
    for (const level of levels) {
      const text = labels.add_computer + " · " + labels["level." + level];
      row.appendChild(el("button", { type: "button", class: "action", "data-lobby": "computer", "data-level": level, disabled: busy, text, on: { click: () => act.change("computer", { level }) } }));
    }
  }
  return row.childNodes.length ? row : null;
}

function hand(state, act, busy) {
  const prompt = state.you.prompt;
  const labels = state.labels;
  if (!prompt) {
    return state.table.status === "running" ? el("p", { class: "hint", text: labels.spectating }) : null;
  }
  const why = prompt.reasons.length ? "why-" + state.table.id : null;
  const choice = (c) => {
    const text = (c.emoji ? c.emoji + " " : "") + c.label;
    if (!c.enabled) {
      // Struck out when the rules forbid it now; merely dimmed while it is not the member's turn.
      const kind = "choice " + (state.your_turn ? "greyed " : "") + (c.style || "");
      return el("button", { type: "button", class: kind, disabled: true, title: c.reason, "aria-describedby": why, text });
    }
    return el("button", {
      type: "button", class: "choice " + (c.style || ""), "data-action": c.action, disabled: busy, text,
      on: { click: () => act.tap(c.action) },
    });
  };
  const section = el("section", { class: "hand" + (state.your_turn ? " turn" : "") }, [
    el("h2", { text: state.your_turn ? labels.your_turn : labels.hand }),
    el("div", { class: "prompt", html: prompt.text_html }),
  ]);
  const plain = prompt.choices.concat(prompt.table_choices);
  if (plain.length) section.appendChild(el("div", { class: "choices" }, plain.map(choice)));
  for (const menu of prompt.menus) { // a Discord menu, opened out: every choice one tap away
    section.appendChild(el("div", { class: "menu" }, [
      el("h3", { text: menu.placeholder }),
      el("div", { class: "choices" }, menu.choices.map(choice)),
    ]));
  }
  if (why) section.appendChild(el("p", { class: "reasons", id: why, text: prompt.reasons.join(" · ") }));
  return section;
}
