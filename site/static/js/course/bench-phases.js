// The stress phases' charts in a benchmark panel (bench.js draws the rest): the ramp, the
// spikes, the soak and the open loop, each from its own part of a bench.sh results file.

import { el, svg, num } from "./shared.js";

// A size in binary units: 512 B, 3.4 KiB, 120 MiB.
export function bytes(x) {
  if (x === null || x === undefined || isNaN(x)) return "–";
  var units = ["B", "KiB", "MiB", "GiB"], i = 0, v = Math.abs(x);
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return (x < 0 ? "-" : "") + num(v, v >= 100 ? 0 : 1) + " " + units[i];
}

// A server as the charts name it: "yours", "plain Netty", a framework's id, or the solution's file.
export function serverLabel(server) {
  if (server.role === "learner") return "yours";
  if (server.role === "baseline") return "plain Netty";
  if (server.role === "framework") return server.id; // spring, spring-vt, helidon, vertx: the label says the rest
  return server.label.replace(/^solutions\//, "").replace(/\.java$/, "");
}

// A line per server: x and y from each series' points (x on a log scale when asked), a dashed
// reference line when given, a mark (✗) where given, and a legend with each server's words.
function lineChart(opts, servers) {
  var W = 680, H = 260, left = 64, right = 20, top = 10, bottom = 34;
  var xs = [], ys = [0];
  opts.series.forEach(function (ser) { ser.points.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); }); });
  (opts.reference || []).forEach(function (p) { xs.push(p[0]); ys.push(p[1]); });
  if (xs.length < 2) return null;
  var f = opts.logX ? Math.log : function (v) { return v; };
  var lo = f(Math.min.apply(null, xs)), hi = f(Math.max.apply(null, xs)), max = Math.max.apply(null, ys) || 1;
  if (hi === lo) hi = lo + 1;
  var x = function (v) { return left + (W - left - right) * (f(v) - lo) / (hi - lo); };
  var y = function (v) { return top + (H - top - bottom) * (1 - v / max); };
  var figure = el("figure", { "class": "bench-chart line-chart" });
  figure.appendChild(el("figcaption", {}, opts.title));
  if (opts.cpus) figure.appendChild(el("p", { "class": "bench-cpus" }, "CPUs: " + opts.cpus));
  var s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": opts.title });
  (opts.xTicks || []).forEach(function (t) {
    s.appendChild(svg("line", { x1: x(t), x2: x(t), y1: top, y2: H - bottom, "class": "grid" }));
    s.appendChild(svg("text", { x: x(t), y: H - bottom + 14, "text-anchor": "middle", "class": "label" }, num(t, 0)));
  });
  s.appendChild(svg("text", { x: (W + left) / 2, y: H - 4, "text-anchor": "middle", "class": "label" }, opts.xLabel));
  [0, max / 2, max].forEach(function (v) {
    s.appendChild(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", "class": "label" }, opts.yText(v)));
  });
  if (opts.reference) {
    s.appendChild(svg("polyline", { points: opts.reference.map(function (p) { return x(p[0]) + "," + y(p[1]); }).join(" "), "class": "bound" }));
  }
  var legend = el("ul", { "class": "ramp-legend" });
  opts.series.forEach(function (ser) {
    var i = servers.indexOf(ser.server), cls = "s" + ((i < 0 ? 0 : i) % 8);
    if (ser.points.length) {
      s.appendChild(svg("polyline", { points: ser.points.map(function (p) { return x(p[0]) + "," + y(p[1]); }).join(" "), "class": "ramp-line " + cls }));
      ser.points.forEach(function (p) { s.appendChild(svg("circle", { cx: x(p[0]), cy: y(p[1]), r: p[2] ? 4 : 2.5, "class": "ramp-dot " + cls })); });
    }
    (ser.marks || []).forEach(function (m) {
      s.appendChild(svg("text", { x: x(m[0]), y: y(m[1]) - 6, "text-anchor": "middle", "class": "ramp-break " + cls }, "✗"));
    });
    var item = el("li", {});
    item.appendChild(el("span", { "class": "swatch " + cls }, "■"));
    item.appendChild(document.createTextNode(" " + serverLabel(ser.server) + ": " + ser.words));
    legend.appendChild(item);
  });
  figure.appendChild(s);
  figure.appendChild(legend);
  return figure;
}

function byServer(list, server) {
  return (list || []).filter(function (p) { return p.server === server.id; })[0];
}

// The ramp (bench.sh --ramp): req/s against connections (log scale), the bound dashed, a cross
// where a step broke a server.
export function rampChart(doc, servers) {
  var ramp = doc.ramp, steps = (doc.workloads || []).filter(function (w) { return w.group === "ramp"; });
  if (!ramp || steps.length < 2) return null;
  return lineChart({
    title: "The ramp: GET " + ramp.path + ", requests/s as connections rise; a step breaks a server past "
      + num(ramp.maxErrorPercent, 1) + "% failed requests or a p99 over " + num(ramp.maxP99Ms, 0) + " ms",
    cpus: steps[0].cpus && steps[0].cpus.words, xLabel: "connections", logX: true,
    xTicks: steps.map(function (w) { return w.connections; }), yText: function (v) { return num(v, 0); },
    reference: steps.map(function (w) { return [w.connections, w.boundRps || 0]; }),
    series: servers.map(function (server) {
      var point = byServer(ramp.servers, server) || {}, pts = [];
      steps.forEach(function (w) {
        var r = byServer(w.results, server);
        if (r && r.status === "measured") pts.push([w.connections, r.rps || 0]);
      });
      var broke = pts.filter(function (p) { return p[0] === point.brokeAt; });
      return { server: server, points: pts, marks: broke, words: point.brokeAt
        ? (point.held ? "held " + num(point.held, 0) : "held no step") + "; broke at " + num(point.brokeAt, 0) + ": " + point.why
        : point.held ? "held " + num(point.held, 0) + " connections" + (point.why ? "; then " + point.why : "") : "did not run: " + point.why };
    })
  }, servers);
}

// The spikes (bench.sh --spike): each server's windows in time, the spikes the big dots.
export function spikeChart(doc, servers) {
  var spike = doc.spike;
  if (!spike) return null;
  return lineChart({
    title: "The spikes: GET " + spike.path + " at " + num(spike.base, 0) + " connections, " + num(spike.peak, 0) + " for "
      + spike.peakSeconds + " s, " + spike.cycles + " times: requests/s in windows of " + spike.windowSeconds + " s",
    xLabel: "seconds from the server's first window", yText: function (v) { return num(v, 0); },
    series: servers.map(function (server) {
      var sv = byServer(spike.servers, server) || { windows: [], cycles: [] };
      var words = sv.skipReason ? "sat out: " + sv.skipReason : "baseline " + num(sv.baselineRps, 0) + " req/s; "
        + sv.cycles.map(function (c) {
          return "spike " + c.cycle + " " + num(c.peakRps, 0) + " req/s, " + (c.recoveredAfterSeconds === null ? "not back"
            : c.recoveredAfterSeconds === 0 ? "back at once" : "back after " + c.recoveredAfterSeconds + " s");
        }).join("; ") + ((sv.flags || []).length ? " ⚑ " + sv.flags.join("; ") : "");
      return { server: server, words: words, points: (sv.windows || []).map(function (w) { return [w.atSeconds, w.rps || 0, w.phase === "spike"]; }) };
    })
  }, servers);
}

// The soak (bench.sh --soak MIN): each server's heap after GC, sample by sample.
export function soakChart(doc, servers) {
  var soak = doc.soak;
  if (!soak) return null;
  return lineChart({
    title: "The soak: GET " + soak.path + " at " + num(soak.connections, 0) + " connections for " + num(soak.minutes, 1)
      + " min a server: heap after a full GC, every " + soak.windowSeconds + " s",
    xLabel: "seconds", yText: bytes,
    series: servers.map(function (server) {
      var sv = byServer(soak.servers, server) || { samples: [] };
      var words = sv.skipReason ? "sat out: " + sv.skipReason : num(sv.rps, 0) + " req/s; heap " + (sv.heapBytesPerMinute < 0 ? "-" : "+")
        + bytes(Math.abs(sv.heapBytesPerMinute)) + " a minute, open files " + num(sv.filesPerMinute, 1) + ", threads " + num(sv.threadsPerMinute, 1)
        + ((sv.flags || []).length ? " ⚑ " + sv.flags.join("; ") : "");
      return { server: server, words: words, points: (sv.samples || []).filter(function (x) { return typeof x.heapAfterGcBytes === "number"; })
        .map(function (x) { return [x.atSeconds, x.heapAfterGcBytes]; }) };
    })
  }, servers);
}

// The open loop (bench.sh --open-loop): per server, p50, p99, p99.9 and max as bars on a log
// scale, the open loop (Vegeta) above the closed loop (Bombardier) at the same rate.
export function openLoopChart(doc, servers) {
  var o = doc.openLoop;
  if (!o) return null;
  var marks = [["p50", "p50Ms"], ["p99", "p99Ms"], ["p99.9", "p999Ms"], ["max", "maxMs"]];
  var loops = [["openLoop", "s1", "open loop (Vegeta)"], ["closedLoop", "s0", "closed loop (Bombardier, " + o.connections + " connections)"]];
  var all = servers.map(function (server) { return { server: server, sv: byServer(o.servers, server) }; })
    .filter(function (row) { return row.sv; });
  if (all.length === 0) return null;
  var rows = all.filter(function (row) { return !row.sv.skipReason; }), values = [];
  rows.forEach(function (row) {
    loops.forEach(function (l) { marks.forEach(function (m) { var v = row.sv[l[0]] && row.sv[l[0]][m[1]]; if (v > 0) values.push(v); }); });
  });
  var lo = Math.pow(10, Math.floor(Math.log10(Math.min.apply(null, values.concat([1]))))),
      hi = Math.pow(10, Math.ceil(Math.log10(Math.max.apply(null, values.concat([10])))));
  var labelW = 70, barW = 380, valueW = 130, W = labelW + barW + valueW, rowH = 20, groupH = marks.length * rowH + 26;
  var H = rows.length * groupH + 20;
  var x = function (v) { return labelW + barW * (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)); };
  var title = "The open loop: GET " + o.path + " at " + num(o.rate, 0) + " req/s for " + o.seconds
    + " s a server: latency, open / closed loop, in ms on a log scale (shorter is better)";
  var figure = el("figure", { "class": "bench-chart line-chart" });
  figure.appendChild(el("figcaption", {}, title));
  if (o.cpus && o.cpus.words) figure.appendChild(el("p", { "class": "bench-cpus" }, "CPUs: " + o.cpus.words + "; " + o.vegeta));
  var s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title });
  for (var t = lo; t <= hi; t *= 10) {
    s.appendChild(svg("line", { x1: x(t), x2: x(t), y1: 0, y2: H - 16, "class": "grid" }));
    s.appendChild(svg("text", { x: x(t), y: H - 4, "text-anchor": "middle", "class": "label" }, num(t, 2)));
  }
  rows.forEach(function (row, i) {
    var y = i * groupH, sv = row.sv, flagged = (sv.flags || []).length > 0;
    var head = serverLabel(row.server) + ": " + loops.map(function (l) { return sv[l[0]] ? num(sv[l[0]].achievedRps, 0) : "–"; })
      .join(" (open) and ") + " (closed) answers a second" + (flagged ? " ⚑" : "");
    s.appendChild(svg("text", { x: 0, y: y + 14, "class": flagged ? "value flagged" : "label" }, head));
    marks.forEach(function (m, j) {
      var my = y + 22 + j * rowH, shown = [];
      s.appendChild(svg("text", { x: labelW - 8, y: my + 14, "text-anchor": "end", "class": "label" }, m[0]));
      loops.forEach(function (l, k) {
        var v = sv[l[0]] && sv[l[0]][m[1]];
        if (v > 0) s.appendChild(svg("rect", { x: labelW, y: my + 2 + k * 8, width: Math.max(1, x(v) - labelW), height: 7, rx: 2, "class": l[1] }));
        shown.push(v > 0 ? num(v, v < 10 ? 2 : 0) : "–");
      });
      s.appendChild(svg("text", { x: labelW + barW + 6, y: my + 14, "class": "value" }, shown.join(" / ") + " ms"));
    });
  });
  figure.appendChild(s);
  var legend = el("ul", { "class": "ramp-legend" });
  loops.forEach(function (l) {
    var item = el("li", {});
    item.appendChild(el("span", { "class": "swatch " + l[1] }, "■"));
    item.appendChild(document.createTextNode(" " + l[2]));
    legend.appendChild(item);
  });
  figure.appendChild(legend);
  all.forEach(function (row) {
    if (row.sv.skipReason) figure.appendChild(el("p", { "class": "bench-note" }, serverLabel(row.server) + " sat out: " + row.sv.skipReason));
    (row.sv.flags || []).forEach(function (f) { figure.appendChild(el("p", { "class": "bench-flag" }, "⚑ " + serverLabel(row.server) + ": " + f)); });
  });
  (o.notes || []).forEach(function (n) { figure.appendChild(el("p", { "class": "bench-note" }, n)); });
  return figure;
}

// The connections (bench.sh --connections N): what a held connection costs each server, one
// stacked bar a server: heap after GC, the rest of its resident memory, and the kernel's socket
// (one end's share); a cost the run could not tell (flagged) is left out of the bar and said.
export function connectionsChart(doc, servers) {
  var c = doc.connections;
  if (!c) return null;
  var parts = [["heap", "s0", "heap after GC"], ["rest", "s1", "rest of the server's resident memory (RSS)"],
               ["kernel", "s2", "the kernel's socket and buffers (one end's share)"]];
  var rows = servers.map(function (server) {
    var sv = byServer(c.servers, server), k = sv && sv.costs;
    if (!k || !sv.opened || !sv.opened.held) return null;
    var heap = k.heapPerConnectionBytes, rss = k.rssPerConnectionBytes;
    var kernel = (k.tcpSlabPerConnectionBytes === null || k.tcpSlabPerConnectionBytes === undefined) ? null
      : k.tcpSlabPerConnectionBytes + (k.tcpMemPerConnectionBytes || 0);
    var v = { heap: heap, rest: (rss !== null && rss !== undefined && heap !== null && rss >= heap) ? rss - heap : null, kernel: kernel };
    return { server: server, sv: sv, v: v };
  }).filter(Boolean);
  if (rows.length === 0) return null;
  var labelW = 150, barW = 300, valueW = 230, W = labelW + barW + valueW, rowH = 26, H = rows.length * rowH + 10;
  var max = Math.max.apply(null, rows.map(function (r) { return (r.v.heap || 0) + (r.v.rest || 0) + (r.v.kernel || 0); }).concat([1]));
  var title = "The connections: " + num(c.asked, 0) + " asked a server, 1 in " + num(100 / c.activePercent, 0)
    + " asking GET " + c.path + " once a second: what one held connection costs (shorter is better)";
  var figure = el("figure", { "class": "bench-chart line-chart connections-chart" });
  figure.appendChild(el("figcaption", {}, title));
  var s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title });
  rows.forEach(function (row, i) {
    var y = i * rowH + 4, at = labelW, said = [];
    s.appendChild(svg("text", { x: labelW - 8, y: y + 15, "text-anchor": "end", "class": "label" }, serverLabel(row.server)));
    parts.forEach(function (p) {
      var v = row.v[p[0]];
      if (v === null || v === undefined) { said.push("–"); return; }
      var w = barW * v / max;
      s.appendChild(svg("rect", { x: at, y: y + 4, width: Math.max(1, w), height: 14, "class": "segment " + p[1] }));
      at += w;
      said.push(num(v / 1024, 1));
    });
    s.appendChild(svg("text", { x: labelW + barW + 6, y: y + 15, "class": (row.sv.flags || []).length ? "value flagged" : "value" },
      said.join(" + ") + " KiB, " + num(row.sv.opened.held, 0) + " held"));
  });
  figure.appendChild(s);
  var legend = el("ul", { "class": "ramp-legend" });
  parts.forEach(function (p) {
    var item = el("li", {});
    item.appendChild(el("span", { "class": "swatch " + p[1] }, "■"));
    item.appendChild(document.createTextNode(" " + p[2]));
    legend.appendChild(item);
  });
  figure.appendChild(legend);
  (c.servers || []).forEach(function (sv) {
    if (!servers.some(function (s) { return s.id === sv.server; })) return;
    (sv.flags || []).forEach(function (f) { figure.appendChild(el("p", { "class": "bench-flag" }, "⚑ " + sv.server + ": " + f)); });
    (sv.notes || []).forEach(function (n) { figure.appendChild(el("p", { "class": "bench-note" }, sv.server + " (note): " + n)); });
  });
  (c.notes || []).forEach(function (n) { figure.appendChild(el("p", { "class": "bench-note" }, n)); });
  return figure;
}
