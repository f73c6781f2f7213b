// Search: index.json (written by Hugo, layouts/index.json), loaded on first use.

import { el, root } from "./shared.js";

export function search() {
  var input = document.getElementById("site-search");
  if (!input) return;
  var results = document.getElementById("site-search-results");
  var status = document.getElementById("site-search-status");
  var index = null, loading = null;

  function load() {
    if (!loading) {
      loading = fetch(root + "index.json").then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      }).then(function (pages) {
        index = pages.map(function (p) {
          return { page: p, title: (p.title || "").toLowerCase(), text: (p.text || "").toLowerCase() };
        });
      }).catch(function () {
        loading = null;
        status.textContent = "Search needs the site served over HTTP (scripts/start.sh).";
      });
    }
    return loading;
  }

  function snippet(text, lower, term) {
    var at = lower.indexOf(term);
    if (at < 0) return document.createTextNode(text.slice(0, 140) + (text.length > 140 ? "…" : ""));
    var start = Math.max(0, at - 60), end = Math.min(text.length, at + term.length + 80);
    var span = el("span", { "class": "search-snippet" });
    span.appendChild(document.createTextNode((start > 0 ? "…" : "") + text.slice(start, at)));
    span.appendChild(el("mark", {}, text.slice(at, at + term.length)));
    span.appendChild(document.createTextNode(text.slice(at + term.length, end) + (end < text.length ? "…" : "")));
    return span;
  }

  function find() {
    var query = input.value.trim().toLowerCase();
    results.textContent = "";
    if (!query) {
      status.textContent = "";
      return;
    }
    if (!index) {
      load().then(function () { if (index) find(); });
      return;
    }
    var terms = query.split(/\s+/).filter(Boolean);
    var hits = index.map(function (entry) {
      var score = 0;
      for (var i = 0; i < terms.length; i++) {
        var t = terms[i];
        var inTitle = entry.title.indexOf(t) >= 0, inText = entry.text.indexOf(t) >= 0;
        if (!inTitle && !inText) return null;
        score += (inTitle ? 10 : 0) + (inText ? Math.min(entry.text.split(t).length - 1, 10) : 0);
      }
      return { entry: entry, score: score };
    }).filter(Boolean).sort(function (a, b) { return b.score - a.score; }).slice(0, 8);
    hits.forEach(function (hit) {
      var p = hit.entry.page;
      var li = el("li");
      var a = el("a", { href: root + p.url });
      a.appendChild(el("span", { "class": "search-title" }, (p.chapter ? p.chapter + " " : "") + p.title));
      var longest = terms.slice().sort(function (x, y) { return y.length - x.length; })[0];
      a.appendChild(snippet(p.text || "", hit.entry.text, longest));
      li.appendChild(a);
      results.appendChild(li);
    });
    status.textContent = hits.length ? hits.length + (hits.length === 1 ? " page" : " pages") + " found; arrow keys move through them."
      : "Nothing found for “" + input.value.trim() + "”.";
  }

  function links() { return Array.prototype.slice.call(results.querySelectorAll("a")); }

  input.addEventListener("focus", load);
  input.addEventListener("input", find);
  input.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown" && links().length) {
      e.preventDefault();
      links()[0].focus();
    } else if (e.key === "Enter" && links().length) {
      e.preventDefault();
      links()[0].click();
    } else if (e.key === "Escape") {
      input.value = "";
      find();
    }
  });
  results.addEventListener("keydown", function (e) {
    var all = links(), at = all.indexOf(document.activeElement);
    if (at < 0) return;
    if (e.key === "ArrowDown") {
      e.preventDefault();
      all[Math.min(at + 1, all.length - 1)].focus();
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      if (at === 0) input.focus(); else all[at - 1].focus();
    } else if (e.key === "Escape") {
      input.focus();
    }
  });
}
