// The Kilforth board's log, on the table page (after every frame) and on the replay page (once):
// its groups in the page's order, and a seat's own rows placed among them. The log reads the
// same without it on screen but for a seat's own rows (hidden until placed), and a screen
// reader would read the groups in the ring's order.
(function () {
  // The log's groups are a ring of parts (a new group takes the oldest one's place); the CSS
  // shows them newest first, and here they are put in that order in the page, for screen
  // readers and for copying. Only a group out of place moves.
  function logOrder() {
    document.querySelectorAll(".log-list").forEach(function (list) {
      var groups = Array.prototype.slice.call(list.children);
      var sorted = groups.slice().sort(function (a, b) {
        return Number(b.dataset.group) - Number(a.dataset.group);
      });
      sorted.forEach(function (g, i) {
        if (list.children[i] !== g) list.insertBefore(g, list.children[i]);
      });
    });
  }
  // A seat's own rows (what it was asked and chose, the cards it drew) come in a hidden part of
  // their own (#kb-log-own), so that the groups are the same for every viewer (board/parts.py,
  // log_groups). A copy of each goes among the groups' rows, at its place (data-group, and
  // data-older: how many of that group's rows are older), under its day, with a day heading of
  // its own where no row above is of its day. Done again after every frame: a swapped group
  // comes without the copies, and the own part may have changed. The groups are in the page's
  // order first (logOrder), newest first, as are the own rows.
  function logOwn() {
    document.querySelectorAll(".kb-log").forEach(function (fold) {
      var list = fold.querySelector(".log-list");
      var own = fold.querySelector(".log-own");
      if (!list) return;
      list.querySelectorAll(".from-own").forEach(function (el) { el.remove(); });
      if (!own || !own.children.length) return;
      // Everyone's rows in the page's order, and where each group's rows start among them.
      var rows = [];
      var end = {};
      var groups = list.querySelectorAll(".log-group");
      groups.forEach(function (g) {
        g.querySelectorAll(":scope > .log-row").forEach(function (r) { rows.push(r); });
        end[g.dataset.group] = rows.length;
      });
      Array.prototype.forEach.call(own.children, function (row) {
        // Its group's end, less the rows of it that are older; a group not in the ring is
        // newer than every group's rows (its own events came first).
        var g = row.dataset.group;
        var at = g in end ? end[g] - Number(row.dataset.older) : 0;
        var below = rows[at];
        var copy = row.cloneNode(true);
        copy.classList.add("from-own");
        if (!below) {
          if (groups.length) groups[groups.length - 1].appendChild(copy);
          return;
        }
        // Above the day heading of the row below when that row is of an older day.
        var heading = below.previousElementSibling;
        while (heading && heading.classList.contains("from-own")) heading = heading.previousElementSibling;
        var before = heading && heading.classList.contains("log-day") &&
          heading.dataset.day !== row.dataset.day ? heading : below;
        before.parentNode.insertBefore(copy, before);
      });
      var day = null;
      list.querySelectorAll(".log-group > .log-day, .log-group > .from-own").forEach(function (el) {
        if (el.classList.contains("log-row") && el.dataset.day !== day) {
          var heading = document.createElement("li");
          heading.className = "log-day from-own";
          heading.setAttribute("aria-hidden", "true");
          heading.dataset.day = el.dataset.day;
          heading.textContent = "Day " + el.dataset.day;
          el.parentNode.insertBefore(heading, el);
        }
        day = el.dataset.day;
      });
    });
  }
  function arrange() { logOrder(); logOwn(); }
  document.addEventListener("htmx:wsAfterMessage", arrange);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", arrange);
  else arrange();
})();
