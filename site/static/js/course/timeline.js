// Timelines: a server's threads over a few seconds, as check.sh --timeline and bench.sh
// --timeline record them (schema course-timeline/1, written by scripts/lib/Timeline.java).
//
// <div class="timeline-panel" data-src="timeline/04-ch04.spread.json" data-title="The reference solution"
//      data-missing="Shown when the file is not there"></div>
// data-src is relative to the site root; a learner's own file (results/timeline/...) is fetched
// only when results/site/results.json lists it. A lane per platform thread: its background is
// what it waited for, its bar how much of a core it used; below them, the virtual threads.

import { el, svg, num, root, learnerResults } from "./shared.js";

var LABEL = 230, PLOT = 600, TOTAL = 60, LANE = 20, GAP = 4;
var WIDTH = LABEL + PLOT + TOTAL;

var ROLE_WORDS = {
  main: "the main thread", acceptor: "an acceptor", loop: "an event loop", worker: "a worker",
  carrier: "a carrier of virtual threads", poller: "the JDK's I/O poller", other: "a thread of the server",
  jvm: "the JVM's own threads"
};

function seconds(ms) {
  return num(ms / 1000, ms < 10000 ? 2 : 1) + " s";
}

// Runs of the same state in a lane: [{code, from, to}].
function runs(state) {
  var out = [];
  for (var i = 0; i < state.length; i++) {
    var last = out[out.length - 1];
    if (last && last.code === state[i]) last.to = i + 1;
    else out.push({ code: state[i], from: i, to: i + 1 });
  }
  return out;
}

// What most of a lane's slices waited for, in words: the lane's summary.
function mostly(lane, doc) {
  var counts = {};
  for (var i = 0; i < lane.state.length; i++) counts[lane.state[i]] = (counts[lane.state[i]] || 0) + 1;
  var best = ".", most = 0;
  Object.keys(counts).forEach(function (k) { if (k !== "." && counts[k] > most) { most = counts[k]; best = k; } });
  var busy = 0;
  for (var j = 0; j < lane.cpu.length; j++) if (lane.cpu[j] >= "5") busy++;
  var parts = [num(lane.cpuMs) + " ms of CPU"];
  if (busy) parts.push("over half a core in " + Math.round(100 * busy / lane.cpu.length) + "% of the time");
  if (best !== "." && most) parts.push("otherwise mostly " + doc.states[best]);
  return parts.join("; ");
}

function legend(doc) {
  var seen = {};
  doc.lanes.forEach(function (lane) { for (var i = 0; i < lane.state.length; i++) seen[lane.state[i]] = true; });
  var list = el("ul", { "class": "tl-legend" });
  var cpu = el("li");
  cpu.appendChild(el("span", { "class": "tl-swatch tl-cpu" }));
  cpu.appendChild(document.createTextNode("on a CPU (the bar's height: how much of one core)"));
  list.appendChild(cpu);
  Object.keys(doc.states).forEach(function (code) {
    if (!seen[code] || code === ".") return;
    var item = el("li");
    item.appendChild(el("span", { "class": "tl-swatch tl-s-" + code }));
    item.appendChild(document.createTextNode(doc.states[code]));
    list.appendChild(item);
  });
  return list;
}

// Panels side by side share one time scale (the longest recording's), so a mistake that takes
// longer is drawn longer; {span} is that many ms, at least this recording's.
function draw(panel, doc, span) {
  var n = doc.slices, dx = PLOT * doc.sliceMs / Math.max(span, n * doc.sliceMs);
  var v = doc.virtual;
  var virtualRows = v && (v.startedTotal > 0 || v.aliveAtStart > 0 || Math.max.apply(null, v.alive.concat(v.pinned, [0])) > 0) ? 2 : 0;
  var height = doc.lanes.length * LANE + virtualRows * (LANE * 2 + GAP) + 34;
  var s = svg("svg", { viewBox: "0 0 " + WIDTH + " " + height, role: "img", "class": "tl-chart",
    "aria-label": "Threads over " + seconds(n * doc.sliceMs) + ": " + doc.lanes.map(function (l) { return l.name + ", " + mostly(l, doc); }).join(". ") });
  var y = 0;
  doc.lanes.forEach(function (lane) {
    var g = svg("g", { "class": "tl-lane tl-role-" + lane.role });
    g.appendChild(svg("title", {}, lane.name + " (" + ROLE_WORDS[lane.role] + "): " + mostly(lane, doc)));
    g.appendChild(svg("text", { x: LABEL - 8, y: y + LANE * 0.7, "text-anchor": "end", "class": "tl-name" },
      lane.name.length > 34 ? lane.name.slice(0, 33) + "…" : lane.name));
    g.appendChild(svg("rect", { x: LABEL, y: y + 1, width: n * dx, height: LANE - 2, "class": "tl-track" }));
    runs(lane.state).forEach(function (r) {
      if (r.code === ".") return;
      g.appendChild(svg("rect", { x: LABEL + r.from * dx, y: y + 1, width: (r.to - r.from) * dx, height: LANE - 2, "class": "tl-s-" + r.code }));
    });
    for (var i = 0; i < n; i++) {
      var c = lane.cpu.charCodeAt(i) - 48;
      if (c <= 0) continue;
      var h = (LANE - 2) * Math.min(1, (c + 0.5) / 10);
      g.appendChild(svg("rect", { x: LABEL + i * dx, y: y + LANE - 1 - h, width: Math.max(dx, 1), height: h, "class": "tl-cpu" }));
    }
    g.appendChild(svg("text", { x: LABEL + PLOT + 6, y: y + LANE * 0.7, "class": "tl-total" }, num(lane.cpuMs) + " ms"));
    s.appendChild(g);
    y += LANE;
  });
  if (virtualRows) {
    y += GAP;
    countRow(s, "virtual threads alive", doc.virtual.alive, y, dx, "tl-alive");
    y += LANE * 2 + GAP;
    countRow(s, "carriers pinned", doc.virtual.pinned, y, dx, "tl-pinned", doc.cores);
    y += LANE * 2;
  }
  (doc.events || []).forEach(function (e) {
    if (e.kind !== "gc") return;
    var x = LABEL + Math.min(n * dx, e.atMs / doc.sliceMs * dx);
    var line = svg("line", { x1: x, x2: x, y1: 0, y2: y, "class": "tl-gc" });
    line.appendChild(svg("title", {}, "at " + seconds(e.atMs) + ": " + e.text));
    s.appendChild(line);
  });
  var step = niceStep(Math.max(span, n * doc.sliceMs));
  for (var t = 0; t <= Math.max(span, n * doc.sliceMs) + 1; t += step) {
    var tx = LABEL + t / doc.sliceMs * dx;
    s.appendChild(svg("line", { x1: tx, x2: tx, y1: y + 2, y2: y + 8, "class": "tl-tick" }));
    s.appendChild(svg("text", { x: tx, y: y + 22, "text-anchor": "middle", "class": "tl-axis" }, seconds(t)));
  }
  var explain = el("p", { "class": "tl-explain", "aria-live": "polite" }, "Point at a lane to read a slice of it in words.");
  s.addEventListener("pointermove", function (ev) {
    var m = s.getScreenCTM();
    if (!m) return;
    var p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    var slice = Math.floor((p.x - LABEL) / dx);
    if (slice < 0 || slice >= n) return;
    var row = Math.floor(p.y / LANE);
    var from = seconds(slice * doc.sliceMs) + "–" + seconds((slice + 1) * doc.sliceMs);
    if (row >= 0 && row < doc.lanes.length) {
      explain.textContent = sliceWords(doc, doc.lanes[row], slice, from);
    } else if (virtualRows) {
      explain.textContent = from + ": " + num(doc.virtual.alive[slice]) + " virtual threads alive, " + num(doc.virtual.started[slice])
        + " started; carriers held by a pinned virtual thread: " + num(doc.virtual.pinned[slice], 2) + " on average";
    }
  });
  panel.appendChild(s);
  panel.appendChild(explain);
  panel.appendChild(legend(doc));
}

// One slice of a lane in words.
function sliceWords(doc, lane, slice, from) {
  var c = lane.cpu.charCodeAt(slice) - 48;
  var code = lane.state[slice];
  var cpu = c <= 0 ? "not on a CPU" : c >= 9 ? "on a CPU all the time" : "on a CPU about " + c * 10 + "% of the time";
  var wait = code === "." ? (c >= 9 ? "" : "; " + doc.states["."]) : "; " + (c > 0 ? "otherwise " : "") + doc.states[code];
  return lane.name + " (" + ROLE_WORDS[lane.role] + (lane.threads ? ", " + lane.threads + " threads" : "") + "), " + from + ": " + cpu + wait + ".";
}

// A row of bars: a count a slice, scaled to its largest (or to {max}).
function countRow(s, label, values, y, dx, cls, max) {
  var top = max || Math.max.apply(null, values.concat([1]));
  var g = svg("g", { "class": "tl-count " + cls });
  g.appendChild(svg("text", { x: LABEL - 8, y: y + LANE * 0.8, "text-anchor": "end", "class": "tl-name" }, label));
  g.appendChild(svg("text", { x: LABEL - 8, y: y + LANE * 1.6, "text-anchor": "end", "class": "tl-axis" }, "up to " + num(Math.max.apply(null, values.concat([0])), 1)));
  g.appendChild(svg("rect", { x: LABEL, y: y, width: values.length * dx, height: LANE * 2, "class": "tl-track" }));
  values.forEach(function (v, i) {
    if (!v) return;
    var h = LANE * 2 * Math.min(1, v / top);
    g.appendChild(svg("rect", { x: LABEL + i * dx, y: y + LANE * 2 - h, width: Math.max(dx, 1), height: h, "class": "tl-bar" }));
  });
  s.appendChild(g);
}

function niceStep(ms) {
  var steps = [100, 250, 500, 1000, 2000, 5000];
  for (var i = 0; i < steps.length; i++) if (ms / steps[i] <= 8) return steps[i];
  return 10000;
}

function render(panel, doc, span) {
  panel.textContent = "";
  panel.appendChild(el("p", { "class": "tl-title" }, panel.getAttribute("data-title") || doc.title));
  panel.appendChild(el("p", { "class": "tl-what" }, doc.server + " · " + doc.title + " · " + seconds(doc.slices * doc.sliceMs)
    + " in slices of " + doc.sliceMs + " ms · " + doc.cores + " cores"
    + (doc.overhead ? " · recording cost " + num(100 * (doc.overhead.cpuMicrosPerRequestRecorded / doc.overhead.cpuMicrosPerRequestMeasured - 1), 1) + "% CPU per request" : "")));
  draw(panel, doc, span || 0);
  if (doc.notes && doc.notes.length) {
    var notes = el("ul", { "class": "tl-notes" });
    doc.notes.forEach(function (note) { notes.appendChild(el("li", {}, note)); });
    panel.appendChild(notes);
  }
}

function missing(panel) {
  panel.textContent = "";
  panel.appendChild(el("p", { "class": "tl-title" }, panel.getAttribute("data-title") || "Timeline"));
  panel.appendChild(el("p", { "class": "tl-missing" }, panel.getAttribute("data-missing") || "No timeline here yet."));
}

function load(panel) {
  var src = panel.getAttribute("data-src");
  var listed = src.indexOf("results/") !== 0 ? Promise.resolve(true)
    : learnerResults.then(function (files) { return files.indexOf(src.slice("results/".length)) >= 0; });
  return listed.then(function (there) {
    if (!there) return null;
    return fetch(root + src, { cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.json();
    }).then(function (doc) {
      if (doc.schema !== "course-timeline/1") throw new Error("unknown schema " + doc.schema);
      return doc;
    });
  }).catch(function () { return null; });
}

// Draws panels together, on the longest one's time scale (bench.js draws a race's this way).
export function drawTimelines(panels) {
  Promise.all(panels.map(load)).then(function (docs) {
    var span = Math.max.apply(null, docs.map(function (d) { return d ? d.slices * d.sliceMs : 0; }).concat([0]));
    panels.forEach(function (panel, i) {
      if (docs[i]) render(panel, docs[i], span); else missing(panel);
    });
  });
}

export function timelinePanels() {
  // The panels of one block are drawn together.
  var groups = new Map();
  document.querySelectorAll(".timeline-panel").forEach(function (panel) {
    var key = panel.parentElement;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(panel);
  });
  groups.forEach(drawTimelines);
}
