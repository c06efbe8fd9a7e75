// The table as a Discord Activity (bundled by tools/build_activity.sh into
// bot/web/static/activity.bundle.js). Discord opens this page in an iframe with frame_id,
// instance_id and platform in its address; the Embedded App SDK talks to the client through the
// parent frame. Sign-in: ready(), authorize (scope identify) for a code, which this server
// exchanges with the client secret for Discord's access token and a session of its own; then
// authenticate with that token. The table to show: ?table= or #table=, else the one the member
// launched, else the channel's only one, else a picker.

import { DiscordSDK } from "@discord/embedded-app-sdk";
import { Api, ApiError } from "./api.js";
import { chosen, drawPicker } from "./picker.js";
import { Stream } from "./stream.js";
import { drawTable, tick } from "./table.js";

const api = new Api();
const note = document.getElementById("note");
const board = document.getElementById("table");
const asked = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
let labels = {};
let state = null;
let stream = null;
let sending = false;
let timer = null;

function say(text) {
  note.textContent = text || "";
}

function failed(error) {
  say((error && error.message) || labels.reconnecting || "");
}

export function languageOf(locale) {
  return /^ja\b/i.test(locale || "") ? "ja" : "en";
}

async function start() {
  api.language = languageOf(navigator.language);
  const config = await api.config();
  labels = config.labels;
  if (!asked.get("frame_id")) {
    say(labels.outside); // opened outside Discord: there is no client to sign in through
    return;
  }
  say(labels.signing_in);
  const sdk = new DiscordSDK(config.client_id);
  await sdk.ready();
  const signIn = async () => {
    const { code } = await sdk.commands.authorize({
      client_id: config.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    return api.signIn(code, sdk.instanceId);
  };
  const signed = await signIn();
  await sdk.commands.authenticate({ access_token: signed.access_token });
  api.renew = async () => { await signIn(); };
  try {
    api.language = languageOf((await sdk.commands.userSettingsGetLocale()).locale);
  } catch (error) {
    // the browser's language, as before
  }
  const table = Number(asked.get("table") || fragment.get("table") || 0);
  if (table) return openTable(table);
  return showTables(true);
}

async function showTables(pick) {
  leave();
  const found = await api.call("GET", "tables");
  labels = found.labels;
  const table = pick ? chosen(found, null) : null;
  if (table) return openTable(table);
  document.documentElement.lang = api.language;
  board.replaceChildren(...drawPicker(found, openTable));
  say("");
}

async function openTable(id) {
  leave();
  const first = await api.call("GET", "table/" + id);
  show(first, true);
  const open = first.table.status === "lobby" || first.table.status === "running";
  if (open) {
    stream = new Stream(api, id, {
      version: () => state.table.version,
      state: (next) => show(next),
      lost: () => say(labels.reconnecting),
      back: () => say(sending ? labels.sending : ""),
      ended: () => say(labels.ended),
      refused: () => openTable(id).catch(failed), // no longer theirs to see: the server says why
    });
  }
}

function leave() {
  if (stream) stream.close();
  stream = null;
  state = null;
}

// A state newer than (or as new as) the one shown replaces it; an older one, arriving late, does not.
function show(next, force) {
  if (!force && state && (next.table.id !== state.table.id || next.table.version < state.table.version)) return;
  state = next;
  labels = next.labels;
  document.title = next.table.title;
  document.documentElement.lang = next.table.language;
  redraw();
  const over = next.table.status === "finished" || next.table.status === "cancelled";
  if (over) say(labels.ended);
  else if (!sending) say("");
}

function redraw() {
  board.replaceChildren(...drawTable(state, api, actions));
  board.dataset.version = String(state.table.version);
  board.dataset.seen = String(state.table.seen);
  board.dataset.table = String(state.table.id);
  board.dataset.status = state.table.status;
  const moves = board.querySelector(".moves");
  if (moves) moves.scrollTop = moves.scrollHeight; // beside the table, the latest move in sight
  clearInterval(timer);
  const clock = board.querySelector(".clock[data-deadline]");
  if (clock) timer = setInterval(() => tick(clock, labels.time_left), 1000);
}

async function send(call) {
  if (sending) return;
  sending = true;
  redraw(); // the choices wait, greyed, for the answer: a second tap sends nothing
  say(labels.sending);
  try {
    const next = await call();
    sending = false;
    show(next);
  } catch (error) {
    sending = false;
    if (error instanceof ApiError && error.status === 409 && state) {
      show(await api.call("GET", "table/" + state.table.id), true); // the table moved on: the latest
    } else if (state) {
      redraw();
    }
    failed(error);
  }
}

const actions = {
  busy: () => sending,
  tap: (action) => send(() => api.move(state.table.id, state.table.seen, action)),
  change: (verb, body) => send(() => api.call("POST", "table/" + state.table.id + "/" + verb, body)),
  back: () => showTables(false).catch(failed),
};

start().catch(failed);
