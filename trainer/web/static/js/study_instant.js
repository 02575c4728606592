// Instant answers on the study pages (#21): the answer is posted with fetch and the feedback is
// shown in place; "Next fact" fetches the next question the same way and puts its address in the
// history, so Back and reloading still work. The server judges and records every answer exactly
// as for the page form (it answers JSON when asked for it); without JavaScript, or if anything
// unexpected comes back, the ordinary pages take over.
(function () {
  "use strict";
  if (!window.fetch || !window.FormData || !window.URLSearchParams || !window.history ||
      !history.pushState || !document.getElementById("study-item")) return;

  var busy = false;
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var GONE = "We could not reach the server. Check the connection, then try again.";
  var WRONG = "Something went wrong. Please try again.";

  function stage() {
    return document.getElementById("study-item");
  }

  // Read out a line to screen readers; emptied first, so the same words said twice are said twice.
  function say(text) {
    var live = document.getElementById("study-said");
    if (!live) return;
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 50);
  }

  // A note on the page for an answer that was not taken (what the page form would have flashed).
  function notice(text) {
    var box = document.getElementById("study-notice");
    if (box) box.textContent = text || "";
  }

  function text(root, selector) {
    var found = root.querySelector(selector);
    return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // A new question's map: pickmap.js binds it (the arrow keys, the live region) before it is used.
  function rebindMaps(fresh) {
    if (!fresh.querySelector("[data-pick-map]")) return;
    if (window.GeoPickMap && window.GeoPickMap.bind) {
      window.GeoPickMap.bind(fresh);
      return;
    }
    var current = document.querySelector('script[src*="/js/pickmap.js"]');
    if (!current) return;
    var again = document.createElement("script");
    again.src = current.src;
    again.addEventListener("load", function () { again.parentNode.removeChild(again); });
    document.body.appendChild(again);
  }

  // Put a question or a feedback fragment in place of the one shown; ``how`` is "push" (a new
  // history entry), "replace" (this entry's address) or null (the address stays).
  function show(data, how) {
    var old = stage();
    var holder = document.createElement("template");
    holder.innerHTML = String(data.html).trim();
    var fresh = holder.content.querySelector("#study-item");
    if (!old || !fresh) {
      window.location.assign(data.url || window.location.href);
      return;
    }
    if (!reduceMotion) fresh.classList.add("study-item--enter");
    old.parentNode.replaceChild(fresh, old);
    if (data.title) document.title = data.title;
    if (how === "push") history.pushState({ study: true }, "", data.url);
    else if (how === "replace") history.replaceState({ study: true }, "", data.url);
    if (window.GeoAnswer) window.GeoAnswer.init();
    rebindMaps(fresh);
    if (fresh.getBoundingClientRect().top < 0) fresh.scrollIntoView({ block: "start" });
    var heading = fresh.querySelector("#verdict-title");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus();
      var expected = text(fresh, ".verdict__expected");
      say(text(fresh, "#verdict-title") + (expected ? " The answer: " + expected + "." : ""));
      return;
    }
    var first = fresh.querySelector("[autofocus]") || fresh.querySelector("#q-title");
    if (first) first.focus();
    var error = text(fresh, "#answer-error");
    var where = data.index && data.total ? "Question " + data.index + " of " + data.total + ". " : "";
    say(error || where + text(fresh, "#q-title"));
  }

  function json(response) {
    var type = response.headers.get("Content-Type") || "";
    if (type.indexOf("application/json") !== 0) return Promise.reject(new Error("not JSON"));
    return response.json().then(function (body) { return { status: response.status, body: body }; });
  }

  // Show the page at ``url`` (a question or a feedback) without a reload; anything else is opened
  // as a page.
  function load(url, how, hops) {
    busy = true;
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(json)
      .then(function (answer) {
        busy = false;
        if (answer.status === 200 && answer.body.html) show(answer.body, how);
        else if (answer.status === 409 && answer.body.url && (hops || 0) < 2) {
          return load(answer.body.url, "replace", (hops || 0) + 1);
        } else window.location.assign(url);
      })
      .catch(function () {
        busy = false;
        window.location.assign(url);
      });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "answer-form" || !form.hasAttribute("data-instant")) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    var fields = new FormData(form);
    var button = event.submitter;
    if (button && button.name) fields.append(button.name, button.value);
    form.setAttribute("aria-busy", "true");
    notice("");
    fetch(window.location.href, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Accept: "application/json" },
      credentials: "same-origin"
    })
      .then(json)
      .then(function (answer) {
        busy = false;
        var body = answer.body;
        if (answer.status === 200 && body.html) {
          show(body, "replace");
        } else if (answer.status === 400 && body.html) {
          show(body, null); // the question again, with what to do
        } else if (answer.status === 409 && body.url) {
          notice(body.message);
          return load(body.url, "replace");
        } else {
          form.removeAttribute("aria-busy");
          notice(body.message || WRONG);
          if (window.GeoAnswer) window.GeoAnswer.ready();
        }
      })
      .catch(function () {
        busy = false;
        form.removeAttribute("aria-busy");
        notice(GONE);
        if (window.GeoAnswer) window.GeoAnswer.ready();
      });
  });

  // "Next fact": the next question in place, with its own address.
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a#next[data-instant]") : null;
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    notice("");
    load(link.href, "push");
  });

  // Back and Forward between the facts of the round: show the page at that address as it is now.
  window.addEventListener("popstate", function (event) {
    if (!event.state || !event.state.study) return;
    notice("");
    load(window.location.href, null);
  });
  history.replaceState({ study: true }, "", window.location.href);
})();
