/* The live sheet: a change made on another phone shows here within about a second.
 *
 * Every second (while the tab is visible) the page asks the game's live address
 * (data-src) whether the game moved past the version the page was drawn from; the
 * server answers an empty 304 while it has not. When it has, the page is fetched again
 * (data-page) and each [data-live-region] part is swapped for its new version, except a
 * part holding a hand form the player has typed into (or that is marked
 * data-live-keep): that form stays as it is, with its old hidden version, so Save is
 * still checked against the sheet the player saw, and a notice near Save says what
 * changed. Errors back off up to half a minute; while the server cannot be reached at
 * all (the phone still thinks it is online) the page says so: "scorekeeper:unreachable",
 * which app/network.js shows as "offline — as of" the last time it did. Without
 * JavaScript a reload does it.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  if (!script || !window.fetch || !window.DOMParser) {
    return;
  }
  var src = script.dataset.src;
  var page = script.dataset.page;
  var version = script.dataset.version;
  var INTERVAL = 1000;
  var LONGEST = 30000;
  // No answer at all costs the server nothing: ask again soon, so that a sheet comes
  // back within seconds of the Wi-Fi (the browser may never say it went).
  var NO_ANSWER = 4000;
  var delay = INTERVAL;
  var timer = null;
  var busy = false;
  var gone = false;
  var UNREACHABLE = {}; // what a poll fails with when no answer came at all
  function unreachable() {
    throw UNREACHABLE;
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = document.hidden || gone ? null : setTimeout(poll, ms);
  }

  /* Whether the player has put something into ``form`` that a swap would lose. */
  function typed(form) {
    if (form.hasAttribute("data-live-keep") || form.contains(document.activeElement)) {
      return true;
    }
    return Array.prototype.some.call(form.elements, function (el) {
      if (el.type === "checkbox" || el.type === "radio") {
        return el.checked !== el.defaultChecked;
      }
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) {
          return o.selected !== o.defaultSelected;
        });
      }
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") {
        return false;
      }
      return el.value !== el.defaultValue;
    });
  }

  function keeps(region) {
    var forms = region.tagName === "FORM" ? [region] : region.querySelectorAll("form");
    return Array.prototype.some.call(forms, function (form) {
      return form.querySelector("[name=version]") && typed(form);
    });
  }

  /* The notice just above the form's Save button, or at the top of ``where``. */
  function notify(where, text) {
    var notice = where.querySelector("[data-live-notice]");
    if (!notice) {
      notice = document.createElement("p");
      notice.className = "flash flash-warning live-notice";
      notice.setAttribute("role", "status");
      notice.setAttribute("data-live-notice", "");
      var save = where.tagName === "FORM" ? where.querySelector("button[type=submit]") : null;
      if (save) {
        save.parentNode.insertBefore(notice, save);
      } else {
        where.insertBefore(notice, where.firstChild);
      }
    }
    notice.textContent = text;
  }

  /* Rows that are new or different after a swap get a short highlight. */
  function mark(before, after) {
    var old = {};
    Array.prototype.forEach.call(before.querySelectorAll("[id]"), function (el) {
      old[el.id] = el.innerHTML;
    });
    Array.prototype.forEach.call(after.querySelectorAll("tr[id], li[id]"), function (el) {
      if (old[el.id] !== el.innerHTML) {
        el.classList.add("live-new");
      }
    });
  }

  function swap(html, news) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    // A page drawn a moment before the news (a night's board is drawn at most twice a
    // second) says which version it shows: the next poll asks from there.
    var drawn = fresh.querySelector("script[data-src][data-version]");
    if (drawn && drawn.getAttribute("data-src") === src) {
      news.drawn = drawn.getAttribute("data-version");
    }
    var swapped = [];
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-region]"), function (region) {
      var name = region.getAttribute("data-live-region");
      var next = fresh.querySelector('[data-live-region="' + name + '"]');
      if (!next) {
        return;
      }
      if (keeps(region)) {
        notify(region.tagName === "FORM" ? region : region.querySelector("form"),
               news.changed + " " + news.kept);
        return;
      }
      next = document.importNode(next, true);
      region.parentNode.replaceChild(next, region);
      mark(region, next);
      swapped.push(name);
    });
    // Other scripts (the card picker) set up what is inside a swapped part again.
    document.dispatchEvent(new CustomEvent("scorekeeper:live", { detail: { regions: swapped } }));
  }

  function refresh(news) {
    return fetch(page, {
      headers: { "X-Scorekeeper-Live": "1", Accept: "text/html" },
      credentials: "same-origin",
      cache: "no-store",
    }).then(function (response) {
      if (response.status === 404) {
        // The hand this page shows is gone (deleted or undone): say so, keep the page.
        notify(document.querySelector("main"), news.changed);
        return;
      }
      if (!response.ok) {
        throw new Error("page " + response.status);
      }
      return response.text().then(function (html) {
        swap(html, news);
      });
    }, unreachable);
  }

  function poll() {
    timer = null;
    if (busy || document.hidden || gone) {
      return;
    }
    busy = true;
    fetch(src, {
      headers: { "If-None-Match": '"' + version + '"' },
      credentials: "same-origin",
      cache: "no-store",
    })
      .then(function (response) {
        if (response.status === 304) {
          return null;
        }
        if (response.status === 404) {
          gone = true; // the game itself is gone: nothing more to follow
          return null;
        }
        if (!response.ok) {
          throw new Error("live " + response.status);
        }
        return response.json().then(function (news) {
          return refresh(news).then(function () {
            version = String(news.drawn || news.version);
          });
        });
      }, unreachable)
      .then(
        function () {
          delay = INTERVAL;
          // The server answered: what the page shows is the game as it is now
          // (app/network.js takes "offline — as of" off a copy from the phone's cache).
          document.dispatchEvent(new CustomEvent("scorekeeper:current"));
        },
        function (error) {
          delay = Math.min(delay * 2, LONGEST);
          if (error === UNREACHABLE) {
            delay = Math.min(delay, NO_ANSWER);
            document.dispatchEvent(new CustomEvent("scorekeeper:unreachable"));
          }
        }
      )
      .then(function () {
        busy = false;
        schedule(delay);
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      clearTimeout(timer);
      timer = null;
    } else {
      delay = INTERVAL;
      schedule(0);
    }
  });
  window.addEventListener("online", function () {
    delay = INTERVAL;
    schedule(0);
  });
  schedule(INTERVAL);
})();
