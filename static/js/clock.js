// Clocks at a timed table (games/tables/clocks.py), and how long seated players have been away.
// Each running clock carries its deadline as milliseconds since 1970 in data-deadline; this
// script counts down to it in the browser, so no message per second crosses the socket. It only
// shows the time: the server alone decides that a seat's time has run out (a bot then decides
// for it, and a new frame stops the clock). An away player's time[data-since] counts up.
(function () {
  // The server's clock minus this browser's, measured when the page loaded (data-server-now).
  var offset = 0;
  var sync = document.querySelector("[data-server-now]");
  if (sync && Number(sync.dataset.serverNow)) offset = Number(sync.dataset.serverNow) - Date.now();

  function two(n) { return n < 10 ? "0" + n : String(n); }
  function format(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    if (s >= 86400) return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
    if (s >= 3600) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
    return Math.floor(s / 60) + ":" + two(s % 60);
  }

  function tick() {
    var now = Date.now() + offset;
    var running = document.querySelectorAll("[data-deadline]");
    for (var i = 0; i < running.length; i++) {
      var clock = running[i];
      var left = Number(clock.dataset.deadline) - now;
      var turnBased = clock.hasAttribute("data-turn-based");
      var text = format(left) + (turnBased ? " left" : "");
      var out = clock.querySelector(".clock-time") || clock;
      if (out.textContent !== text) out.textContent = text;
      clock.classList.toggle("low", !turnBased && left > 0 && left < 30000);
      clock.classList.toggle("out", left <= 0);
    }
  }

  // How long a seated player has been away (data-since: when their last socket closed), in
  // words; the time itself, in this reader's clock, on hover.
  function awayFor(ms) {
    var min = Math.floor(Math.max(0, ms) / 60000);
    if (min < 1) return "less than a minute";
    if (min < 60) return min + " min";
    var h = Math.floor(min / 60);
    if (h < 24) return h + " h" + (min % 60 ? " " + (min % 60) + " min" : "");
    return Math.floor(h / 24) + " d" + (h % 24 ? " " + (h % 24) + " h" : "");
  }

  function away(now) {
    var times = document.querySelectorAll("time[data-since]");
    for (var i = 0; i < times.length; i++) {
      var t = times[i];
      var since = Number(t.dataset.since);
      if (!since) continue;
      var text = "for " + awayFor(now - since);
      if (t.textContent !== text) t.textContent = text;
      if (!t.title) {
        t.title = "since " + new Date(since - offset).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      }
    }
  }

  var lastAway = 0;
  function everything() {
    tick();
    var now = Date.now() + offset;
    if (now - lastAway >= 1000) { lastAway = now; away(now); }
  }

  everything();
  setInterval(everything, 250);
  // A frame that brings a new deadline is shown counting at once, not a quarter second later.
  document.addEventListener("htmx:wsAfterMessage", function () { tick(); away(Date.now() + offset); });
})();
