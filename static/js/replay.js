// Replay page: arrow keys step through the game (the page's own links do the work), and the
// slider shows the decision it points at before it is submitted.
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (e) {
    var tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var rel = keys[e.key];
    var link = rel && document.querySelector('.replay-controls a[rel="' + rel + '"]');
    if (link) { e.preventDefault(); window.location.assign(link.href); }
  });
  document.addEventListener("input", function (e) {
    if (e.target.id !== "replay-step") { return; }
    var out = document.querySelector('output[for="replay-step"]');
    if (out) { out.textContent = e.target.value; }
  });
})();
