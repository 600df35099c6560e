// Kilforth board: the server swaps the board, or only its changed parts, over the websocket
// (htmx oob swaps). Keep the keyboard focus (elements with a stable id), the log's scroll
// position, which folds are open and which popover is showing, and after a partial frame
// carry its versions onto the board. Also measure where the board's table starts, so the CSS can
// size the map and the decision to what is left of the screen (--kb-fit).
(function () {
  var saved = null;

  // Where the reader scrolled the log to, kept as they scroll: reading scrollTop while a frame's
  // parts are being swapped would make the browser lay the whole board out again, once per part.
  var logScroll = 0;
  document.addEventListener("scroll", function (e) {
    var t = e.target;
    if (t && t.classList && t.classList.contains("log-list")) logScroll = t.scrollTop;
  }, true);

  // Set on the two elements that read it, and only when it changed (or the element is new): any
  // change to a custom property on the page's root restyles every element of the page.
  function fit() {
    var table = document.querySelector(".kb .kb-table");
    if (!table) return;
    var top = table.getBoundingClientRect().top + window.scrollY;
    var height = "calc(100dvh - " + Math.round(top) + "px - 1rem)";
    table.querySelectorAll(".kb-act, .kb-map").forEach(function (el) {
      if (el.kbFit === height) return;
      el.kbFit = height;
      el.style.setProperty("--kb-fit", height);
    });
  }
  // A frame swaps several parts one after another: measuring after each would force the browser
  // to lay the whole board out once per part. Measure once, before the next paint.
  var fitting = false;
  function fitSoon() {
    if (fitting) return;
    fitting = true;
    requestAnimationFrame(function () { fitting = false; fit(); });
  }

  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    // A whole board arrives on its own or inside the table's live fragment; a part on its own.
    var target = e.target;
    if (!target || !target.querySelector) return;
    var active = document.activeElement;
    var folds = {};
    var within = [target].concat(Array.prototype.slice.call(target.querySelectorAll("details[id]")));
    within.forEach(function (d) {
      if (d.tagName === "DETAILS" && d.id) folds[d.id] = d.open;
    });
    var pop = target.querySelector("[popover]:popover-open");
    saved = {
      focus: active && target.contains(active) && active.id ? active.id : null,
      within: !!(active && active !== document.body && target.contains(active)),
      log: target.querySelector(".log-list") ? logScroll : null,
      folds: folds,
      popover: pop && pop.id ? pop.id : null
    };
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var board = document.getElementById("game-board");
    if (!saved || !board) return;
    var log = board.querySelector(".log-list");
    if (log && saved.log) log.scrollTop = saved.log;  // a new log starts at its top anyway
    Object.keys(saved.folds).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.tagName === "DETAILS" && d.open !== saved.folds[id]) d.open = saved.folds[id];
    });
    var pop = saved.popover && document.getElementById(saved.popover);
    if (pop && pop.showPopover && !pop.matches(":popover-open")) {
      try { pop.showPopover(); } catch (err) { /* it went away with the swap */ }
    }
    var focus = saved.focus && document.getElementById(saved.focus);
    if (focus) focus.focus({ preventScroll: true });
    else if (saved.within && (!document.activeElement || document.activeElement === document.body)) {
      // What had the keyboard focus went away with the swap (a choice once made): the focus goes
      // to the decision, so the next Tab reaches its choices instead of the page's top.
      var decision = board.querySelector("#kb-decision:not([hidden]), #kf-decision:not([hidden])");
      if (decision) decision.focus({ preventScroll: true });
    }
    saved = null;
    fitSoon();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    // A partial frame ends with #kb-version; a whole one brings the attributes itself.
    var versions = document.getElementById("kb-version");
    if (!versions || !versions.dataset.version) return;
    var board = document.getElementById("game-board");
    var live = document.getElementById("table-live");
    if (board) board.dataset.version = versions.dataset.version;
    if (live && versions.dataset.tableVersion) live.dataset.version = versions.dataset.tableVersion;
    if (live && versions.dataset.myTurn) live.dataset.myTurn = versions.dataset.myTurn;
    delete versions.dataset.version;
  });
  // A location's card offers its move as a label for the decision's button: once used, the card
  // closes (the swap that follows must not open it again).
  document.addEventListener("click", function (e) {
    var go = e.target.closest && e.target.closest(".pop-go");
    var pop = go && go.closest("[popover]");
    if (pop && pop.hidePopover) pop.hidePopover();
  });
  // Screen readers: the board marks what is worth saying with data-say (a decision that is now
  // the viewer's, the newest dice or news); after each frame, what is new is copied, as one
  // short sentence, into #game-announce, a polite live region outside the swapped board. Nothing
  // is said on page load, and an unchanged decision is not said again unless the person acted.
  var said = null;
  var acted = false;
  var ORDER = { dice: 0, news: 1, decision: 2 };
  function announce() {
    var board = document.getElementById("game-board");
    if (!board) return;
    var now = {};
    var lines = [];
    board.querySelectorAll("[data-say]").forEach(function (el) {
      var kind = el.dataset.sayKind || el.id;
      var key = (el.dataset.sayKey || "") + "|" + el.dataset.say;
      now[kind] = key;
      var fresh = said && (said[kind] !== key || (kind === "decision" && acted));
      if (fresh && el.dataset.say) lines.push([ORDER[kind] || 0, el.dataset.say]);
    });
    said = now;
    acted = false;
    var region = document.getElementById("game-announce");
    if (!region || !lines.length) return;
    lines.sort(function (a, b) { return a[0] - b[0]; });
    region.textContent = "";
    setTimeout(function () {
      region.textContent = lines.map(function (l) { return l[1]; }).join(" ");
    }, 50);
  }
  document.addEventListener("submit", function (e) {
    if (e.target.closest && e.target.closest("#game-board")) acted = true;
  }, true);
  document.addEventListener("htmx:wsAfterMessage", announce);
  // A hero's panel is the same for every viewer (board.css marks the viewer's own). The fold of
  // the viewer's own hero (its saga and cards) opens the first time the page shows it; after
  // that it stays as the person leaves it (a swap keeps the folds, above).
  var opened = {};
  function openOwn() {
    var kb = document.querySelector(".kb[data-viewer]");
    var id = kb && "kb-hero-more-" + kb.dataset.viewer;
    var fold = id && !opened[id] && document.getElementById(id);
    if (!fold) return;
    opened[id] = true;
    fold.open = true;
  }
  document.addEventListener("htmx:wsAfterMessage", openOwn);
  window.addEventListener("resize", fit);
  function ready() { fit(); openOwn(); announce(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
