// The guide of a tutorial table: after every frame, mark the choice the coach panel points at
// (#table-coach[data-highlight], a choice's key) with a class, a "Guide" tag and a description
// (the coach's sentence), and the board element it names (data-spot). The server renders the
// panel; this only carries its pointer onto the board, which the kit renders.
(function () {
  function clear() {
    document.querySelectorAll(".coach-target").forEach(function (el) {
      el.classList.remove("coach-target");
      delete el.dataset.coach;
      var ids = (el.getAttribute("aria-describedby") || "").split(" ").filter(function (id) {
        return id && id !== "coach-text";
      });
      if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
      else el.removeAttribute("aria-describedby");
    });
    document.querySelectorAll(".coach-tag").forEach(function (el) { el.remove(); });
    document.querySelectorAll(".coach-spot").forEach(function (el) { el.classList.remove("coach-spot"); });
  }

  // The marked choice is scrolled into view inside the decision's own scroller (the phone's
  // docked bar, a long menu), once per new mark: never the page, never against the person.
  var revealed = null;
  function reveal(button, key) {
    if (revealed === key) return;
    revealed = key;
    var box = button.closest(".kb-decision, [id$='-decision']");
    if (!box) return;
    var outer = box.getBoundingClientRect();
    var inner = button.getBoundingClientRect();
    // What of the scroller is on the screen (a docked bar may reach past the screen's edge).
    var top = Math.max(outer.top, 0);
    var bottom = Math.min(outer.bottom, window.innerHeight);
    if (inner.top < top) box.scrollTop -= top - inner.top + 8;
    else if (inner.bottom > bottom) box.scrollTop += inner.bottom - bottom + 8;
  }

  // Screen readers hear each new step of the guide in a few words (its details are the marked
  // button's description): a polite live region of its own, made once, outside every swap.
  var heard = null;
  function liveRegion() {
    var region = document.getElementById("coach-announce");
    if (!region) {
      region = document.createElement("div");
      region.id = "coach-announce";
      region.className = "sr-only";
      region.setAttribute("aria-live", "polite");
      document.body.appendChild(region);
    }
    return region;
  }
  function say(coach) {
    var kicker = coach && !coach.hidden && coach.querySelector(".coach-kicker");
    var title = coach && coach.querySelector(".coach-title");
    var now = kicker && title ? kicker.textContent.trim() + ": " + title.textContent.trim() : "";
    if (heard !== null && now && now !== heard) {
      var region = liveRegion();
      region.textContent = "";
      setTimeout(function () { region.textContent = now.replace(/^\W+/, "") + "."; }, 150);
    }
    heard = now;
  }

  function apply() {
    clear();
    say(document.getElementById("table-coach"));
    var coach = document.getElementById("table-coach");
    var board = document.getElementById("game-board");
    if (!coach || coach.hidden || !board) return;
    var key = coach.dataset.highlight;
    if (key) {
      board.querySelectorAll('form input[name="key"]').forEach(function (input) {
        if (input.value !== key) return;
        var button = input.form && input.form.querySelector("button");
        if (!button) return;
        button.classList.add("coach-target");
        button.dataset.coach = "next";
        var ids = (button.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        button.setAttribute("aria-describedby", ["coach-text"].concat(ids).join(" "));
        var tag = document.createElement("span");
        tag.className = "coach-tag";
        tag.setAttribute("aria-hidden", "true");
        tag.textContent = "Guide";
        button.insertBefore(tag, button.firstChild);
        reveal(button, key);
      });
    }
    var spot = coach.dataset.spot && document.getElementById(coach.dataset.spot);
    if (spot && board.contains(spot)) {
      spot.classList.add("coach-spot");
      var mark = document.createElement("span");
      mark.className = "coach-tag coach-spot-tag";
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = "Guide";
      spot.appendChild(mark);
    }
  }

  document.addEventListener("htmx:wsAfterMessage", apply);
  // A turned phone or a resized window lays the bar out anew: show the mark again.
  window.addEventListener("resize", function () { revealed = null; apply(); });
  function ready() {
    if (document.getElementById("table-coach")) liveRegion();
    apply();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
