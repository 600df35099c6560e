// The table chat: newest line in view, the input cleared after sending, "hide" (for me only,
// kept in this browser) and, for the host, "mute" buttons that go over the table's socket.
(function () {
  "use strict";
  var socket = null;
  var KEY = "kilforth-chat-hidden";

  function hidden() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }

  function apply(root) {
    var gone = hidden();
    var panel = document.getElementById("chat");
    var host = panel && panel.dataset.host === "1";
    var muted = panel ? (panel.dataset.muted || "").split(" ") : [];
    var me = panel ? panel.dataset.me : "";
    (root || document).querySelectorAll(".chat-line time:not([data-local])").forEach(function (t) {
      // Times are written in the server's clock: show them in the reader's own.
      var when = new Date(t.getAttribute("datetime"));
      if (!isNaN(when)) {
        t.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      }
      t.dataset.local = "1";
    });
    (root || document).querySelectorAll(".chat-line[data-author]").forEach(function (line) {
      var mine = line.dataset.author === me;
      var own = line.querySelector(".chat-hide");
      if (own && mine) { own.remove(); }
      line.hidden = !mine && gone.indexOf(line.dataset.author) >= 0;
      if (host && !mine && !line.querySelector(".chat-mute")) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "chat-mute";
        b.dataset.player = line.dataset.author;
        b.textContent = muted.indexOf(line.dataset.author) >= 0 ? "unmute" : "mute";
        line.appendChild(b);
      }
    });
  }

  // The host showing or hiding the spectators' chat comes as a system line; the newest one
  // says how things stand now: the panel's note, and the host's button (it flips the setting).
  function syncOpen() {
    var lines = document.querySelectorAll("#chat-log .chat-line[data-spectator-chat]");
    if (!lines.length) return;
    var open = lines[lines.length - 1].dataset.spectatorChat === "1";
    var note = document.querySelector("#chat .chat-open-note");
    if (note) { note.hidden = !open; }
    var form = document.querySelector("#chat form.chat-open");
    if (form) {
      form.querySelector('input[name="open"]').value = open ? "0" : "1";
      form.querySelector("button").textContent = open
        ? "Hide the spectators' chat from the players"
        : "Show the spectators' chat to the players";
    }
  }

  function scrollDown() {
    var log = document.getElementById("chat-log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }

  document.addEventListener("htmx:wsOpen", function (e) { socket = e.detail.socketWrapper; });
  document.addEventListener("htmx:wsAfterSend", function (e) {
    var form = e.target.closest && e.target.closest(".chat-form");
    if (form) { form.reset(); }
  });
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    // Most frames are the board's: only one that brings chat lines needs them tidied and the
    // chat scrolled (scrolling reads the chat's height, which makes the browser lay out the page).
    var text = e.detail && e.detail.message;
    if (typeof text === "string" && text.indexOf("chat-") < 0) return;
    apply();
    syncOpen();
    scrollDown();
  });
  document.addEventListener("click", function (e) {
    var hide = e.target.closest(".chat-hide");
    if (hide) {
      var list = hidden();
      list.push(hide.dataset.hide);
      localStorage.setItem(KEY, JSON.stringify(list));
      apply();
      return;
    }
    var mute = e.target.closest(".chat-mute");
    if (mute && socket) {
      var muting = mute.textContent === "mute";
      socket.send(JSON.stringify({ action: "chat_mute", player: mute.dataset.player, muted: muting }));
      var panel = document.getElementById("chat");
      var list2 = (panel.dataset.muted || "").split(" ").filter(function (id) { return id && id !== mute.dataset.player; });
      if (muting) { list2.push(mute.dataset.player); }
      panel.dataset.muted = list2.join(" ");
      document.querySelectorAll('.chat-mute[data-player="' + mute.dataset.player + '"]').forEach(function (b) {
        b.textContent = muting ? "unmute" : "mute";
      });
    }
  });
  document.addEventListener("DOMContentLoaded", function () { apply(); scrollDown(); });
})();
