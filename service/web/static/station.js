// Live state of each engraver on the station page: its status, polled
// once a second (grbl's authors advise at most 5 Hz), shown in place.
document.querySelectorAll("[data-station]").forEach(function (sec) {
  var name = sec.getAttribute("data-station");
  var set = function (cls, text) {
    var el = sec.querySelector(cls);
    if (el) el.textContent = text;
  };
  var poll = function () {
    fetch("/station/" + encodeURIComponent(name) + "/status", {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s) return;
        set(".st-state", s.state);
        set(".st-x", s.x_mm.toFixed(3));
        set(".st-y", s.y_mm.toFixed(3));
        set(".st-alarm", s.alarm ? "alarm: home or unlock" : "");
        set(".st-error", s.error || "");
      })
      .catch(function () {});
  };
  setInterval(poll, 1000);
});
