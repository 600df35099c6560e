// Kilforth board: when the server swaps #game-board over the websocket (htmx oob swap), keep the
// keyboard focus (elements with a stable id) and the map's and log's scroll positions.
(function () {
  var saved = null;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    // The board arrives on its own or inside the table's live fragment.
    var target = e.target;
    var board = target && target.id === "game-board" ? target
      : target && target.querySelector ? target.querySelector("#game-board") : null;
    if (!board) return;
    var active = document.activeElement;
    var map = board.querySelector(".kb-map-scroll");
    var log = board.querySelector(".log-list");
    saved = {
      focus: active && board.contains(active) && active.id ? active.id : null,
      map: map ? map.scrollLeft : 0,
      log: log ? log.scrollTop : 0
    };
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var board = document.getElementById("game-board");
    if (!saved || !board) return;
    var map = board.querySelector(".kb-map-scroll");
    var log = board.querySelector(".log-list");
    if (map) map.scrollLeft = saved.map;
    if (log) log.scrollTop = saved.log;
    var focus = saved.focus && document.getElementById(saved.focus);
    if (focus) focus.focus({ preventScroll: true });
    saved = null;
  });
})();
