// The page's live socket, shown to the person: connected, reconnecting or offline. The htmx ws
// extension retries only after closes 1006, 1011, 1012 and 1013; after any other close (a server
// going away with 1001, a flood close) the page used to sit stale until a reload. Here it
// reconnects with backoff, and the server answers every new socket with the whole current view.
(function () {
  var FINAL = { 1000: "Disconnected", 4403: "Signed out: reload the page", 4404: "This table is gone" };
  var RETRIED = [1006, 1011, 1012, 1013]; // the extension reconnects these itself
  var attempts = 0;
  var timer = null;
  function backoff(n) { // ms before the next try: doubling from 250 ms, at most 5 s, jittered
    return Math.min(5000, 250 * Math.pow(2, Math.min(n, 6))) * (0.5 + Math.random() / 2);
  }
  // The extension's own retries (1006 and the rest) wait up to 64 s by default: a page would
  // stay stale for a minute after a restart. Use the same short backoff for them.
  if (window.htmx) htmx.config.wsReconnectDelay = backoff;

  function show(state, text) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.dataset.state = state;
    el.querySelector(".conn-text").textContent = text;
    el.title = text;
  }

  document.addEventListener("htmx:wsConnecting", function () {
    show("connecting", attempts ? "Reconnecting…" : "Connecting…");
  });
  document.addEventListener("htmx:wsOpen", function () {
    attempts = 0;
    show("online", "Live");
  });
  document.addEventListener("htmx:wsClose", function (e) {
    var code = e.detail.event.code;
    if (FINAL[code]) {
      show("offline", FINAL[code]);
      return;
    }
    attempts += 1;
    show("reconnecting", navigator.onLine === false ? "Offline: waiting for the network" : "Reconnecting…");
    if (RETRIED.indexOf(code) >= 0) return;
    var wrapper = e.detail.socketWrapper;
    clearTimeout(timer);
    timer = setTimeout(function () { wrapper.reconnect(); }, backoff(attempts));
  });
  window.addEventListener("offline", function () { show("reconnecting", "Offline: waiting for the network"); });
})();
