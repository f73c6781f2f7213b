// The selector loop, animated: one thread, five connections, timers for /io.

import { el, svg } from "./shared.js";

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

// Under reduced motion the loop waits for Play.
var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function selectorAnimation() {
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
