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

  // A game's option that applies only to some modes (data-show-when="mode" data-show-values=
  // "cooperative") is hidden and disabled, so not sent, while another mode is picked.
  function applies(field, form) {
    var picked = form.querySelector('[name="' + field.dataset.showWhen + '"]:checked') ||
      form.querySelector('select[name="' + field.dataset.showWhen + '"]');
    return !picked || field.dataset.showValues.split(" ").indexOf(picked.value) >= 0;
  }
  function showOptions(form) {
    form.querySelectorAll("[data-show-when]").forEach(function (field) {
      var on = applies(field, form);
      field.hidden = !on;
      field.querySelectorAll("input, select, textarea").forEach(function (input) { input.disabled = !on; });
    });
  }
  document.addEventListener("change", function (e) {
    var form = e.target.form;
    if (form && form.querySelector("[data-show-when]")) { showOptions(form); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-show-when]")) { showOptions(form); }
    });
  });
})();
