// Benchmark panels: what scripts/bench.sh wrote (schema course-bench/1), as bar charts.
//
// <div class="bench-panel" data-src="bench/reference.json" data-servers="06,netty"
//      data-title="Reference, all models"></div>
// data-src is relative to the site root; data-servers (optional) keeps those server ids only;
// data-missing is the text shown when the file is not there (e.g. before a learner's first run).

import { el, svg, num, root, learnerResults } from "./shared.js";
import { drawTimelines } from "./timeline.js";
import { bytes, serverLabel, rampChart, spikeChart, soakChart, openLoopChart, connectionsChart } from "./bench-phases.js";


// The server's own CPU time per answer: on hello, the figure that does not depend on the load
// generator keeping up (req/s does), with its ratio to the compared server's.
var cpuPerRequest = {
  figure: "cpuPerRequest",
  label: "server CPU per request, µs (median)", value: function (r) { return micros(r); },
  text: function (v, r, doc) {
    var ratio = r.ratio && r.ratio.cpuPerRequest;
    return num(v, v >= 100 ? 0 : 1) + " µs" + (ratio && doc.compareTo ? " · " + num(ratio, 2) + "× " + (doc.compareTo === "netty" ? "plain Netty's" : "the reference's") : "");
  },
  higherIsBetter: false, noBound: true
};

function micros(r) {
  return typeof r.cpuMillisPerRequest === "number" ? r.cpuMillisPerRequest * 1000 : null;
}

function knownCpu(workload) {
  return workload.results.some(function (r) { return typeof r.cpuMillisPerRequest === "number"; });
}

// What a workload's bar shows, and whether more is better.
function measure(workload) {
  if (workload.group === "idle") {
    return { figure: "heap", label: "heap per idle connection", value: function (r) { return r.heapPerConnectionBytes; },
             text: bytes, higherIsBetter: false };
  }
  return { figure: "rps", label: "requests/s (median)", value: function (r) { return r.rps; },
           text: function (v) { return num(v, 0) + " req/s"; }, higherIsBetter: true };
}

// The figures a verdict can be read from (bench.sh's Verdict.Figure): unit and words.
var FIGURES = {
  rps: { unit: "req/s", words: "requests per second" },
  cpuPerRequest: { unit: "µs/req", words: "CPU time per request" },
  peakRss: { unit: "peak RSS", words: "peak RSS" }
};

// The interval that decided: the verdict's (which names its figure), or in older files the req/s one.
function decided(r) {
  return r.ratio ? r.ratio.verdict || r.ratio.rpsInterval || null : null;
}

function figureOf(i) {
  return i && i.figure && FIGURES[i.figure] ? i.figure : "rps";
}

// The verdict of a ratio whose turns were paired (bench.sh's Verdict), in words; "" when there is none.
function verdictWords(r) {
  var i = decided(r);
  if (!i) return "";
  return i.verdict === "faster" ? "faster" : i.verdict === "slower" ? "slower"
    : i.verdict === "noisy" ? "too noisy to compare" : "the same within this machine's noise";
}

// "this race can tell differences larger than 6%", from the interval; "" in older files.
function power(i) {
  if (typeof i.detectable !== "number") return "";
  var percent = Math.ceil(i.detectable * 100);
  if (i.verdict === "noisy" && i.detectable >= 1) {
    return "this race could not tell even a " + (i.detectable >= 9 ? "tenfold" : "twofold") + " difference";
  }
  return i.verdict === "noisy" ? "this race could not tell differences under " + percent + "%"
    : "this race can tell differences larger than " + percent + "%";
}

// "µs/req 1.26× (1.22–1.30×, slower)": the ratio of the figure that decided, its interval, the verdict.
function ratioText(r) {
  var i = decided(r);
  if (!r.ratio || (!r.ratio.rps && !i)) return "–";
  var f = figureOf(i);
  var ratio = i && typeof i.ratio === "number" ? i.ratio : f === "rps" ? r.ratio.rps : r.ratio.cpuPerRequest;
  var text = (f === "rps" ? "" : FIGURES[f].unit + " ") + num(ratio, 2) + "×";
  return i ? text + " (" + num(i.low, 2) + "–" + num(i.high, 2) + "×, " + i.verdict + ")" : text;
}

// What a bar says of the verdict, so that no chart contradicts it: on the chart of the figure
// that decided, the verdict ("≈ the same" within the noise); on another figure's chart, which
// figure decided and how. "" without a verdict.
function mark(r, m, doc) {
  var i = decided(r);
  if (m.figure === "heap") {
    if (!r.ratio || typeof r.ratio.heapPerConnection !== "number" || r.ratio.heapPerConnection === 1) return "";
    return r.ratio.callout ? r.ratio.callout.replace(/:.*/, "") : "≈ within 2× of " + (doc.compareTo === "netty" ? "plain Netty's" : "the reference's");
  }
  if (!i) return "";
  var words = i.verdict === "same" ? "≈ the same within the noise" : verdictWords(r);
  var f = figureOf(i);
  return f === m.figure ? words : words + " on " + FIGURES[f].unit + " (the figure that decided)";
}

// The verdict under the chart of the figure that decided: words, ratio, interval, what the race
// could tell, why this figure decided, and other figures far from the compared server's.
function verdictText(doc, row) {
  var r = row.result, i = decided(r), f = figureOf(i);
  var ratio = typeof i.ratio === "number" ? i.ratio : f === "rps" ? r.ratio.rps : r.ratio.cpuPerRequest;
  var against = doc.compareTo === "netty" ? "plain Netty" : "the reference";
  var text = serverLabel(row.server) + " against " + against + ": " + verdictWords(r)
    + (i.verdict === "noisy" && power(i) ? ": " + power(i) : "")
    + " (" + (f === "rps" ? "" : FIGURES[f].words + " ") + num(ratio, 2) + "×; " + num(i.confidence * 100, 0)
    + "% confidence interval " + num(i.low, 2) + "× to " + num(i.high, 2) + "× over " + i.turns + " turns"
    + (i.forks ? " in " + i.forks + " forks" : "") + (i.forksDisagree ? ", whose processes disagreed beyond their turns" : "") + ")"
    + (i.verdict !== "noisy" && power(i) ? "; " + power(i) : "") + (i.why ? ". Decided on " + FIGURES[f].unit + ": " + i.why : "");
  (r.ratio.callouts || []).forEach(function (c) {
    var what = c.figure === "peakRss" ? "memory" : "CPU";
    text += ". It uses " + (c.verdict === "more" ? "more " : "less ") + what + ": " + FIGURES[figureOf(c)].words + " "
      + num(c.ratio, c.ratio >= 10 ? 0 : 2) + "× " + (doc.compareTo === "netty" ? "plain Netty's" : "the reference's");
  });
  return text;
}

// One workload: a bar per server (of measure m, or the workload's own), the Little's-law bound
// as a dashed line when there is one.
function chart(doc, workload, servers, m) {
  m = m || measure(workload);
  var bound = m.noBound ? null : workload.boundRps;
  var rows = servers.map(function (s) {
    var r = workload.results.filter(function (x) { return x.server === s.id; })[0];
    return { server: s, result: r, value: r && r.status === "measured" ? m.value(r) : null };
  }).filter(function (row) { return row.result; });
  if (rows.length === 0) return null;
  var max = Math.max.apply(null, rows.map(function (r) { return r.value || 0; }).concat([bound || 0, 1e-9]));
  var rowH = 26, labelW = 130, barW = 290, valueW = 260, width = labelW + barW + valueW;
  var height = rows.length * rowH + 22;
  var figure = el("figure", { "class": "bench-chart" });
  var title = workload.id + ": " + m.label + (m.higherIsBetter ? " (longer is better)" : " (shorter is better)");
  figure.appendChild(el("figcaption", {}, title));
  if (workload.cpus && workload.cpus.words) figure.appendChild(el("p", { "class": "bench-cpus" }, "CPUs: " + workload.cpus.words));
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
      text = m.text(row.value, r, doc);
      if (!m.noBound && r.percentOfBound !== null && r.percentOfBound !== undefined) {
        var own = r.boundRps && workload.boundRps && r.boundRps < workload.boundRps;
        text += " · " + num(r.percentOfBound, 1) + "% of " + (own ? "its bound, " + num(r.boundRps, 0) + " req/s" : "bound");
      }
      if (workload.group === "idle" && r.asked) text += " · " + num(r.served, 0) + "/" + num(r.asked, 0) + " served";
      var said = doc.kind === "chapter" ? mark(r, m, doc) : "";
      if (said) text += " · " + said;
    }
    if ((r.flags || []).length) text += " ⚑";
    s.appendChild(svg("text", { x: labelW + barW + 8, y: y + 15, "class": "value" + ((r.flags || []).length ? " flagged" : "") }, text));
  });
  if (bound) {
    var bx = labelW + barW * bound / max;
    s.appendChild(svg("line", { x1: bx, x2: bx, y1: 0, y2: height - 18, "class": "bound" }));
    s.appendChild(svg("text", { x: Math.min(bx, labelW + barW - 4), y: height - 4, "text-anchor": "end", "class": "bound-label" },
      "Little's law: " + num(bound, 0) + " req/s"));
  }
  figure.appendChild(s);
  // The verdict goes under the chart of the figure that decided it (req/s, or CPU per request on hello).
  rows.forEach(function (row) {
    var i = decided(row.result);
    if (!i || figureOf(i) !== m.figure) return;
    figure.appendChild(el("p", { "class": "bench-verdict" }, verdictText(doc, row)));
    // Other processes were busy during some turns (bench.sh's Others): the verdict may be the machine's.
    if (row.result.ratio && row.result.ratio.busy) {
      figure.appendChild(el("p", { "class": "bench-flag bench-busy" }, "⚑ " + row.result.ratio.busy));
    }
  });
  return figure;
}

// The figures behind the bars, with what went wrong, so nothing is hidden.
function table(doc, servers) {
  var t = el("table", { "class": "bench-table" });
  var head = el("tr");
  ["workload", "server", "req/s", "p50 ms", "p99 ms", "errors", "non-2xx", "CPU µs/req", "peak RSS", "peak threads", "ratio"]
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
          num(r.errors, 0), num(r.non2xx, 0), num(micros(r), 1), bytes(r.peakRssBytes), num(r.peakThreads, 0),
          ratioText(r)];
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
  [rampChart, spikeChart, soakChart, openLoopChart, connectionsChart].forEach(function (draw) {
    var c = draw(doc, servers);
    if (c) panel.appendChild(c);
  });
  (doc.workloads || []).forEach(function (w) {
    if (w.group === "ramp") return; // drawn as one curve above
    var c = chart(doc, w, servers);
    if (c) panel.appendChild(c);
    if (w.group === "hello" && knownCpu(w)) {
      var cpu = chart(doc, w, servers, cpuPerRequest);
      if (cpu) panel.appendChild(cpu);
    }
  });
  var details = el("details", { "class": "bench-details" });
  details.appendChild(el("summary", {}, "All figures, and what was flagged"));
  details.appendChild(table(doc, servers));
  if (doc.compareTo) {
    details.appendChild(el("p", { "class": "bench-legend" }, "ratio: the figure that decided, yours ÷ "
      + (doc.compareTo === "netty" ? "plain Netty's" : "the reference's") + ", its 95% interval over the turns, and the verdict"
      + " (faster, slower, same within the noise, or noisy: too noisy to compare). On hello, and wherever Bombardier used 90% of"
      + " its CPU, the figure is the server's CPU time per request (µs/req, lower is better); elsewhere requests per second (higher"
      + " is better); on idle, heap per connection."));
  }
  (doc.flags || []).forEach(function (f) { details.appendChild(el("p", { "class": "bench-flag" }, "⚑ " + f)); });
  (doc.workloads || []).forEach(function (w) {
    (w.results || []).forEach(function (r) {
      if (!servers.some(function (s) { return s.id === r.server; })) return;
      (r.notes || []).forEach(function (n) {
        details.appendChild(el("p", { "class": "bench-note" }, "Note, " + w.id + ", " + r.server + ": " + n));
      });
      var i = decided(r);
      if (i && i.advice) details.appendChild(el("p", { "class": "bench-note" }, "Too close to call, " + w.id + ", " + r.server + ": " + i.advice));
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
    if (src.indexOf("results/") === 0) raceTimelines(panel, doc);
  }).catch(function () {
    missing(panel, src);
  });
}

// A learner's race with --timeline: the threads of both servers during one more turn of the
// workload, drawn under the chart on one time scale, from the learner's results/timeline/.
function raceTimelines(panel, doc) {
  var t = doc.timeline;
  var recorded = t && t.servers ? t.servers.filter(function (s) { return s.file; }) : [];
  if (!recorded.length) return;
  var box = el("div", { "class": "timeline-race" });
  box.appendChild(el("p", { "class": "bench-title" }, "Threads on " + t.workload + ": one more turn of " + t.seconds
    + " s for each server, recorded after the race (bench.sh --timeline)"));
  var panels = recorded.map(function (s) {
    var p = el("div", { "class": "timeline-panel", "data-src": "results/timeline/" + s.file.split(/[\\/]/).pop(),
      "data-title": (s.server === "reference" ? "The reference" : "Your server") + ", on " + t.workload,
      "data-missing": "Not among your results: a race run with --out keeps its timelines beside its JSON." });
    box.appendChild(p);
    return p;
  });
  panel.appendChild(box);
  drawTimelines(panels);
}

export function benchPanels() {
  document.querySelectorAll(".bench-panel").forEach(loadBenchPanel);
}
