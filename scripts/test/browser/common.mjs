// What every part of the browser test shares: the command line, the results it prints, the
// browser, and one test's fresh context whose pages record what went wrong on them.
// Imported by scripts/test/browser.mjs (the entry, which runs the parts in order) and by each of
// its parts in this folder: site.mjs, chapter.mjs, results.mjs, room.mjs, widgets.mjs.
//
// Evaluated before the entry's own code: a wrong command line exits 2 here, before anything else,
// and so does a playwright-core that will not load.
import { createRequire } from "node:module";
import path from "node:path";

export const [base, outDir] = process.argv.slice(2);
if (!base || !outDir || !/^http:\/\/127\.0\.0\.1:\d+\/.+\/$/.test(base)) {
  console.error("usage: node scripts/test/browser.mjs http://127.0.0.1:PORT/SUBPATH/ OUTDIR");
  process.exit(2);
}

let passed = 0;
let failed = 0;
export function ok(name) {
  passed++;
  console.log(`ok    browser: ${name}`);
}
export function fail(name, why) {
  failed++;
  console.log(`FAIL  browser: ${name}: ${String(why).replace(/\s+/g, " ").slice(0, 400)}`);
}
export function finish(code) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code ?? (failed > 0 ? 1 : 0));
}

let chromium;
try {
  const require = createRequire(path.join(process.env.PLAYWRIGHT_DIR || ".", "package.json"));
  ({ chromium } = require("playwright-core"));
} catch (e) {
  fail("playwright-core loads", `not found under PLAYWRIGHT_DIR=${process.env.PLAYWRIGHT_DIR || "(unset)"}: run setup_browser (scripts/test/tools.sh)`);
  finish(2);
}

export const url = (rel) => new URL(rel, base).href;

// The live room scripts/test.sh started for this run, if any (see the live room test, room.mjs).
export const roomUrl = process.env.ROOM_URL || "";

export const PAGES = {
  home: url("./"),
  ch01: url("chapters/01-blocking/"),
  ch02: url("chapters/02-thread-pool/"),
  ch03: url("chapters/03-reactor/"),
  ch04: url("chapters/04-multi-reactor/"),
  ch05: url("chapters/05-virtual-threads/"),
  ch06: url("chapters/06-netty-hybrid/"),
  ch07: url("chapters/07-showdown/"),
  deeper07: url("deeper/07-showdown/"),
};

const LAUNCH = {
  executablePath: process.env.CHROME || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
};

let browser = null;
export async function closeBrowser() {
  const b = browser;
  browser = null;
  if (b) await b.close().catch(() => {});
}
export async function launchBrowser() {
  browser = await chromium.launch(LAUNCH);
}

// Every request of every page: any host but 127.0.0.1, or a path outside the site's sub-path
// (a root-relative link that breaks under /course/), is a failure of the test that made it.
export const strayRequests = [];

export async function newContext(options = {}) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    colorScheme: "light",
    reducedMotion: "no-preference",
    ...options,
  });
  context.on("request", (request) => {
    const u = new URL(request.url());
    if (u.protocol === "data:" || u.protocol === "blob:") return;
    if (u.hostname !== "127.0.0.1" || !(request.url().startsWith(base) || (roomUrl && request.url().startsWith(roomUrl)))) {
      strayRequests.push(request.url());
    }
  });
  return context;
}

// A page that records what went wrong on it: console errors, uncaught exceptions, failed
// requests, HTTP errors, and js/course/main.js's own warnings (a feature that threw).
export async function newPage(context) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error" || (m.type() === "warning" && m.text().startsWith("js/course:"))) {
      problems.push(`console ${m.type()}: ${m.text()}`);
    }
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => {
    // A fetch still running when the test moves to another page is aborted: not a fault.
    if (r.failure()?.errorText !== "net::ERR_ABORTED") problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.problems = problems;
  return page;
}

export async function open(page, address) {
  await page.goto(address, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
}

export function check(condition, why) {
  if (!condition) throw new Error(why);
}

// One test: a fresh context, closed afterwards; the test fails on any problem its pages had.
export async function test(name, fn, contextOptions) {
  let context = null;
  const strayBefore = strayRequests.length;
  try {
    context = await newContext(contextOptions);
    const pages = [];
    const make = async () => {
      const p = await newPage(context);
      pages.push(p);
      return p;
    };
    await fn(make, context);
    const problems = pages.flatMap((p) => p.problems);
    check(problems.length === 0, problems.join("; "));
    check(strayRequests.length === strayBefore, `requests outside ${base}: ${strayRequests.slice(strayBefore).join(", ")}`);
    ok(name);
  } catch (e) {
    fail(name, e.message.split("\n")[0]);
  } finally {
    if (context) await context.close().catch(() => {});
  }
}

export const relative = (address) => address.replace(base, "") || "home";

export const CHAPTERS = ["01-blocking", "02-thread-pool", "03-reactor", "04-multi-reactor", "05-virtual-threads", "06-netty-hybrid", "08-fan-out", "09-loop-carriers"];
