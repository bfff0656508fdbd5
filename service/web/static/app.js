// chipdesk pages: the live scan panel and the refreshing tables.
// Plain script, no libraries; the pages work without it except for the
// live parts.
"use strict";

(function () {
  // Live scan panel: each "scan" event carries the panel's HTML,
  // rendered and escaped by the server. A panel a person is using (a
  // field in it has the focus or holds what they typed) is never
  // replaced: the new scan waits in a notice that a click, or the key
  // N (Alt+N inside a field), shows.
  var panel = document.getElementById("scan-panel");
  var state = document.getElementById("stream-state");
  var notice = document.getElementById("scan-notice");
  var pending = [];
  // One EventSource per stream address, shared by the parts of a page
  // (a browser allows few connections per site).
  var sources = {};
  function source(url) {
    if (!sources[url]) sources[url] = new EventSource(url);
    return sources[url];
  }
  function inUse() {
    if (panel.contains(document.activeElement) && document.activeElement.matches("input, select, textarea")) return true;
    var fields = panel.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "hidden") continue;
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) return true;
      } else if (f.tagName === "SELECT") {
        for (var j = 0; j < f.options.length; j++) {
          if (f.options[j].selected !== f.options[j].defaultSelected) return true;
        }
      } else if (f.value !== f.defaultValue) {
        return true;
      }
    }
    return false;
  }
  function put(html) {
    panel.innerHTML = html;
    panel.classList.toggle("danger", !!panel.querySelector(".banner"));
    // A panel that asks for it (the handheld's page, where an answer
    // typed before may stand above it) is scrolled into view.
    if (panel.hasAttribute("data-reveal")) {
      var r = panel.getBoundingClientRect();
      if (r.top > window.innerHeight || r.bottom < 0) panel.scrollIntoView({ block: "start" });
    }
    document.body.setAttribute("data-scans-shown", String(Number(document.body.getAttribute("data-scans-shown") || 0) + 1));
  }
  function showPending() {
    if (!pending.length) return;
    var html = pending[pending.length - 1];
    pending = [];
    notice.hidden = true;
    put(html);
    var h = panel.querySelector("h2");
    if (h) { h.setAttribute("tabindex", "-1"); h.focus(); }
  }
  function summary(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    var s = t.content.querySelector("[data-summary]");
    return s ? s.getAttribute("data-summary") : "a new scan";
  }
  if (panel && window.EventSource) {
    var es = source(panel.getAttribute("data-stream"));
    es.addEventListener("open", function () {
      if (state) state.textContent = "Connected: scans appear here as they are read.";
      document.body.setAttribute("data-stream", "open");
    });
    es.addEventListener("error", function () {
      if (state) state.textContent = "Connection lost; reconnecting…";
      document.body.setAttribute("data-stream", "lost");
    });
    es.addEventListener("scan", function (e) {
      document.dispatchEvent(new CustomEvent("chipdesk:scan"));
      if (notice && inUse()) {
        pending.push(e.data);
        var n = pending.length;
        notice.querySelector(".what").textContent = (n > 1 ? n + " new scans, the latest " : "New scan: ") + summary(e.data) + ".";
        notice.hidden = false;
        return;
      }
      pending = [];
      if (notice) notice.hidden = true;
      put(e.data);
    });
    if (notice) {
      notice.querySelector("button").addEventListener("click", showPending);
      document.addEventListener("keydown", function (e) {
        if (notice.hidden || e.ctrlKey || e.metaKey || (e.key !== "n" && e.key !== "N" && e.code !== "KeyN")) return;
        var t = e.target;
        var typing = t && t.matches && t.matches("input, select, textarea");
        if (typing && !e.altKey) return;
        e.preventDefault();
        showPending();
      });
    }
  }

  // The handheld's page: every scan shown was queued first (the
  // replica is the pipeline's scan store), so the count follows.
  var queued = document.getElementById("queued");
  if (queued) {
    document.addEventListener("chipdesk:scan", function () {
      var n = Number(queued.getAttribute("data-queued")) + 1;
      queued.setAttribute("data-queued", String(n));
      queued.textContent = n + (n === 1 ? " event" : " events");
    });
  }

  // Pages that follow the scans (the Today page): their data-follow
  // part is fetched again after each scan.
  var follow = document.querySelector("[data-follow]");
  if (follow && window.EventSource && window.fetch) {
    var fs = source(follow.getAttribute("data-follow"));
    var busy = false;
    fs.addEventListener("open", function () { document.body.setAttribute("data-stream", "open"); });
    var refetch = function () {
      if (busy) return;
      busy = true;
      fetch(follow.getAttribute("data-src"), { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var t = document.createElement("template");
          t.innerHTML = html.trim();
          var fresh = t.content.firstElementChild;
          if (fresh) { follow.replaceWith(fresh); follow = fresh; }
          document.body.setAttribute("data-follow-updated", String(Date.now()));
        })
        .catch(function () {})
        .then(function () { busy = false; });
    };
    fs.addEventListener("scan", refetch);
    // Intakes and releases made at another desk carry no scan: fetch
    // again every half minute as well.
    setInterval(refetch, 30000);
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
