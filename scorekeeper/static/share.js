/* "Copy" and "Share" beside a link to hand on (_share.html, link_field): the phone's
 * share sheet (the Web Share API) where it has one, the clipboard always. Whether the
 * link was copied is said in a live region beside the buttons. Without JavaScript the
 * link stays in its read-only field, to be selected and copied by hand.
 */
(function () {
  "use strict";

  /* Put the field's link on the clipboard: the Clipboard API (on secure pages only: HTTPS
     or this computer), else the older copy command on the field's selected text. */
  function copy(input) {
    function byCommand() {
      input.select();
      return document.execCommand("copy") ? Promise.resolve() : Promise.reject(new Error("copy"));
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(input.value).catch(byCommand);
    }
    try {
      return byCommand();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function setUp(box) {
    var input = box.querySelector("input");
    var actions = document.createElement("span");
    var status = document.createElement("span");
    var timer = null;
    actions.className = "share-actions";
    status.className = "share-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");

    function say(text) {
      status.textContent = text;
      clearTimeout(timer);
      timer = setTimeout(function () { status.textContent = ""; }, 5000);
    }

    function button(text, action) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = text;
      b.addEventListener("click", action);
      actions.appendChild(b);
    }

    if (navigator.share) {
      button(box.dataset.share, function () {
        // Closing the share sheet without sharing rejects: nothing to say then.
        navigator.share({ title: document.title, url: input.value }).catch(function () {});
      });
    }
    button(box.dataset.copy, function () {
      copy(input).then(function () { say(box.dataset.copied); }, function () {
        input.focus();
        input.select();
        say(box.dataset.notCopied);
      });
    });
    actions.appendChild(status);
    input.insertAdjacentElement("afterend", actions);
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-share-link]"), setUp);
})();
