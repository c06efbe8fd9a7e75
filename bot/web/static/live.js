// The live table: the server sends the page's body again at each version of the table (server-sent
// events); times are shown in the reader's zone and language. No library, no build step.
"use strict";
(function () {
  var main = document.getElementById("main");
  var lang = document.documentElement.lang;

  function showTimes() {
    var relative = window.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(lang, { numeric: "auto" }) : null;
    document.querySelectorAll("time[datetime]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      var seconds = (when - Date.now()) / 1000;
      if (el.dataset.style === "R" && relative) {
        var units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
        for (var i = 0; i < units.length; i++) {
          if (Math.abs(seconds) >= units[i][1] || units[i][0] === "second") {
            el.textContent = relative.format(Math.round(seconds / units[i][1]), units[i][0]);
            break;
          }
        }
      } else {
        el.textContent = when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      }
      el.title = when.toLocaleString(lang);
    });
  }

  showTimes();
  setInterval(showTimes, 15000);
  var url = main.dataset.live;
  if (!url || !window.EventSource) return;
  var source = new EventSource(url);
  source.addEventListener("table", function (event) {
    var data = JSON.parse(event.data);
    var open = Array.prototype.map.call(main.querySelectorAll("details"), function (d) { return d.open; });
    main.innerHTML = data.html;
    main.querySelectorAll("details").forEach(function (d, i) { if (i < open.length - 1) d.open = open[i]; });
    main.dataset.version = data.version;
    document.title = data.title;
    showTimes();
  });
  source.addEventListener("end", function () { source.close(); });
})();
