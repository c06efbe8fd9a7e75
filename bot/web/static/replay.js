// The replay: a slider, buttons and the arrow keys step through the game; each step's drawing is
// asked of the server once and kept. Without the script the buttons are plain links to each step.
"use strict";
(function () {
  var main = document.getElementById("main");
  var view = document.getElementById("step-view");
  var slider = document.getElementById("step");
  var position = document.getElementById("position");
  if (!main || !view || !slider) return;
  var total = Number(slider.max);
  var lang = main.dataset.lang;  // the steps are drawn in the page's language
  // The address keeps a language only if the reader chose one (?lang=): a shared link opens in the
  // language of whoever follows it.
  var chosen = new URLSearchParams(location.search).get("lang");
  var suffix = chosen ? "&lang=" + encodeURIComponent(chosen) : "";
  var steps = {};
  var current = Number(slider.value);

  function load(n) {
    if (!steps[n]) {
      steps[n] = fetch(main.dataset.steps + n + ".json?lang=" + lang).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      });
      steps[n].catch(function () { delete steps[n]; });
    }
    return steps[n];
  }

  function links(n) {
    var targets = { first: 0, previous: Math.max(n - 1, 0), next: Math.min(n + 1, total), last: total };
    document.querySelectorAll("[data-go]").forEach(function (a) {
      a.href = "?step=" + targets[a.dataset.go] + suffix;
      a.setAttribute("aria-disabled", targets[a.dataset.go] === n ? "true" : "false");
    });
  }

  function show(n) {
    n = Math.max(0, Math.min(total, n));
    current = n;
    slider.value = n;
    position.textContent = main.dataset.position.replace("{step}", n).replace("{total}", total);
    links(n);
    history.replaceState(null, "", "?step=" + n + suffix);
    load(n).then(function (data) {
      if (n !== current) return;
      view.innerHTML = data.html;
      document.title = data.title;
      if (n < total) load(n + 1);
    });
  }

  var moves = {
    first: function () { return 0; },
    previous: function () { return current - 1; },
    next: function () { return current + 1; },
    last: function () { return total; }
  };
  document.querySelectorAll("[data-go]").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      show(moves[a.dataset.go]());
    });
  });
  document.querySelectorAll("[data-step]").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      show(Number(a.dataset.step));
      slider.focus();
    });
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.addEventListener("keydown", function (event) {
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
    var keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
    if (!keys[event.key]) return;
    event.preventDefault();
    show(moves[keys[event.key]]());
  });
  links(current);
})();
