// Hints one at a time, and solutions that ask first.

import { el, session } from "./shared.js";

export function hints() {
  var seen = [];
  document.querySelectorAll("details.hint").forEach(function (first) {
    if (seen.indexOf(first) >= 0) return;
    // A group: this hint and the hints right after it.
    var group = [first];
    var next = first.nextElementSibling;
    while (next && next.matches("details.hint")) {
      group.push(next);
      next = next.nextElementSibling;
    }
    seen = seen.concat(group);
    group.forEach(function (hint, i) {
      if (i > 0) hint.hidden = true;
      var following = group[i + 1];
      if (!following) return;
      var more = el("button", { type: "button", "class": "another-hint" }, "Another hint");
      more.addEventListener("click", function () {
        following.hidden = false;
        following.open = true;
        more.remove();
        var summary = following.querySelector("summary");
        if (summary) summary.focus();
      });
      (hint.querySelector(":scope > .content") || hint).appendChild(more);
    });
  });
}

var REVEAL_KEY = "course-reveal:" + location.pathname;

export function reveals() {
  document.querySelectorAll("details").forEach(function (details) {
    var summary = details.querySelector(":scope > summary");
    if (!summary || !/^\s*Reveal/.test(summary.textContent) || details.classList.contains("hint")) return;
    var content = details.querySelector(":scope > .content");
    if (!content || session.getItem(REVEAL_KEY) === "yes") return;
    details.classList.add("reveal");
    content.hidden = true;
    var ask = el("div", { "class": "reveal-confirm", role: "group", "aria-label": "Open the solution?" });
    ask.appendChild(el("p", {}, "Try the TODOs first? Open the solution anyway?"));
    var yes = el("button", { type: "button", "class": "reveal-yes" }, "Open the solution");
    var no = el("button", { type: "button", "class": "reveal-no" }, "Not yet");
    ask.appendChild(yes);
    ask.appendChild(no);
    details.insertBefore(ask, content);
    yes.addEventListener("click", function () {
      session.setItem(REVEAL_KEY, "yes");
      // Every solution on this page opens freely from now on.
      document.querySelectorAll("details.reveal").forEach(function (d) {
        var c = d.querySelector(":scope > .content");
        var a = d.querySelector(":scope > .reveal-confirm");
        if (c) c.hidden = false;
        if (a) a.remove();
      });
      summary.focus();
    });
    no.addEventListener("click", function () {
      details.open = false;
      summary.focus();
    });
    details.addEventListener("toggle", function () {
      if (details.open && ask.isConnected) yes.focus();
    });
  });
}
