// The table as a Discord Activity: a plain page over /activity/api (no framework, no build step).
// Until the Embedded App SDK's bundle signs a member in, the page takes what it needs from its
// address's fragment: #code=…&instance_id=… (what the SDK's authorize would give) or #session=…,
// with table=… and locale=…. Every word it shows comes from the server (the state's labels and
// HTML, drawn from the catalogs); the server escapes every HTML fragment it sends.
"use strict";
(function () {
  var root = location.pathname.replace(/\/?$/, "/"); // "/activity/" here, "/" through Discord's proxy
  var api = root + "api/";
  var asked = new URLSearchParams(location.hash.slice(1));
  var session = asked.get("session");
  var tableId = asked.get("table");
  var locale = asked.get("locale") || navigator.language || "en";
  var note = document.getElementById("note");
  var board = document.getElementById("table");
  var state = null;
  var source = null;

  function say(text) { note.textContent = text || ""; }

  function query(extra) {
    var q = new URLSearchParams(extra || {});
    q.set("locale", locale);
    return "?" + q.toString();
  }

  function call(method, path, body) {
    var options = { method: method, headers: { "Authorization": "Bearer " + session } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(api + path + query(), options).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) throw data.error || {};
        return data;
      });
    });
  }

  function signIn() {
    if (session) return Promise.resolve();
    var body = { code: asked.get("code") || "" };
    if (asked.get("instance_id")) body.instance_id = asked.get("instance_id");
    return fetch(api + "token" + query(), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) throw data.error || {};
        session = data.session;
      });
    });
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "html") node.innerHTML = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function choiceButton(choice) {
    var label = (choice.emoji ? choice.emoji + " " : "") + choice.label;
    var button = el("button", { type: "button", class: "choice " + (choice.style || ""), text: label });
    if (choice.enabled) {
      button.dataset.action = choice.action;
      button.addEventListener("click", function () { tap(choice.action); });
    } else {
      button.disabled = true;
      if (choice.reason) button.title = choice.reason;
    }
    return button;
  }

  function lobbyButtons(lobby, labels) {
    var row = el("div", { class: "lobby-actions" });
    [["join", "join"], ["leave", "leave"], ["start", "start"]].forEach(function (pair) {
      if (!lobby.can[pair[0]]) return;
      var b = el("button", { type: "button", "data-lobby": pair[1], text: labels[pair[0]] });
      b.addEventListener("click", function () { change(pair[1], {}); });
      row.appendChild(b);
    });
    if (lobby.can.add_computer) {
      lobby.levels.forEach(function (level) {
        var b = el("button", { type: "button", "data-lobby": "computer", text: labels.add_computer + " (" + labels["level." + level] + ")" });
        b.addEventListener("click", function () { change("computer", { level: level }); });
        row.appendChild(b);
      });
    }
    return row;
  }

  function render(next) {
    state = next;
    document.title = next.table.title;
    document.documentElement.lang = next.table.language;
    var labels = next.labels;
    var parts = [el("h1", { text: next.table.title }), el("div", { html: next.status_html })];
    var seats = el("ol", { class: "seats" }, next.seats.map(function (s) {
      var text = s.label + (s.score !== null && s.score !== undefined ? " · " + s.score : "");
      return el("li", { text: text, class: (s.acting ? "acting " : "") + (s.you ? "you" : "") });
    }));
    parts.push(seats);
    parts.push(el("div", { class: "view", html: next.view.html }));
    if (next.view.image) {
      parts.push(el("img", { src: api + "table/" + next.table.id + "/table.png" + query({ v: next.table.version, session: session }), alt: next.table.title }));
    }
    if (next.lobby) parts.push(lobbyButtons(next.lobby, labels));
    var prompt = next.you.prompt;
    if (prompt) {
      var hand = el("section", { class: "hand" }, [el("h2", { text: next.your_turn ? labels.your_turn : labels.hand }), el("div", { html: prompt.text_html })]);
      var all = prompt.choices.concat(prompt.table_choices);
      hand.appendChild(el("div", { class: "choices" }, all.map(choiceButton)));
      prompt.menus.forEach(function (menu, i) {
        var open = all.length === 0 && i === 0 ? { open: "" } : {}; // a prompt of menus only shows its first
        hand.appendChild(el("details", open, [el("summary", { text: menu.placeholder }), el("div", { class: "choices" }, menu.choices.map(choiceButton))]));
      });
      if (prompt.image) {
        hand.appendChild(el("img", { src: api + "table/" + next.table.id + "/hand.png" + query({ v: next.table.version, session: session }), alt: labels.hand }));
      }
      parts.push(hand);
    } else if (next.table.status === "running") {
      parts.push(el("p", { class: "hint", text: labels.spectating }));
    }
    if (next.record_html) parts.push(el("div", { class: "record", html: next.record_html }));
    board.replaceChildren.apply(board, parts);
    board.dataset.version = next.table.version;
    say(next.table.status === "finished" || next.table.status === "cancelled" ? labels.ended : "");
  }

  function requestId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + "-" + Math.random().toString(36).slice(2);
  }

  function tap(action) {
    var body = { seen: state.table.seen, action: action, request: requestId() };
    call("POST", "table/" + tableId + "/move", body).then(render, function (error) { say(error.message); });
  }

  function change(verb, body) {
    call("POST", "table/" + tableId + "/" + verb, body).then(render, function (error) { say(error.message); });
  }

  function listen() {
    if (!window.EventSource) return;
    source = new EventSource(api + "table/" + tableId + "/events" + query({ session: session, v: state ? state.table.version : "" }));
    source.addEventListener("state", function (event) { render(JSON.parse(event.data)); });
    source.addEventListener("end", function () { source.close(); });
    source.addEventListener("expired", function () { source.close(); say(""); });
    source.onerror = function () { if (state) say(state.labels.reconnecting); }; // EventSource reconnects itself
  }

  signIn()
    .then(function () { return call("GET", "table/" + tableId); })
    .then(function (first) { render(first); listen(); })
    .catch(function (error) { say(error.message || ""); });
})();
