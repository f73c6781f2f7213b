// The course pages' own behaviour: copy buttons, progress, hints, reveals, quizzes, the
// Little's-law calculator, the selector-loop animation, search, the colour theme, and the
// benchmark panels.
//
// Everything works on the HTML that Asciidoctor and Hugo wrote; each feature looks for its
// markup and does nothing when the page has none. No library, no request to another host:
// the only fetches are index.json and the learner's results, both served with the site.
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  // The site root, from this script's own address (js/course.js): pages work under any base path.
  var root = document.currentScript ? document.currentScript.src.replace(/js\/course\.js(\?.*)?$/, "") : "";

  function el(name, attrs, text) {
    var e = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function svg(name, attrs, text) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // Storage can be missing or refuse (private windows, file://): then features forget, not fail.
  function store(kind) {
    try {
      var s = window[kind];
      s.setItem("course-probe", "1");
      s.removeItem("course-probe");
      return s;
    } catch (e) {
      return { getItem: function () { return null; }, setItem: function () {}, removeItem: function () {} };
    }
  }
  var local = store("localStorage");
  var session = store("sessionStorage");

  // Numbers as people read them: 12,345, 3.4; unknown figures (null, NaN) as a dash.
  function num(x, digits) {
    if (x === null || x === undefined || isNaN(x)) return "–";
    return Number(x).toLocaleString("en", { maximumFractionDigits: digits === undefined ? 0 : digits });
  }

  // The learner's results that exist, e.g. ["checks/03.json", "bench/03.json"]: served locally,
  // partials/head.html points at results/site/results.json (check.sh and bench.sh keep it); a built copy
  // has none. Fetched once, so the page asks only for files that are there.
  var resultsMeta = document.querySelector('meta[name="course-results"]');
  var learnerResults = !resultsMeta ? Promise.resolve([]) :
    fetch(root + resultsMeta.content, { cache: "no-store" }).then(function (response) {
      return response.ok ? response.json() : [];
    }).then(function (files) {
      return Array.isArray(files) ? files : [];
    }).catch(function () { return []; });

  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // ---------------------------------------------------------------------------------------------
  // 1. Copy buttons on every code listing.

  function listingText(pre) {
    var copy = pre.cloneNode(true);
    // Callout numbers ((1), (2)) are Asciidoctor's markup, not code.
    copy.querySelectorAll(".conum").forEach(function (c) { c.remove(); });
    return copy.textContent.replace(/[ \t]+$/gm, "").replace(/\n+$/, "");
  }

  function copyWithTextarea(text) {
    var area = el("textarea", { readonly: "", "aria-hidden": "true" });
    area.value = text;
    area.style.position = "fixed";
    area.style.top = "-1000px";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    area.remove();
    return ok;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; },
        function () { return copyWithTextarea(text); });
    }
    return Promise.resolve(copyWithTextarea(text));
  }

  function copyButtons() {
    document.querySelectorAll(".listingblock pre").forEach(function (pre) {
      var box = pre.parentNode;
      var button = el("button", { type: "button", "class": "copy-button", "aria-label": "Copy this code" }, "Copy");
      var timer = null;
      button.addEventListener("click", function () {
        copyText(listingText(pre)).then(function (ok) {
          button.textContent = ok ? "Copied" : "Press Ctrl+C";
          button.classList.toggle("copied", ok);
          if (!ok) {
            var range = document.createRange();
            range.selectNodeContents(pre);
            var selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
          }
          clearTimeout(timer);
          timer = setTimeout(function () {
            button.textContent = "Copy";
            button.classList.remove("copied");
          }, 2000);
        });
      });
      box.classList.add("has-copy");
      box.insertBefore(button, pre);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Progress: the grader's results (served locally) and a "done" mark per chapter.

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

  function showProgress() {
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

  function doneToggle() {
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
  function loadGrades() {
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

  // ---------------------------------------------------------------------------------------------
  // 3. Hints one at a time, and solutions that ask first.

  function hints() {
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

  function reveals() {
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

  // ---------------------------------------------------------------------------------------------
  // 4. Predict-first quizzes: an open block with role quiz, a checklist, an explanation.
  //
  // A page asks before its steps and measures after them, so nothing in the HTML gives the
  // answer away: every item is unchecked and a role names the right one ([.quiz.answer-2] is
  // the second), and the explanation is a collapsible block ([.explanation%collapsible]),
  // closed without JavaScript. A checked item ([x]) still works, for a quiz that may show it.

  // Asciidoctor marks checklist items with an icon, a checkbox or a character, by its attributes.
  function itemIsChecked(li) {
    if (li.querySelector("i.fa-check-square-o, input[type=checkbox][checked]")) return true;
    return /^\s*\u2713/.test(li.textContent);
  }

  function itemText(li) {
    var copy = li.cloneNode(true);
    copy.querySelectorAll("i.fa, input[type=checkbox]").forEach(function (m) { m.remove(); });
    var p = copy.querySelector("p") || copy;
    // The rest keeps its inline markup (code, emphasis); only the leading marker goes.
    var html = p.innerHTML.replace(/^\s*(?:\u2713|\u274f|&#10003;|&#10063;)\s*/, "");
    return html.trim();
  }

  var quizCount = 0;

  function quizzes() {
    document.querySelectorAll(".openblock.quiz").forEach(function (block) {
      var list = block.querySelector("ul.checklist");
      if (!list) return;
      var id = "quiz-" + (++quizCount);
      var content = block.querySelector(":scope > .content") || block;
      var explanation = block.querySelectorAll(".explanation");
      var question = list.closest(".ulist").previousElementSibling;
      var form = el("form", { "class": "quiz-form" });
      var fieldset = el("fieldset");
      var legend = el("legend", { "class": "quiz-label" }, "Predict");
      fieldset.appendChild(legend);
      var correct = -1;
      Array.prototype.forEach.call(list.querySelectorAll(":scope > li"), function (li, i) {
        if (itemIsChecked(li)) correct = i;
        var label = el("label", { "class": "quiz-choice" });
        var input = el("input", { type: "radio", name: id, value: String(i) });
        var span = el("span");
        span.innerHTML = itemText(li);
        label.appendChild(input);
        label.appendChild(span);
        fieldset.appendChild(label);
      });
      var role = /(?:^|\s)answer-(\d+)(?:\s|$)/.exec(block.className);
      if (correct < 0 && role) correct = Number(role[1]) - 1;
      if (correct < 0 || correct >= list.querySelectorAll(":scope > li").length) return;
      if (question) {
        question.id = question.id || id + "-question";
        fieldset.setAttribute("aria-describedby", question.id);
      }
      form.appendChild(fieldset);
      var actions = el("div", { "class": "quiz-actions" });
      var check = el("button", { type: "submit" }, "Check");
      var show = el("button", { type: "button", "class": "quiz-show", hidden: "" }, "Show the answer");
      actions.appendChild(check);
      actions.appendChild(show);
      form.appendChild(actions);
      var feedback = el("p", { "class": "quiz-feedback", role: "status", "aria-live": "polite" });
      form.appendChild(feedback);

      function answer(reveal) {
        block.classList.add("answered");
        explanation.forEach(function (e) {
          e.hidden = false;
          if (e.tagName === "DETAILS") e.open = true;
        });
        form.querySelectorAll(".quiz-choice").forEach(function (label, i) {
          if (i === correct) label.classList.add("correct");
        });
        show.hidden = true;
        if (reveal) feedback.textContent = "The answer is marked. Build it, then measure it after the steps.";
      }

      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var picked = form.querySelector("input:checked");
        form.querySelectorAll(".quiz-choice").forEach(function (l) { l.classList.remove("wrong"); });
        if (!picked) {
          feedback.textContent = "Pick one first: a prediction you wrote down is worth more than one you remember.";
          feedback.className = "quiz-feedback";
          return;
        }
        if (Number(picked.value) === correct) {
          feedback.textContent = "Right. Build it, then measure it after the steps.";
          feedback.className = "quiz-feedback right";
          answer(false);
        } else {
          picked.closest(".quiz-choice").classList.add("wrong");
          feedback.textContent = "Not quite. Try another, or build it and measure it after the steps.";
          feedback.className = "quiz-feedback wrong";
          if (!block.classList.contains("answered")) show.hidden = false;
        }
      });
      show.addEventListener("click", function () { answer(true); });

      explanation.forEach(function (e) { e.hidden = true; });
      list.closest(".ulist").replaceWith(form);
      content.classList.add("quiz-body");
      block.classList.add("quiz-ready");
    });
  }

  // ---------------------------------------------------------------------------------------------
  // 5. Little's law: what a closed-loop benchmark can get, and what the CPU allows.

  function littlesLaw() {
    document.querySelectorAll(".littles-law").forEach(function (box, n) {
      var id = "ll" + n + "-";
      box.textContent = "";
      var form = el("form", { "class": "ll-form" });
      form.appendChild(el("p", { "class": "ll-title" }, "Little's law calculator"));
      function field(name, label, value, hint, type) {
        var wrap = el("div", { "class": "ll-field" });
        wrap.appendChild(el("label", { "for": id + name }, label));
        var input = type === "text"
          ? el("input", { id: id + name, name: name, type: "text", value: value, spellcheck: "false" })
          : el("input", { id: id + name, name: name, type: "number", value: value, min: "0", step: "any", inputmode: "decimal" });
        wrap.appendChild(input);
        if (hint) wrap.appendChild(el("span", { "class": "ll-hint" }, hint));
        form.appendChild(wrap);
        return input;
      }
      var connections = field("connections", "Connections", "2000", "the load generator's");
      var service = field("service", "Service time (ms)", "200", "e.g. /io?ms=200");
      var threads = field("threads", "Threads", "unlimited", "a number, or unlimited", "text");
      var cores = field("cores", "Cores", "2");
      var cpu = field("cpu", "CPU ms per request", "0.05", "5 for /cpu?ms=5");
      var out = el("output", { "class": "ll-result", "for": [id + "connections", id + "service", id + "threads", id + "cores", id + "cpu"].join(" "),
        "aria-live": "polite" });
      form.appendChild(out);
      box.appendChild(form);

      function value(input) {
        var v = parseFloat(String(input.value).replace(/,/g, ""));
        return isFinite(v) && v > 0 ? v : null;
      }

      function line(text, strong) {
        var p = el("p", strong ? { "class": "binds" } : {});
        p.textContent = text;
        return p;
      }

      function compute() {
        out.textContent = "";
        var c = value(connections), s = value(service), k = value(cores), m = value(cpu);
        var t = /^\s*(unlimited|∞|inf(inity)?|)\s*$/i.test(threads.value) ? Infinity : value(threads);
        if (!c || !s || t === null) {
          out.appendChild(line("Give connections, a service time and threads (a number, or unlimited)."));
          return;
        }
        var concurrency = Math.min(c, t);
        var waitBound = concurrency / (s / 1000);
        var cpuBound = k && m ? k * 1000 / m : Infinity;
        var rps = function (x) { return num(x, x < 100 ? 1 : 0) + " req/s"; };
        out.appendChild(line("Concurrency: min(" + num(c) + " connections, " + (t === Infinity ? "unlimited" : num(t)) +
          " threads) = " + num(concurrency) + "."));
        out.appendChild(line("Waiting bound: " + num(concurrency) + " / " + num(s / 1000, 3) + " s = " + rps(waitBound) + "."));
        out.appendChild(line(cpuBound === Infinity ? "CPU bound: give cores and CPU ms per request." :
          "CPU bound: " + num(k) + " cores × 1000 / " + num(m, 3) + " ms = " + rps(cpuBound) + "."));
        var binds = cpuBound < waitBound
          ? "The CPU binds: at most " + rps(cpuBound) + ". More threads or connections will not help; fewer CPU ms or more cores will."
          : "Concurrency binds: at most " + rps(waitBound) + (t < c
            ? ". More threads would raise it (up to the connections)."
            : ". More connections would raise it, until the CPU binds.");
        out.appendChild(line(binds, true));
      }
      form.addEventListener("input", compute);
      form.addEventListener("submit", function (e) { e.preventDefault(); compute(); });
      compute();
    });
  }

  // ---------------------------------------------------------------------------------------------
  // 6. The selector loop, animated: one thread, five connections, timers for /io.

  // Each frame: what the loop does, which connection it points at, every connection's state
  // (idle, ready, read, write, wait) with a label, and the deadline queue.
  var FRAMES = [
    { say: "select() sleeps: no connection has anything to read. The thread costs no CPU.",
      at: "select", conns: ["idle", "idle", "idle", "idle", "idle"], timers: [] },
    { say: "Bytes arrive on 2 and 4. select() wakes up with two ready keys.",
      at: "select", conns: ["idle", "ready", "idle", "ready", "idle"], timers: [] },
    { say: "Read 2: GET /. The answer is ready at once.",
      at: 1, conns: ["idle", "read", "idle", "ready", "idle"], label: { 1: "GET /" }, timers: [] },
    { say: "Write 2's answer, as much as the socket takes, then the next key.",
      at: 1, conns: ["idle", "write", "idle", "ready", "idle"], label: { 1: "200 OK" }, timers: [] },
    { say: "Read 4: GET /io?ms=500. No sleep: a deadline goes into the queue.",
      at: 3, conns: ["idle", "idle", "idle", "wait", "idle"], label: { 3: "waits 500 ms" }, timers: ["4 in 500 ms"] },
    { say: "select(timeout) sleeps until the next deadline, or until a socket is ready. 1 and 5 are.",
      at: "select", conns: ["ready", "idle", "idle", "wait", "ready"], label: { 3: "waits" }, timers: ["4 in 350 ms"] },
    { say: "Read 1: GET /io?ms=200. Another deadline, sooner than 4's.",
      at: 0, conns: ["wait", "idle", "idle", "wait", "ready"], label: { 0: "waits 200 ms", 3: "waits" }, timers: ["1 in 200 ms", "4 in 350 ms"] },
    { say: "Read 5: GET /. Answer it at once: nobody waits for 1 or 4.",
      at: 4, conns: ["wait", "idle", "idle", "wait", "write"], label: { 0: "waits", 3: "waits", 4: "200 OK" }, timers: ["1 in 200 ms", "4 in 350 ms"] },
    { say: "select(200 ms) wakes up: 1's deadline is due. Write 1's answer.",
      at: 0, conns: ["write", "idle", "idle", "wait", "idle"], label: { 0: "200 OK", 3: "waits" }, timers: ["4 in 150 ms"] },
    { say: "150 ms later 4's deadline is due: write 4's answer. Two waits overlapped on one thread.",
      at: 3, conns: ["idle", "idle", "idle", "write", "idle"], label: { 3: "200 OK" }, timers: [] },
    { say: "Connection 3 stayed idle all along: a key and a buffer, no thread. Back to select().",
      at: "select", conns: ["idle", "idle", "idle", "idle", "idle"], label: { 2: "idle, costs no thread" }, timers: [] }
  ];
  var STATE_TEXT = { idle: "idle", ready: "ready", read: "reading", write: "writing", wait: "waiting" };

  function selectorAnimation() {
    document.querySelectorAll(".selector-animation").forEach(function (box) {
      box.textContent = "";
      var W = 640, H = 300, loopX = 110, loopY = 150, connX = 300, rowH = 50, top = 30;
      var picture = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img",
        "aria-label": "One loop thread serving five connections with a selector, and a queue of deadlines for /io" });
      // The loop thread: a circle, the selector inside, a dot that goes round while it works.
      picture.appendChild(svg("circle", { cx: loopX, cy: loopY, r: 62, "class": "sa-loop" }));
      picture.appendChild(svg("text", { x: loopX, y: loopY - 6, "text-anchor": "middle", "class": "sa-title" }, "loop thread"));
      var loopState = svg("text", { x: loopX, y: loopY + 14, "text-anchor": "middle", "class": "sa-small" }, "select()");
      picture.appendChild(loopState);
      var dot = svg("circle", { cx: loopX, cy: loopY - 62, r: 6, "class": "sa-dot" });
      picture.appendChild(dot);
      var arrow = svg("line", { x1: loopX + 62, y1: loopY, x2: connX, y2: loopY, "class": "sa-arrow" });
      picture.appendChild(arrow);
      var rows = [];
      for (var i = 0; i < 5; i++) {
        var y = top + i * rowH;
        var g = svg("g", { "class": "sa-conn idle" });
        g.appendChild(svg("rect", { x: connX, y: y, width: 170, height: rowH - 12, rx: 6 }));
        g.appendChild(svg("text", { x: connX + 10, y: y + 16, "class": "sa-title" }, "connection " + (i + 1)));
        var state = svg("text", { x: connX + 10, y: y + 31, "class": "sa-small" }, "idle");
        g.appendChild(state);
        picture.appendChild(g);
        rows.push({ g: g, state: state, y: y + (rowH - 12) / 2 });
      }
      // The deadline queue: where /io waits, instead of a sleeping thread.
      picture.appendChild(svg("rect", { x: 500, y: top, width: 128, height: 120, rx: 6, "class": "sa-queue" }));
      picture.appendChild(svg("text", { x: 510, y: top + 18, "class": "sa-title" }, "deadlines"));
      var timerTexts = [0, 1, 2].map(function (j) {
        var t = svg("text", { x: 510, y: top + 42 + j * 20, "class": "sa-small sa-timer" }, "");
        picture.appendChild(t);
        return t;
      });
      var figure = el("figure", { "class": "sa-figure" });
      figure.appendChild(picture);
      var caption = el("figcaption", { "class": "sa-caption" });
      figure.appendChild(caption);
      var controls = el("div", { "class": "sa-controls" });
      var play = el("button", { type: "button", "class": "sa-play", "aria-pressed": "false" }, "Play");
      var step = el("button", { type: "button", "class": "sa-step" }, "Step");
      var counter = el("span", { "class": "sa-counter" });
      controls.appendChild(play);
      controls.appendChild(step);
      controls.appendChild(counter);
      box.appendChild(figure);
      box.appendChild(controls);

      var frame = 0, timer = null, visible = true;

      function draw() {
        var f = FRAMES[frame];
        box.setAttribute("data-frame", String(frame));
        caption.textContent = f.say;
        counter.textContent = (frame + 1) + " / " + FRAMES.length;
        rows.forEach(function (row, i) {
          var s = f.conns[i];
          row.g.setAttribute("class", "sa-conn " + s);
          row.state.textContent = (f.label && f.label[i]) || STATE_TEXT[s];
        });
        var working = f.at !== "select";
        loopState.textContent = working ? (f.conns[f.at] === "write" ? "write()" : "read()") : (f.timers.length ? "select(timeout)" : "select()");
        arrow.setAttribute("class", "sa-arrow" + (working ? " on" : ""));
        if (working) arrow.setAttribute("y2", rows[f.at].y);
        // The dot goes a little further round the loop each frame.
        var angle = -Math.PI / 2 + frame * 2 * Math.PI / FRAMES.length;
        dot.setAttribute("cx", (loopX + 62 * Math.cos(angle)).toFixed(1));
        dot.setAttribute("cy", (loopY + 62 * Math.sin(angle)).toFixed(1));
        timerTexts.forEach(function (t, j) { t.textContent = f.timers[j] || ""; });
      }

      function advance() {
        frame = (frame + 1) % FRAMES.length;
        draw();
      }

      function run(on) {
        clearInterval(timer);
        timer = null;
        if (on && visible) timer = setInterval(advance, 1600);
        play.textContent = on ? "Pause" : "Play";
        play.setAttribute("aria-pressed", String(on));
        box.classList.toggle("playing", on);
      }

      play.addEventListener("click", function () {
        var on = play.getAttribute("aria-pressed") !== "true";
        if (on) advance();
        run(on);
      });
      step.addEventListener("click", function () {
        run(false);
        advance();
      });
      // Off screen, the loop rests; it goes on where it was when the reader scrolls back.
      if ("IntersectionObserver" in window) {
        new IntersectionObserver(function (entries) {
          visible = entries[0].isIntersecting;
          run(play.getAttribute("aria-pressed") === "true");
        }).observe(box);
      }
      draw();
      run(!reducedMotion);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // 7. Search: index.json (written by Hugo, layouts/index.json), loaded on first use.

  function search() {
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

  // ---------------------------------------------------------------------------------------------
  // 8. Colour theme: light, dark, or the system's. partials/head.html applies the stored
  //    choice before the first paint; these buttons change it.

  var THEME_KEY = "course-theme";

  function theme() {
    var buttons = document.querySelectorAll(".theme-switch button[data-theme-choice]");
    function show() {
      var current = local.getItem(THEME_KEY) || "system";
      if (current === "system") document.documentElement.removeAttribute("data-theme");
      else document.documentElement.setAttribute("data-theme", current);
      buttons.forEach(function (b) {
        b.setAttribute("aria-pressed", String(b.getAttribute("data-theme-choice") === current));
      });
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        var choice = b.getAttribute("data-theme-choice");
        if (choice === "system") local.removeItem(THEME_KEY); else local.setItem(THEME_KEY, choice);
        show();
      });
    });
    show();
  }

  // ---------------------------------------------------------------------------------------------
  // 9. Benchmark panels: what scripts/bench.sh wrote (schema course-bench/1), as bar charts.
  //
  // <div class="bench-panel" data-src="bench/reference.json" data-servers="06,netty"
  //      data-title="Reference, all models"></div>
  // data-src is relative to the site root; data-servers (optional) keeps those server ids only;
  // data-missing is the text shown when the file is not there (e.g. before a learner's first run).

  function bytes(x) {
    if (x === null || x === undefined || isNaN(x)) return "–";
    var units = ["B", "KiB", "MiB", "GiB"], i = 0, v = Math.abs(x);
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return (x < 0 ? "-" : "") + num(v, v >= 100 ? 0 : 1) + " " + units[i];
  }

  // What a workload's bar shows, and whether more is better.
  function measure(workload) {
    if (workload.group === "idle") {
      return { label: "heap per idle connection", value: function (r) { return r.heapPerConnectionBytes; },
               text: bytes, higherIsBetter: false };
    }
    return { label: "requests/s (median)", value: function (r) { return r.rps; },
             text: function (v) { return num(v, 0) + " req/s"; }, higherIsBetter: true };
  }

  function serverLabel(server) {
    if (server.role === "learner") return "yours";
    if (server.role === "baseline") return "plain Netty";
    return server.label.replace(/^solutions\//, "").replace(/\.java$/, "");
  }

  // One workload: a bar per server, the Little's-law bound as a dashed line when there is one.
  function chart(doc, workload, servers) {
    var m = measure(workload);
    var rows = servers.map(function (s) {
      var r = workload.results.filter(function (x) { return x.server === s.id; })[0];
      return { server: s, result: r, value: r && r.status === "measured" ? m.value(r) : null };
    }).filter(function (row) { return row.result; });
    if (rows.length === 0) return null;
    var max = Math.max.apply(null, rows.map(function (r) { return r.value || 0; }).concat([workload.boundRps || 0, 1e-9]));
    var rowH = 26, labelW = 130, barW = 290, valueW = 260, width = labelW + barW + valueW;
    var height = rows.length * rowH + 22;
    var figure = el("figure", { "class": "bench-chart" });
    var title = workload.id + ": " + m.label + (m.higherIsBetter ? " (longer is better)" : " (shorter is better)");
    figure.appendChild(el("figcaption", {}, title));
    var s = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img", "aria-label": title });
    rows.forEach(function (row, i) {
      var y = i * rowH + 4;
      var cls = "bar " + row.server.role;
      s.appendChild(svg("text", { x: labelW - 8, y: y + 15, "text-anchor": "end", "class": "label" }, serverLabel(row.server)));
      if (row.value !== null && row.value !== undefined && !isNaN(row.value)) {
        var w = Math.max(1, barW * Math.max(0, row.value) / max);
        s.appendChild(svg("rect", { x: labelW, y: y + 2, width: w, height: rowH - 8, rx: 3, "class": cls }));
      }
      var r = row.result, text;
      if (r.status !== "measured") {
        text = r.status === "skipped" ? "skipped" : "stalled: no run finished";
      } else {
        text = m.text(row.value);
        if (r.percentOfBound !== null && r.percentOfBound !== undefined) {
          var own = r.boundRps && workload.boundRps && r.boundRps < workload.boundRps;
          text += " · " + num(r.percentOfBound, 1) + "% of " + (own ? "its bound, " + num(r.boundRps, 0) + " req/s" : "bound");
        }
        if (workload.group === "idle" && r.asked) text += " · " + num(r.served, 0) + "/" + num(r.asked, 0) + " served";
      }
      if ((r.flags || []).length) text += " ⚑";
      s.appendChild(svg("text", { x: labelW + barW + 8, y: y + 15, "class": "value" + ((r.flags || []).length ? " flagged" : "") }, text));
    });
    if (workload.boundRps) {
      var bx = labelW + barW * workload.boundRps / max;
      s.appendChild(svg("line", { x1: bx, x2: bx, y1: 0, y2: height - 18, "class": "bound" }));
      s.appendChild(svg("text", { x: Math.min(bx, labelW + barW - 4), y: height - 4, "text-anchor": "end", "class": "bound-label" },
        "Little's law: " + num(workload.boundRps, 0) + " req/s"));
    }
    figure.appendChild(s);
    return figure;
  }

  // The figures behind the bars, with what went wrong, so nothing is hidden.
  function table(doc, servers) {
    var t = el("table", { "class": "bench-table" });
    var head = el("tr");
    ["workload", "server", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "CPU ms/req", "peak RSS", "peak threads", "ratio"]
      .forEach(function (h) { head.appendChild(el("th", {}, h)); });
    t.appendChild(el("thead")).appendChild(head);
    var body = t.appendChild(el("tbody"));
    doc.workloads.forEach(function (w) {
      servers.forEach(function (s) {
        var r = w.results.filter(function (x) { return x.server === s.id; })[0];
        if (!r) return;
        var tr = el("tr", (r.flags || []).length ? { "class": "flagged", title: r.flags.join("; ") } : {});
        var cells;
        if (w.group === "idle") {
          cells = [w.id, serverLabel(s), "–", "–", "–", num(r.refused + r.unanswered, 0), "–", "–",
            bytes(r.rssWithBytes), num(r.threadsWith, 0),
            r.ratio && r.ratio.heapPerConnection ? num(r.ratio.heapPerConnection, 2) + "×" : "–"];
          cells[2] = bytes(r.heapPerConnectionBytes) + "/conn";
        } else {
          cells = [w.id, serverLabel(s), num(r.rps, 0), num(r.latencyMs && r.latencyMs.p50, 1), num(r.latencyMs && r.latencyMs.p99, 1),
            num(r.errors, 0), num(r.non2xx, 0), num(r.cpuMillisPerRequest, 3), bytes(r.peakRssBytes), num(r.peakThreads, 0),
            r.ratio && r.ratio.rps ? num(r.ratio.rps, 2) + "×" : "–"];
        }
        cells.forEach(function (c) { tr.appendChild(el("td", {}, c)); });
        body.appendChild(tr);
      });
    });
    var wrap = el("div", { "class": "bench-table-wrap" });
    wrap.appendChild(t);
    return wrap;
  }

  function describe(doc) {
    var m = doc.machine || {}, os = m.os || {}, how = doc.methodology || {};
    var p = el("p", { "class": "bench-machine" });
    p.textContent = "Measured " + (doc.date || "").slice(0, 10) + " on " + (m.cores || "?") + " cores (" + (m.cpuModel || "unknown CPU") + "), "
      + bytes(m.memoryBytes) + ", " + (os.name || "") + " " + (os.arch || "") + ", " + (m.java || "") + "; "
      + (m.pinning || "") + ". Mode " + how.mode + ": " + how.warmups + " warm-up(s), then the " + (how.statistic || "median")
      + " of " + how.runs + " runs of " + how.runSeconds + " s"
      + (how.ioRunSeconds && how.ioRunSeconds !== how.runSeconds ? " (io: " + how.ioRunSeconds + " s)" : "") + (doc.command ? ", with: " + doc.command : "") + ".";
    return p;
  }

  function render(panel, doc) {
    var keep = (panel.getAttribute("data-servers") || "").split(",").filter(Boolean);
    var servers = (doc.servers || []).filter(function (s) {
      return keep.length === 0 || keep.indexOf(s.id) >= 0;
    });
    panel.textContent = "";
    var title = panel.getAttribute("data-title");
    if (title) panel.appendChild(el("p", { "class": "bench-title" }, title));
    panel.appendChild(describe(doc));
    (doc.workloads || []).forEach(function (w) {
      var c = chart(doc, w, servers);
      if (c) panel.appendChild(c);
    });
    var details = el("details", { "class": "bench-details" });
    details.appendChild(el("summary", {}, "All figures, and what was flagged"));
    details.appendChild(table(doc, servers));
    (doc.flags || []).forEach(function (f) { details.appendChild(el("p", { "class": "bench-flag" }, "⚑ " + f)); });
    (doc.workloads || []).forEach(function (w) {
      (w.results || []).forEach(function (r) {
        if (!servers.some(function (s) { return s.id === r.server; })) return;
        (r.notes || []).forEach(function (n) {
          details.appendChild(el("p", { "class": "bench-note" }, "Note, " + w.id + ", " + r.server + ": " + n));
        });
      });
    });
    panel.appendChild(details);
    panel.classList.add("ready");
  }

  function missing(panel, src) {
    panel.textContent = "";
    panel.appendChild(el("p", { "class": "bench-missing" },
      panel.getAttribute("data-missing") || ("No results at " + src + " yet.")));
  }

  function loadBenchPanel(panel) {
    var src = panel.getAttribute("data-src");
    if (src.indexOf("results/") !== 0) {
      fetchBenchPanel(panel, src);
      return;
    }
    learnerResults.then(function (files) {
      if (files.indexOf(src.slice("results/".length)) < 0) missing(panel, src);
      else fetchBenchPanel(panel, src);
    });
  }

  function fetchBenchPanel(panel, src) {
    fetch(root + src, { cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.json();
    }).then(function (doc) {
      if (doc.schema !== "course-bench/1") throw new Error("unknown schema " + doc.schema);
      render(panel, doc);
    }).catch(function () {
      missing(panel, src);
    });
  }

  function benchPanels() {
    document.querySelectorAll(".bench-panel").forEach(loadBenchPanel);
  }

  // Each feature on its own: one that throws must not take the others down.
  [theme, copyButtons, doneToggle, showProgress, loadGrades, hints, reveals, quizzes, littlesLaw,
    selectorAnimation, search, benchPanels].forEach(function (feature) {
    try {
      feature();
    } catch (e) {
      if (window.console) console.warn("course.js: " + (feature.name || "a feature") + " failed:", e);
    }
  });
})();
