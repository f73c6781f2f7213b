// Little's law: what a closed-loop benchmark can get, and what the CPU allows.

import { el, num } from "./shared.js";

export function littlesLaw() {
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
