// The swap style "part" (hx-swap-oob="part"), for the table page's socket frames: the new element
// takes the old one's place whole. htmx's outerHTML swap first cleans up every element it removes
// (two events on each, and a walk up the page for each event to find its extensions), which cost
// about half of the browser's time per frame on a board of some 1,600 elements. A board's parts
// hold nothing that needs it: no socket, no polling, no listener on another element; the old
// elements go with their own listeners. htmx still processes the new element (its ws-send forms)
// and fires htmx:load on it. htmx:oobAfterSwap is fired here, once, on the new element: htmx fires
// it after each swap on every element the frame has swapped so far (a frame of 17 parts: 153
// events, each looking up its extensions).
(function () {
  htmx.defineExtension("parts", {
    isInlineSwap: function (style) { return style === "part"; },
    handleSwap: function (style, target, fragment) {
      if (style !== "part") return false;
      var fresh = fragment.firstElementChild;
      if (!fresh || !target.parentNode) return [];  // nothing to put in its place: leave it
      target.replaceWith(fresh);
      htmx.trigger(fresh, "htmx:oobAfterSwap", { target: fresh, fragment: fragment });
      return [fresh];
    }
  });
})();
