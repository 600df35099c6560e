// "Your turn": the tab title says so whenever the game waits on this page's seat
// (#table-live's data-my-turn, kept current by board.js), and, if the player opted in on this
// device, a notification while the tab is hidden and a short chime.
(function () {
  "use strict";
  var base = document.title;
  var was = null;
  var PREF = "kilforth-turn-alerts";

  function chime() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) { return; }
    var ctx = new Ctx();
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
  }

  function check() {
    var live = document.getElementById("table-live");
    var mine = !!live && live.dataset.myTurn === "1";
    document.title = mine ? "(your turn) " + base : base;
    if (mine && was === false && localStorage.getItem(PREF) === "on") {
      if (document.hidden && "Notification" in window && Notification.permission === "granted") {
        new Notification("Your turn", { body: base, tag: "kilforth-turn" });
      }
      try { chime(); } catch (e) { /* no sound available */ }
    }
    was = mine;
    var toggle = document.getElementById("turn-alerts");
    if (toggle) { toggle.checked = localStorage.getItem(PREF) === "on"; }
  }

  document.addEventListener("change", function (e) {
    if (e.target.id !== "turn-alerts") { return; }
    localStorage.setItem(PREF, e.target.checked ? "on" : "off");
    if (e.target.checked && "Notification" in window && Notification.permission === "default") {
      Notification.requestPermission();
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(check, 0); });
  document.addEventListener("DOMContentLoaded", check);
})();
