// Kilforth board: the server swaps the board, or only its changed parts, over the websocket
// (htmx oob swaps). Keep the keyboard focus (elements with a stable id) and the map's and log's
// scroll positions, and after a partial frame carry its versions onto the board.
(function () {
  var saved = null;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    // A whole board arrives on its own or inside the table's live fragment; a part on its own.
    var target = e.target;
    if (!target || !target.querySelector) return;
    var active = document.activeElement;
    var map = target.querySelector(".kb-map-scroll");
    var log = target.querySelector(".log-list");
    saved = {
      focus: active && target.contains(active) && active.id ? active.id : null,
      map: map ? map.scrollLeft : null,
      log: log ? log.scrollTop : null
    };
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var board = document.getElementById("game-board");
    if (!saved || !board) return;
    var map = board.querySelector(".kb-map-scroll");
    var log = board.querySelector(".log-list");
    if (map && saved.map !== null) map.scrollLeft = saved.map;
    if (log && saved.log !== null) log.scrollTop = saved.log;
    var focus = saved.focus && document.getElementById(saved.focus);
    if (focus) focus.focus({ preventScroll: true });
    saved = null;
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
})();
