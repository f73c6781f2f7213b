// What the course's features share: building elements, storage that may refuse, numbers as
// people read them, the site root, and the list of the learner's results.

var SVG = "http://www.w3.org/2000/svg";

// The site root, from this module's own address (js/course/shared.js): pages work under any
// base path.
export var root = new URL("../../", import.meta.url).href;

export function el(name, attrs, text) {
  var e = document.createElement(name);
  Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

export function svg(name, attrs, text) {
  var e = document.createElementNS(SVG, name);
  Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// Storage can be missing or refuse (private windows, blocked site data): then features forget, not fail.
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
export var local = store("localStorage");
export var session = store("sessionStorage");

// Numbers as people read them: 12,345, 3.4; unknown figures (null, NaN) as a dash.
export function num(x, digits) {
  if (x === null || x === undefined || isNaN(x)) return "–";
  return Number(x).toLocaleString("en", { maximumFractionDigits: digits === undefined ? 0 : digits });
}

// The learner's results that exist, e.g. ["checks/03.json", "bench/03.json"]: served locally,
// partials/head.html points at results/site/results.json (check.sh and bench.sh keep it); a built copy
// has none. Fetched once, so the page asks only for files that are there.
var resultsMeta = document.querySelector('meta[name="course-results"]');
export var learnerResults = !resultsMeta ? Promise.resolve([]) :
  fetch(root + resultsMeta.content, { cache: "no-store" }).then(function (response) {
    return response.ok ? response.json() : [];
  }).then(function (files) {
    return Array.isArray(files) ? files : [];
  }).catch(function () { return []; });
