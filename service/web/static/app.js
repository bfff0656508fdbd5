// chipdesk pages: the live scan panel and the refreshing tables.
// Plain script, no libraries; the pages work without it except for the
// live parts.
"use strict";

(function () {
  // Live scan panel: each "scan" event carries the panel's HTML,
  // rendered and escaped by the server.
  var panel = document.getElementById("scan-panel");
  var state = document.getElementById("stream-state");
  if (panel && window.EventSource) {
    var es = new EventSource(panel.getAttribute("data-stream"));
    es.addEventListener("open", function () {
      if (state) state.textContent = "Connected: scans appear here as they are read.";
      document.body.setAttribute("data-stream", "open");
    });
    es.addEventListener("error", function () {
      if (state) state.textContent = "Connection lost; reconnecting…";
      document.body.setAttribute("data-stream", "lost");
    });
    es.addEventListener("scan", function (e) {
      panel.innerHTML = e.data;
      var banner = panel.querySelector(".banner");
      panel.classList.toggle("danger", !!banner);
    });
  }

  // Tables that refresh themselves: #jobs while a job is pending,
  // #devices always.
  function refresh(id, every, onlyPending) {
    var el = document.getElementById(id);
    if (!el || !window.fetch) return;
    if (onlyPending && !el.hasAttribute("data-pending")) return;
    setTimeout(function () {
      fetch(el.getAttribute("data-src"), { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var t = document.createElement("template");
          t.innerHTML = html.trim();
          var fresh = t.content.firstElementChild;
          if (fresh) el.replaceWith(fresh);
          refresh(id, every, onlyPending);
        })
        .catch(function () { setTimeout(function () { refresh(id, every, onlyPending); }, every * 4); });
    }, every);
  }
  refresh("jobs", 1000, true);
  refresh("devices", 5000, false);
})();

// Documents: the Print button prints the page (the print stylesheet
// leaves the document alone).
(function () {
  var bs = document.querySelectorAll("[data-print]");
  for (var i = 0; i < bs.length; i++) {
    bs[i].addEventListener("click", function () { window.print(); });
  }
})();
