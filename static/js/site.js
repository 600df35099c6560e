// Small behaviours of every page, kept out of the markup (the Content-Security-Policy allows
// no inline script): select a share link on click, copy it with a button, dismiss a notice.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var input = e.target.closest && e.target.closest("input.copy");
    if (input) { input.select(); return; }
    var copy = e.target.closest && e.target.closest("button[data-copy]");
    if (copy) {
      var field = document.getElementById(copy.dataset.copy);
      if (!field) { return; }
      field.select();
      var done = function () {
        copy.textContent = "Copied";
        setTimeout(function () { copy.textContent = "Copy"; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
      return;
    }
    var dismiss = e.target.closest && e.target.closest(".flash-dismiss");
    if (dismiss) { dismiss.parentElement.textContent = ""; }
  });
})();
