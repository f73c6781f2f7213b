// Progress: the grader's results (served locally) and a "done" mark per chapter.

import { el, local, root, learnerResults } from "./shared.js";

var DONE_KEY = "course-done";

function doneMarks() {
  try { return JSON.parse(local.getItem(DONE_KEY) || "{}") || {}; } catch (e) { return {}; }
}

function setDone(chapter, done) {
  var marks = doneMarks();
  if (done) marks[chapter] = true; else delete marks[chapter];
  local.setItem(DONE_KEY, JSON.stringify(marks));
}

var graded = {};   // chapter -> {passed, failed}

// Chapter links: the sidebar's, and the home page's list; each has <span class="num">NN</span>.
function chapterLinks() {
  var links = [];
  document.querySelectorAll("nav.sidebar a, .chapter-list a").forEach(function (a) {
    var n = a.querySelector(".num");
    if (n) links.push({ link: a, chapter: n.textContent.trim() });
  });
  return links;
}

export function showProgress() {
  var marks = doneMarks();
  chapterLinks().forEach(function (c) {
    var g = graded[c.chapter];
    var passed = g && g.failed === 0 && g.passed > 0;
    var toFix = g && !passed ? g.failed || "some" : 0;
    var done = passed || !!marks[c.chapter];
    var item = c.link.parentNode;
    item.classList.toggle("done", done);
    item.classList.toggle("passed", !!passed);
    item.classList.toggle("to-fix", !!toFix);
    var badge = c.link.querySelector(".progress-mark");
    if (!badge) {
      badge = el("span", { "class": "progress-mark" });
      c.link.appendChild(badge);
    }
    if (passed) {
      badge.textContent = "✓";
      badge.title = "Your checks pass (" + g.passed + ")";
    } else if (toFix) {
      badge.textContent = toFix + " to fix";
      badge.title = "scripts/check.sh " + c.chapter + ": " + (g.failed || 0) + " failed, " + (g.passed || 0) + " passed";
    } else if (done) {
      badge.textContent = "✓";
      badge.title = "Marked done";
    } else {
      badge.textContent = "";
      badge.removeAttribute("title");
    }
    // A screen reader hears the state with the link; the mark itself is decoration.
    badge.setAttribute("aria-hidden", "true");
    var state = c.link.querySelector(".visually-hidden.progress-state");
    if (!state) {
      state = el("span", { "class": "visually-hidden progress-state" });
      c.link.appendChild(state);
    }
    state.textContent = passed ? " (checks pass)" : toFix ? " (" + toFix + " to fix)" : done ? " (done)" : "";
  });
  var toggle = document.querySelector(".done-toggle");
  if (toggle) toggle.update();
}

function currentChapter() {
  var n = document.querySelector("nav.sidebar li.current .num");
  return n ? n.textContent.trim() : null;
}

export function doneToggle() {
  var chapter = currentChapter();
  var article = document.querySelector("article.page");
  if (!chapter || !article) return;
  var box = el("div", { "class": "done-toggle" });
  var button = el("button", { type: "button", "aria-pressed": "false" });
  var note = el("p", { "class": "done-note" });
  box.appendChild(button);
  box.appendChild(note);
  box.update = function () {
    var g = graded[chapter];
    var passed = g && g.failed === 0 && g.passed > 0;
    var done = !!doneMarks()[chapter];
    button.setAttribute("aria-pressed", String(done || !!passed));
    button.textContent = done || passed ? "✓ Chapter done" : "Mark this chapter done";
    button.disabled = !!passed;
    note.textContent = passed ? "Your checks pass (scripts/check.sh " + chapter + "): done."
      : g ? "scripts/check.sh " + chapter + ": " + g.failed + " to fix." : "Kept in this browser only.";
  };
  button.addEventListener("click", function () {
    setDone(chapter, !doneMarks()[chapter]);
    showProgress();
  });
  var pager = article.querySelector("nav.pager");
  article.insertBefore(box, pager);
  box.update();
}

// Only files that exist are named in the meta tag (partials/head.html, under hugo server).
export function loadGrades() {
  learnerResults.then(function (all) {
    all.filter(function (f) { return /^checks\/\d+\.json$/.test(f); }).forEach(loadGrade);
  });
}

function loadGrade(f) {
  fetch(root + "results/" + f, { cache: "no-store" }).then(function (response) {
    if (!response.ok) throw new Error(response.status);
    return response.json();
  }).then(function (r) {
    var chapter = String(r.chapter || f.replace(/^checks\/(\d+)\.json$/, "$1"));
    graded[chapter] = { passed: Number(r.passed) || 0, failed: Number(r.failed) || 0 };
    showProgress();
  }).catch(function () { /* no results for that chapter: nothing to show */ });
}
