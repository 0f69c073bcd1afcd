// Forms that show only what the choice made above them uses. Without this script every
// field stays on the page and the server sorts out what applies; with it:
//
// - an element with data-show-if="NAME:VALUE VALUE…" is shown only while the form's
//   control NAME (a select or a group of radio buttons) has one of those values; the
//   inputs inside a hidden element are disabled, so they are not sent;
// - a select with data-follows="NAME" offers only the options whose data-fits lists
//   the current value of NAME (an option without data-fits always fits), and goes back
//   to its first option when NAME changes: choosing a game chooses its usual rules.
// - an element with data-name-of="NAME" (a choice that names a player) says what is typed
//   in the form's field NAME, or its data-blank words while that is blank.
(function () {
  "use strict";

  function valueOf(form, name) {
    var controls = form.querySelectorAll('[name="' + name + '"]');
    for (var i = 0; i < controls.length; i++) {
      var control = controls[i];
      if (control.type === "radio" || control.type === "checkbox") {
        if (control.checked) { return control.value; }
      } else {
        return control.value;
      }
    }
    return "";
  }

  function update(form) {
    form.querySelectorAll("[data-show-if]").forEach(function (element) {
      var rule = element.getAttribute("data-show-if").split(":");
      var shown = rule[1].split(" ").indexOf(valueOf(form, rule[0])) >= 0;
      element.hidden = !shown;
      var inputs = element.matches("input, select, textarea")
        ? [element] : element.querySelectorAll("input, select, textarea");
      Array.prototype.forEach.call(inputs, function (input) {
        input.disabled = !shown;
        // A hidden choice cannot stay the chosen one: the group's first shown one is.
        if (!shown && input.type === "radio" && input.checked) {
          input.checked = false;
          var first = form.querySelector('input[name="' + input.name + '"]:not(:disabled)');
          if (first) { first.checked = true; }
        }
      });
    });
    form.querySelectorAll("select[data-follows]").forEach(function (select) {
      var chosen = valueOf(form, select.getAttribute("data-follows"));
      Array.prototype.forEach.call(select.options, function (option) {
        var fits = option.getAttribute("data-fits");
        var ok = fits === null || fits.split(" ").indexOf(chosen) >= 0;
        option.hidden = !ok;
        option.disabled = !ok;
      });
      if (select.selectedOptions.length && select.selectedOptions[0].disabled) {
        select.selectedIndex = 0;
      }
    });
  }

  function showNames(form) {
    form.querySelectorAll("[data-name-of]").forEach(function (element) {
      var typed = valueOf(form, element.getAttribute("data-name-of")).trim();
      element.textContent = typed || element.getAttribute("data-blank");
    });
  }

  function setUp(form) {
    if (form.hasAttribute("data-forms-ready")) { return; }
    if (!form.querySelector("[data-show-if], select[data-follows], [data-name-of]")) { return; }
    form.setAttribute("data-forms-ready", "");
    form.addEventListener("input", function () { showNames(form); });
    showNames(form);
    form.addEventListener("change", function (event) {
      var name = event.target.name;
      form.querySelectorAll("select[data-follows]").forEach(function (select) {
        if (select.getAttribute("data-follows") === name) { select.selectedIndex = 0; }
      });
      update(form);
    });
    update(form);
  }

  function setUpAll() { document.querySelectorAll("form").forEach(setUp); }
  setUpAll();
  // live.js swapped a part of the page for a fresh one: its forms are new elements.
  document.addEventListener("scorekeeper:live", setUpAll);
})();
