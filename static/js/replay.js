// Replay page: keys step through the game (the page's own links do the work): the arrows by
// decision, Page Up / Page Down (or Shift with an arrow) by day or round, Home and End to the
// ends, H flips the "Reveal hands" switch. The slider shows the decision and the day or round
// it points at while it moves, and goes there when let go.
(function () {
  "use strict";
  var keys = {
    ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last",
    PageUp: "prev-phase", PageDown: "next-phase"
  };
  var shifted = { ArrowLeft: "prev-phase", ArrowRight: "next-phase" };

  function follow(link) { window.location.assign(link.href); }

  document.addEventListener("keydown", function (e) {
    var tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if ((e.key === "h" || e.key === "H") && !e.shiftKey) {
      var flip = document.querySelector(".replay-switch");
      if (flip) { e.preventDefault(); follow(flip); }
      return;
    }
    var rel = (e.shiftKey ? shifted[e.key] : null) || keys[e.key];
    var link = rel && document.querySelector('.replay-controls a[rel="' + rel + '"]');
    if (link) { e.preventDefault(); follow(link); }
  });

  // The day or round a step is in, from the slider's marks (the first step of each).
  function phaseOf(step) {
    var label = "";
    var options = document.querySelectorAll("#replay-marks option");
    for (var i = 0; i < options.length; i++) {
      if (Number(options[i].value) > step) { break; }
      label = options[i].label;
    }
    return label;
  }

  document.addEventListener("input", function (e) {
    if (e.target.id !== "replay-step") { return; }
    var out = document.querySelector('output[for="replay-step"]');
    var phase = phaseOf(Number(e.target.value));
    if (out) { out.textContent = e.target.value + (phase ? " · " + phase : ""); }
  });
  document.addEventListener("change", function (e) {
    if (e.target.id === "replay-step" || e.target.id === "replay-seat") { e.target.form.requestSubmit(); }
  });
})();
