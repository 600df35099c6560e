// Clocks at a timed table (games/tables/clocks.py). Each running clock carries its deadline as
// milliseconds since 1970 in data-deadline; this script counts down to it in the browser, so no
// message per second crosses the socket. It only shows the time: the server alone decides that
// a seat's time has run out (a bot then decides for it, and a new frame stops the clock).
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

  tick();
  setInterval(tick, 250);
  // A frame that brings a new deadline is shown counting at once, not a quarter second later.
  document.addEventListener("htmx:wsAfterMessage", tick);
})();
