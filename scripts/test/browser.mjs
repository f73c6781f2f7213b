// The built course site in a real browser: every page, then each feature of js/course/*.js.
//
// Usage: node scripts/test/browser.mjs BASE_URL OUTDIR
//   BASE_URL  where the built site is served, under a sub-path (http://127.0.0.1:PORT/course/)
//   OUTDIR    where the screenshots go
// Environment: CHROME (the browser's binary) and PLAYWRIGHT_DIR (a folder whose node_modules
// holds playwright-core), both set by setup_browser in scripts/test/tools.sh.
//
// Prints "ok    browser: NAME" or "FAIL  browser: NAME: why" per test, then "N passed, N failed";
// exits 0 when all passed, 1 when one failed, 2 when it could not run. The browser is closed on
// every path.
import { createRequire } from "node:module";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir || !/^http:\/\/127\.0\.0\.1:\d+\/.+\/$/.test(base)) {
  console.error("usage: node scripts/test/browser.mjs http://127.0.0.1:PORT/SUBPATH/ OUTDIR");
  process.exit(2);
}

let passed = 0;
let failed = 0;
function ok(name) {
  passed++;
  console.log(`ok    browser: ${name}`);
}
function fail(name, why) {
  failed++;
  console.log(`FAIL  browser: ${name}: ${String(why).replace(/\s+/g, " ").slice(0, 400)}`);
}
function finish(code) {
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

const url = (rel) => new URL(rel, base).href;

// The live room scripts/test.sh started for this run, if any (see the live room test).
const roomUrl = process.env.ROOM_URL || "";
const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), "fixtures", "room");

// Hands in as a learner's copy of the course would: ada's grading and race, or grace's grading.
async function handIn(name) {
  const read = (file) => JSON.parse(readFileSync(path.join(fixtures, file), "utf8"));
  const handin = name === "ada"
    ? { checks: [read("ada-results/checks/01.json"), read("ada-results/checks/03.json")], bench: [read("ada-results/bench/03.json")] }
    : { checks: read("handins/grace.json"), bench: [] };
  const answer = await fetch(`${roomUrl}handin?name=${name}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Room-Code": process.env.ROOM_CODE || "" },
    body: JSON.stringify({ schema: "course-handin/1", learner: name, time: new Date().toISOString(), ...handin }),
  });
  if (answer.status !== 200) throw new Error(`the room refused ${name}'s hand-in: ${answer.status} ${await answer.text()}`);
}
const PAGES = {
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
async function closeBrowser() {
  const b = browser;
  browser = null;
  if (b) await b.close().catch(() => {});
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await closeBrowser();
    fail("run", `stopped by ${signal}`);
    finish(1);
  });
}
// A run that hangs is a failure, not a stuck CI job.
const deadline = setTimeout(async () => {
  await closeBrowser();
  fail("run", "took longer than 5 minutes");
  finish(1);
}, 5 * 60 * 1000);
deadline.unref();

// Every request of every page: any host but 127.0.0.1, or a path outside the site's sub-path
// (a root-relative link that breaks under /course/), is a failure of the test that made it.
const strayRequests = [];

async function newContext(options = {}) {
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
async function newPage(context) {
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

async function open(page, address) {
  await page.goto(address, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
}

function check(condition, why) {
  if (!condition) throw new Error(why);
}

// One test: a fresh context, closed afterwards; the test fails on any problem its pages had.
async function test(name, fn, contextOptions) {
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

const relative = (address) => address.replace(base, "") || "home";

const CHAPTERS = ["01-blocking", "02-thread-pool", "03-reactor", "04-multi-reactor", "05-virtual-threads", "06-netty-hybrid", "08-fan-out"];

// Where a chapter page asks for its prediction and where it measures it: each section is an
// Asciidoctor .sect1 with its h2, in page order.
function predictionLayout(page) {
  return page.evaluate(() => {
    const headings = [...document.querySelectorAll("main .sect1 > h2")];
    const named = (text) => headings.find((h) => h.textContent.trim() === text) || null;
    const before = (a, b) => !!(a && b && a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    const quiz = document.querySelector(".openblock.quiz");
    const predict = named("Predict first"), steps = named("Steps"), measure = named("Measure your prediction");
    return {
      predict: !!predict,
      steps: !!steps,
      measure: !!measure,
      quizInPredict: !!(quiz && predict && quiz.closest(".sect1") === predict.parentElement),
      quizBeforeSteps: before(quiz, steps),
      measureAfterSteps: before(steps, measure),
      staleHeadings: headings.map((h) => h.textContent.trim()).filter((t) => /^Predict, then measure$/.test(t)),
    };
  });
}

// Every page, found from the home page through the sidebar (and the pagers).
const quizzesPerPage = {};
const crawled = [];
async function crawl() {
  const context = await newContext();
  try {
    const seen = new Set([PAGES.home]);
    const queue = [PAGES.home];
    while (queue.length) {
      const address = queue.shift();
      const name = `page ${relative(address)} loads with no error and no request to another host`;
      const strayBefore = strayRequests.length;
      const page = await newPage(context);
      crawled.push(address);
      try {
        await open(page, address);
        const title = await page.title();
        check(title.length > 0, "no <title>");
        check(await page.locator("main h1").count() === 1, "no single <h1> in <main>");
        check(await page.locator("nav.sidebar").count() === 1, "no sidebar");
        quizzesPerPage[relative(address)] = await page.locator(".openblock.quiz.quiz-ready").count();
        // Every picture on the page is drawn (loaded, and given room); a chapter page shows its idea as one.
        const pictures = await page.$$eval("main img", (imgs) => imgs.map((i) => ({
          src: i.getAttribute("src"), drawn: i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().height > 40 })));
        const undrawn = pictures.filter((p) => !p.drawn).map((p) => p.src);
        check(undrawn.length === 0, `pictures not drawn: ${undrawn.join(", ")}`);
        if (/\/chapters\/\d\d-/.test(address)) {
          check(pictures.some((p) => p.src.endsWith(".svg")), "a chapter page with no diagram of its idea (an SVG)");
        }
        const links = await page.$$eval("nav.sidebar a[href], nav.pager a[href], p.deeper-link a[href]", (as) => as.map((a) => a.href.split("#")[0]));
        for (const link of links) {
          if (link.startsWith(base) && !seen.has(link)) {
            seen.add(link);
            queue.push(link);
          }
        }
        check(page.problems.length === 0, page.problems.join("; "));
        check(strayRequests.length === strayBefore, `requests outside ${base}: ${strayRequests.slice(strayBefore).join(", ")}`);
        ok(name);
      } catch (e) {
        fail(name, e.message.split("\n")[0]);
      } finally {
        await page.close().catch(() => {});
      }
    }
    if (seen.size < 10) fail("the crawl finds every page", `only ${seen.size} pages: ${[...seen].map(relative).join(", ")}`);
    else ok(`the crawl finds ${seen.size} pages from the home page`);
    // Every page of the search index (each deeper page, the glossary) is reached by a reader's links.
    const indexed = (await (await fetch(url("index.json"))).json()).map((p) => url(p.url));
    const unreached = indexed.filter((a) => !seen.has(a));
    if (unreached.length) fail("every page of the site is reached from the home page", `not reached: ${unreached.map(relative).join(", ")}`);
    else ok(`every page of the site (${indexed.length} in its search index) is reached from the home page`);
  } finally {
    await context.close().catch(() => {});
  }
}

async function screenshots() {
  mkdirSync(outDir, { recursive: true });
  for (const scheme of ["light", "dark"]) {
    for (const width of [1280, 390]) {
      await test(`screenshots at ${width} px, ${scheme}`, async (make) => {
        const page = await make();
        for (const [name, address] of [["home", PAGES.home], ["03-reactor", PAGES.ch03]]) {
          await open(page, address);
          await page.screenshot({ path: path.join(outDir, `${name}-${width}-${scheme}.png`) });
        }
      }, { viewport: { width, height: width > 600 ? 900 : 844 }, colorScheme: scheme, reducedMotion: "reduce" });
    }
  }
}

async function features() {
  await test("navigation: the sidebar and the pager's next link lead to the next chapter", async (make) => {
    const page = await make();
    await open(page, PAGES.ch01);
    await page.locator("nav.sidebar a", { has: page.locator(".num", { hasText: /^02$/ }) }).click();
    await page.waitForURL(PAGES.ch02);
    check((await page.locator(".kicker").innerText()).includes("02"), "the sidebar's 02 link did not open chapter 02");
    await page.locator("nav.pager a.next").click();
    await page.waitForURL(PAGES.ch03);
    check((await page.locator(".kicker").innerText()).includes("03"), "the pager's next link on 02 did not open chapter 03");
    await page.locator("nav.pager a.prev").click();
    await page.waitForURL(PAGES.ch02);
  });

  await test("copy: a listing's Copy button copies its text and says Copied for 2 s", async (make) => {
    const page = await make();
    await open(page, PAGES.ch03);
    const listings = await page.locator(".listingblock pre").count();
    const buttons = await page.locator(".listingblock .copy-button").count();
    check(listings > 0 && buttons === listings, `${buttons} Copy buttons for ${listings} listings`);
    const block = page.locator(".listingblock").first();
    const expected = (await block.locator("pre").innerText()).trim();
    await block.locator(".copy-button").click();
    await page.waitForFunction(() => document.querySelector(".listingblock .copy-button").textContent === "Copied", null, { timeout: 1000 });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    check(copied.trim() === expected, `the clipboard holds ${JSON.stringify(copied)}, not ${JSON.stringify(expected)}`);
    await page.waitForFunction(() => document.querySelector(".listingblock .copy-button").textContent === "Copy", null, { timeout: 3000 });
  }, { permissions: ["clipboard-read", "clipboard-write"] });

  await test("hints: only the first of a group shows; Another hint opens the next", async (make) => {
    const page = await make();
    await open(page, PAGES.ch03);
    // Chapter 03's first group of hints: the first details.hint and the hints right after it.
    const hints = page.locator("details.hint");
    const size = await hints.count() === 0 ? 0 : await hints.first().evaluate((first) => {
      let n = 1;
      for (let next = first.nextElementSibling; next && next.matches("details.hint"); next = next.nextElementSibling) n++;
      return n;
    });
    check(size >= 2, size ? `the first group has ${size} hint` : "chapter 03 has no details.hint");
    const visible = async () => Promise.all([...Array(size).keys()].map((i) => hints.nth(i).isVisible()));
    const shown = (n) => JSON.stringify([...Array(size).keys()].map((i) => i < n));
    check(JSON.stringify(await visible()) === shown(1), `visible hints at first: ${await visible()}`);
    if (await hints.count() > size) check(await hints.nth(size).isVisible(), "the next group's first hint is hidden too");
    check(!(await page.locator(".another-hint").first().isVisible()), "Another hint shows before the first hint is open");
    await hints.nth(0).locator("summary").click();
    for (let i = 0; i < size - 1; i++) {
      const more = hints.nth(i).locator(".another-hint");
      check(await more.isVisible(), `no Another hint button in open hint ${i + 1}`);
      await more.click();
      check(JSON.stringify(await visible()) === shown(i + 2), `visible hints after ${i + 1} clicks: ${await visible()}`);
      check(await hints.nth(i + 1).evaluate((d) => d.open), `hint ${i + 2} did not open`);
    }
    check(await hints.nth(size - 1).locator(".another-hint").count() === 0, "the last hint offers another");
  });

  await test("reveal: a solution asks first, and remembers the answer on that page", async (make) => {
    const page = await make();
    await open(page, PAGES.ch03);
    const reveal = page.locator("details", { has: page.locator("summary", { hasText: /^Reveal/ }) }).first();
    const solution = reveal.locator(":scope > .content");
    await reveal.locator("summary").click();
    const ask = reveal.locator(".reveal-confirm");
    check(await ask.isVisible(), "opening it shows no question");
    check((await ask.innerText()).includes("Try the TODOs first? Open the solution anyway?"), `the question reads ${await ask.innerText()}`);
    check(!(await solution.isVisible()), "the solution shows before the answer");
    await ask.locator("button", { hasText: "Not yet" }).click();
    check(!(await reveal.evaluate((d) => d.open)), "Not yet leaves it open");
    await reveal.locator("summary").click();
    await ask.locator("button", { hasText: "Open the solution" }).click();
    check(await solution.isVisible(), "the solution does not show after Open the solution");
    check(await solution.locator("pre").count() > 0, "the solution has no code");
    await page.reload();
    await page.waitForLoadState("networkidle");
    await reveal.locator("summary").click();
    check(await solution.isVisible() && await reveal.locator(".reveal-confirm").count() === 0,
      "after a reload the page asks again (sessionStorage)");
  });

  await test("quiz: every chapter 01-06 has one; wrong then right shows the explanation", async (make) => {
    const missing = CHAPTERS.filter((c) => quizzesPerPage[`chapters/${c}/`] !== 1);
    check(missing.length === 0, `no working quiz (or more than one) on ${missing.join(", ")}`);
    const page = await make();
    await open(page, PAGES.ch05);
    const quiz = page.locator(".openblock.quiz").first();
    const explanation = quiz.locator(".explanation");
    const radios = quiz.locator("input[type=radio]");
    const n = await radios.count();
    check(n >= 2, `${n} choices`);
    check(!(await explanation.isVisible()), "the explanation shows before an answer");
    const text = await quiz.innerText();
    check(!/[\u2713\u274f]/.test(text) && await quiz.locator(".correct").count() === 0, "the answer is marked before an answer");
    const feedback = quiz.locator(".quiz-feedback");
    let wrong = 0;
    let right = false;
    for (let i = 0; i < n && !right; i++) {
      await radios.nth(i).check();
      await quiz.locator("button", { hasText: "Check" }).click();
      const cls = await feedback.getAttribute("class");
      if (cls.includes("wrong")) {
        wrong++;
        check(!(await explanation.isVisible()), "a wrong answer shows the explanation");
      } else {
        check(cls.includes("right"), `feedback ${cls}: ${await feedback.innerText()}`);
        right = true;
      }
    }
    check(wrong > 0, "the first choice was right: the test could not answer wrong first");
    check(right, "no choice was right");
    check(await explanation.isVisible(), "the explanation does not show after the right answer");
    check(await quiz.locator(".quiz-choice.correct").count() === 1, "the right choice is not marked");
  });

  await test("predict first: on every chapter 01-06 the quiz comes before the steps, and what we measured stays folded until opened", async (make) => {
    const page = await make();
    for (const chapter of CHAPTERS) {
      await open(page, url(`chapters/${chapter}/`));
      const order = await predictionLayout(page);
      check(order.predict, `${chapter}: no "Predict first" section`);
      check(order.quizInPredict, `${chapter}: the quiz is not in "Predict first"`);
      check(order.steps, `${chapter}: no "Steps" section`);
      check(order.quizBeforeSteps, `${chapter}: the quiz comes after the "Steps" heading`);
      check(order.measure && order.measureAfterSteps, `${chapter}: no "Measure your prediction" section after the steps`);
      check(order.staleHeadings.length === 0, `${chapter}: still has ${order.staleHeadings.join(", ")}`);
      check(!(await page.locator(".openblock.quiz .explanation").isVisible()), `${chapter}: the quiz's explanation shows before an answer`);
      const folds = page.locator(".sect1", { has: page.locator("h2", { hasText: /^Measure your prediction$/ }) }).locator("details.measured");
      const n = await folds.count();
      check(n >= 1, `${chapter}: "Measure your prediction" folds nothing under "What we measured"`);
      for (let i = 0; i < n; i++) {
        const fold = folds.nth(i);
        check((await fold.locator(":scope > summary").innerText()).trim() === "What we measured", `${chapter}: fold ${i + 1} is titled ${await fold.locator(":scope > summary").innerText()}`);
        check(!(await fold.evaluate((d) => d.open)) && !(await fold.locator(":scope > .content").isVisible()), `${chapter}: fold ${i + 1} is open before it was opened`);
        await fold.locator(":scope > summary").click();
        check(await fold.locator(":scope > .content").isVisible(), `${chapter}: fold ${i + 1} shows nothing when opened`);
      }
    }
  });

  await test("predict first without JavaScript: no quiz marks its answer, and the answers stay folded until opened", async (make) => {
    const page = await make();
    for (const chapter of CHAPTERS) {
      await open(page, url(`chapters/${chapter}/`));
      const quiz = page.locator(".openblock.quiz");
      check(await quiz.count() === 1, `${chapter}: ${await quiz.count()} quizzes`);
      const items = await quiz.locator("ul.checklist > li").allInnerTexts();
      check(items.length >= 2, `${chapter}: the quiz lists ${items.length} choices`);
      check(items.every((t) => !t.includes("\u2713")) && await quiz.locator("input[checked], i.fa-check-square-o").count() === 0,
        `${chapter}: a choice is marked before the learner has chosen: ${items.join(" | ")}`);
      const explanation = quiz.locator("details.explanation");
      check(await explanation.count() === 1, `${chapter}: the quiz's explanation is not a fold`);
      check(!(await explanation.locator(":scope > .content").isVisible()), `${chapter}: the quiz's explanation shows before it is opened`);
      await explanation.locator(":scope > summary").click();
      check(await explanation.locator(":scope > .content").isVisible(), `${chapter}: the quiz's explanation does not open`);
      const folds = page.locator("details.measured");
      check(await folds.count() >= 1, `${chapter}: nothing folded under "What we measured"`);
      for (let i = 0; i < await folds.count(); i++) {
        check(!(await folds.nth(i).locator(":scope > .content").isVisible()), `${chapter}: "What we measured" ${i + 1} shows before it is opened`);
      }
      await folds.first().locator(":scope > summary").click();
      check(await folds.first().locator(":scope > .content").isVisible(), `${chapter}: "What we measured" does not open`);
    }
  }, { javaScriptEnabled: false });

  await test("search: typing Selector lists chapter 03; arrow keys and Enter open a result", async (make) => {
    const page = await make();
    const asked = [];
    page.on("request", (r) => asked.push(r.url()));
    await open(page, PAGES.home);
    check(!asked.some((u) => u.endsWith("/index.json")), "index.json is loaded before the search box is used");
    const box = page.locator("#site-search");
    await box.focus();
    await box.pressSequentially("Selector");
    const hit = page.locator(`#site-search-results a[href="${PAGES.ch03}"]`);
    await hit.waitFor({ timeout: 3000 });
    check((await hit.innerText()).toLowerCase().includes("selector"), "the result shows no snippet with the word");
    check(asked.some((u) => u === url("index.json")), "index.json was not read from the site root");
    await box.press("ArrowDown");
    const first = await page.locator("#site-search-results a").first().getAttribute("href");
    check(await page.evaluate(() => document.activeElement?.closest("#site-search-results") !== null), "ArrowDown does not move into the results");
    await page.keyboard.press("Enter");
    await page.waitForURL(first);
    await open(page, PAGES.home);
    await page.locator("#site-search").fill("zzzznothing");
    await page.locator("#site-search-status", { hasText: "Nothing found" }).waitFor({ timeout: 2000 });
  });

  await test("dark mode: the theme buttons change the background, override the system, and persist", async (make, context) => {
    const page = await make();
    await open(page, PAGES.ch03);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.locator(".theme-switch button[data-theme-choice=dark]").click();
    const dark = await background();
    check(dark !== light, `the background stays ${light}`);
    check(await page.evaluate(() => document.documentElement.dataset.theme) === "dark", "no data-theme=dark on <html>");
    await page.reload();
    check(await background() === dark, "the dark theme is lost after a reload");
    check(await page.locator(".theme-switch button[data-theme-choice=dark]").getAttribute("aria-pressed") === "true", "Dark is not shown pressed");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.locator(".theme-switch button[data-theme-choice=light]").click();
    check(await background() === light, "Light does not override a dark system");
    await page.locator(".theme-switch button[data-theme-choice=system]").click();
    check(await background() === dark, "System does not follow a dark system");
    check(await page.evaluate(() => !document.documentElement.hasAttribute("data-theme")), "System leaves data-theme set");
  });

  await test("progress: Mark this chapter done shows in the sidebar after a reload", async (make) => {
    const page = await make();
    await open(page, PAGES.ch02);
    const item = page.locator("nav.sidebar li", { has: page.locator(".num", { hasText: /^02$/ }) });
    check(!(await item.evaluate((li) => li.classList.contains("done"))), "chapter 02 is done before anything happened");
    await page.locator(".done-toggle button", { hasText: "Mark this chapter done" }).click();
    await page.reload();
    await page.waitForLoadState("networkidle");
    check(await item.evaluate((li) => li.classList.contains("done")), "no done class on chapter 02 in the sidebar");
    check((await item.locator(".progress-mark").innerText()).includes("✓"), "no check mark next to chapter 02");
    check(await page.locator(".done-toggle button").getAttribute("aria-pressed") === "true", "the toggle is not pressed");
    await open(page, PAGES.home);
    check(await page.locator(".chapter-list li.done").count() === 1, "the home page's list does not show chapter 02 done");
  });

  await test("progress: the grader's results mark passed chapters and what is left to fix", async (make) => {
    const page = await make();
    // What hugo server writes (partials/head.html), the index check.sh keeps, and the files.
    await page.route(PAGES.ch03, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace("</head>", '<meta name="course-results" content="results/site/results.json"></head>');
      await route.fulfill({ response, body: html });
    });
    await page.route(url("results/site/results.json"), (route) => route.fulfill({ contentType: "application/json",
      body: JSON.stringify(["checks/03.json", "checks/04.json"]) }));
    await page.route(url("results/checks/03.json"), (route) => route.fulfill({ contentType: "application/json",
      body: JSON.stringify({ chapter: "03", passed: 9, failed: 0, exit: 0 }) }));
    await page.route(url("results/checks/04.json"), (route) => route.fulfill({ contentType: "application/json",
      body: JSON.stringify({ chapter: "04", passed: 5, failed: 2, exit: 1 }) }));
    await open(page, PAGES.ch03);
    const item = (n) => page.locator("nav.sidebar li", { has: page.locator(".num", { hasText: new RegExp(`^${n}$`) }) });
    check(await item("03").evaluate((li) => li.classList.contains("passed") && li.classList.contains("done")), "chapter 03 is not marked passed");
    check((await item("03").locator(".progress-mark").innerText()).includes("✓"), "no check mark for chapter 03");
    check((await item("04").locator(".progress-mark").innerText()).includes("2 to fix"), `chapter 04 shows ${await item("04").locator(".progress-mark").innerText()}`);
    const toggle = page.locator(".done-toggle button");
    check(await toggle.getAttribute("aria-pressed") === "true" && await toggle.isDisabled(), "a grader pass does not count as done");
  });

  await test("bench charts: chapter 07 draws bench/reference.json as SVG bars", async (make) => {
    const page = await make();
    await open(page, PAGES.ch07);
    const panel = page.locator('.bench-panel[data-src="bench/reference.json"]');
    await panel.and(page.locator(".ready")).waitFor({ timeout: 5000 });
    const bars = await panel.locator("svg rect").count();
    check(bars > 0, "no bars in the reference panel");
    const text = await panel.innerText();
    check(text.includes("CPU per request") && text.includes("plain Netty's"), "hello's CPU per request, with its ratio to Netty, is not drawn");
    check(text.includes("CPUs: servers on"), "the panel does not say how each workload shared the CPUs");
  });

  await test("bench charts: chapter 07's deeper page draws the ramp, the spikes and the soak as lines, each server named with its finding", async (make) => {
    const page = await make();
    await open(page, PAGES.deeper07);
    for (const [src, words] of [["bench/ramp.json", "broke at"], ["bench/spike.json", "baseline"], ["bench/soak.json", "a minute"]]) {
      const panel = page.locator(`.bench-panel[data-src="${src}"]`);
      await panel.and(page.locator(".ready")).waitFor({ timeout: 5000 });
      check(await panel.locator(".line-chart svg polyline.ramp-line").count() > 0, `${src}: no lines drawn`);
      check((await panel.locator(".ramp-legend").innerText()).includes(words), `${src}: the legend does not say "${words}"`);
    }
  });

  await test("bench charts: chapter 07's deeper page draws what a held connection costs each server: heap, the rest of RSS and the kernel, stacked", async (make) => {
    const page = await make();
    await open(page, PAGES.deeper07);
    const panel = page.locator('.bench-panel[data-src="bench/connections.json"]');
    await panel.and(page.locator(".ready")).waitFor({ timeout: 5000 });
    const chart = panel.locator(".connections-chart");
    const rows = await chart.locator("svg text.value").count();
    check(rows >= 5, `${rows} servers drawn, not the five that held connections`);
    check(await chart.locator("svg rect.segment").count() >= 2 * rows, "fewer than two parts a bar");
    const legend = await chart.locator(".ramp-legend").innerText();
    check(legend.includes("heap") && legend.includes("RSS") && legend.includes("kernel"), `the legend says: ${legend}`);
  });

  await test("bench charts: a learner's results/bench/03.json shows as 'yours' against the reference, with the verdict (and a busy machine beside it); none shows a hint", async (make) => {
    const page = await make();
    // Without results (a built copy), the panel says how to get some, and fetches nothing.
    await open(page, PAGES.ch03);
    const mine = page.locator('.bench-panel[data-src="results/bench/03.json"]');
    check((await mine.innerText()).includes("scripts/bench.sh 03"), `the empty panel says: ${await mine.innerText()}`);
    // What hugo server writes, the index bench.sh keeps for a learner who raced chapter 03, and the file.
    await page.route(PAGES.ch03, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace("</head>", '<meta name="course-results" content="results/site/results.json"></head>');
      await route.fulfill({ response, body: html });
    });
    await page.route(url("results/site/results.json"), (route) => route.fulfill({ contentType: "application/json",
      body: JSON.stringify(["bench/03.json"]) }));
    const hello = (server, rps) => ({ server, status: "measured", rps, latencyMs: { p50: 3, p99: 9 }, errors: 0, non2xx: 0, flags: [] });
    await page.route(url("results/bench/03.json"), (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify({
      schema: "course-bench/1", command: "scripts/bench.sh 03", kind: "chapter", date: "2026-01-01T00:00:00Z",
      machine: { cores: 2 }, methodology: { mode: "quick", warmups: 1, runs: 3, runSeconds: 2 },
      servers: [{ id: "learner", role: "learner", label: "exercises/03-reactor.java" }, { id: "reference", role: "reference", label: "solutions/03-reactor.java" }],
      workloads: [{ id: "hello", group: "hello", boundRps: null, results: [{ ...hello("learner", 41234),
        notes: ["the load generator used 95% of its CPU"], ratio: { rps: 0.8247, rpsInterval: { low: 0.61, high: 1.12, turns: 3,
          confidence: 0.95, verdict: "same", advice: "this race cannot tell a difference under 39%" },
          busy: "the machine was busy during 2 of 3 turns: other processes used up to 0.9 of a core, so this verdict may be the machine's, not the servers'; race again when it is quiet" } },
        hello("reference", 50000)] }], flags: [] }) }));
    await open(page, PAGES.ch03);
    await mine.and(page.locator(".ready")).waitFor({ timeout: 5000 });
    const text = await mine.innerText();
    check(await mine.locator("svg rect").count() === 2, "expected two bars: yours and the reference");
    check(text.includes("yours") && text.includes("41,234 req/s") && text.includes("50,000 req/s"), `the panel shows: ${text}`);
    check(text.includes("scripts/bench.sh 03"), "the panel does not name the command that measured it");
    const note = await mine.locator(".bench-note").first().textContent();
    check(note.includes("hello") && note.includes("95% of its CPU"), `a result's note is not listed: ${note}`);
    const verdict = await mine.locator(".bench-verdict").textContent();
    check(verdict.includes("the same within this machine's noise") && verdict.includes("0.61× to 1.12×"),
      `the verdict and its interval are not shown under the chart: ${verdict}`);
    check((await mine.textContent()).includes("under 39%"), "the advice of a race too close to call is not listed");
    const busy = await mine.locator(".bench-busy").textContent();
    check(busy.includes("the machine was busy during 2 of 3 turns"), `a verdict measured on a busy machine does not say so under the chart: ${busy}`);
  });

  await test("slides: the opening, the day, the room, a slide per chapter from the registry, the breaks and the close; the keys move from slide to slide, not inside a field", async (make) => {
    const page = await make();
    await open(page, url("guide/slides/"));
    const slides = page.locator(".deck .slide, .deck .content > .sect1");
    const count = await slides.count();
    check(count >= 16, `only ${count} slides`);
    check(await page.locator(".deck .bridge").count() === CHAPTERS.length + 1, "not one slide per chapter of the registry");
    // A slide's name: a chapter's section id, or the id of an AsciiDoc section's heading.
    const ids = await slides.evaluateAll((all) => all.map((s) => s.id || (s.querySelector("h2") || {}).id || ""));
    const at = (id) => ids.indexOf(id);
    for (const id of ["the-day", "the-room", "break-1", "what-each-model-costs", "next-steps", "feedback", "chapter-01", "chapter-07", "chapter-08"]) {
      check(at(id) >= 0, `no slide '${id}' (slides: ${ids.join(", ")})`);
    }
    check(at("the-room") < at("chapter-01") && at("chapter-01") < at("break-1") && at("break-1") < at("chapter-02")
      && at("chapter-07") < at("what-each-model-costs") && at("what-each-model-costs") < at("next-steps"),
      `the slides are out of order: ${ids.join(", ")}`);
    check(ids[count - 1] === "feedback", `the last slide is '${ids[count - 1]}', not the one asking for feedback`);
    const plans = page.locator(".agenda-slide .agenda-plan");
    check(await plans.count() >= 2 && (await plans.first().innerText()).includes("09:00"), "the agenda slide does not show each plan's times");
    const topOf = (i) => slides.nth(i).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(300);
    check(Math.abs(await topOf(1)) <= 2, `ArrowRight did not bring the second slide to the top (its top: ${await topOf(1)})`);
    // The room's slide: the instructor types the address into it; Space and F stay in the field.
    const room = at("the-room");
    for (let i = 1; i < room; i++) await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(300);
    check(Math.abs(await topOf(room)) <= 2, `the room's slide is not at the top (its top: ${await topOf(room)})`);
    const address = slides.nth(room).locator(".fill").first();
    check((await address.textContent()) === "ADDRESS", "the room's slide has no ADDRESS field");
    await address.click();
    await page.keyboard.press("End");
    await page.keyboard.type(" F");
    await page.waitForTimeout(300);
    check((await address.textContent()) === "ADDRESS F", `typing into the address field gave '${await address.textContent()}'`);
    check(Math.abs(await topOf(room)) <= 2 && !(await page.evaluate(() => !!document.fullscreenElement)), "a key typed into a field moved the deck");
    await address.evaluate((el) => el.blur());
    await page.keyboard.press("End");
    await page.waitForTimeout(300);
    check(Math.abs(await topOf(count - 1)) <= 2 || (await topOf(count - 1)) > 0, "End did not reach the last slide");
    await page.keyboard.press("Home");
    await page.waitForTimeout(300);
    check(Math.abs(await topOf(0)) <= 2, "Home did not go back to the first slide");
  });

  await test("room summary (scripts/room.sh): self-contained, and a learner's failing checks unfold on a click", async (make) => {
    const page = await make();
    await open(page, url("room-check.html"));
    check((await page.title()) === "Room summary", `no room summary (did the room step run?): title '${await page.title()}'`);
    const folded = page.locator("td.todo details").first();
    const list = folded.locator("ul");
    check(!(await list.isVisible()), "a learner's failing checks show before anyone asks");
    await folded.locator("summary").click();
    check(await list.isVisible() && (await list.locator("li").count()) > 0, "clicking 'N to fix' shows no failing checks");
    check((await page.locator("tfoot").innerText()).includes("Most stuck on"), "no 'Most stuck on' row");
  });

  // The live room (scripts/room.sh serve), when scripts/test.sh started one: ROOM_URL, its
  // learners' code ROOM_CODE, its viewer code ROOM_VIEW, the page updating every second.
  if (roomUrl) {
    await test("live room: the viewer code opens it; a new hand-in shows in place, and an open list stays open", async (make) => {
      const page = await make();
      await handIn("ada");
      await open(page, `${roomUrl}?view=${process.env.ROOM_VIEW}`);
      check(new URL(page.url()).search === "", `the viewer code stays in the address bar: ${page.url()}`);
      check((await page.locator("main").innerText()).includes("1 learner(s)"), "the room does not show ada");
      const list = page.locator('details[data-key="ada/03"]');
      await list.locator("summary").click();
      check(await list.evaluate((d) => d.open), "ada's failing checks of chapter 03 did not open");
      await page.evaluate(() => { window.notReloaded = true; });
      await handIn("grace");
      await page.waitForFunction(() => document.querySelector("main").innerText.includes("2 learner(s)"), null, { timeout: 10000 })
        .catch(() => { throw new Error("grace's hand-in did not show within 10 s"); });
      check(await page.evaluate(() => window.notReloaded === true), "the page reloaded instead of updating in place");
      check(await page.locator('details[data-key="ada/03"]').evaluate((d) => d.open), "the list the viewer opened closed when the page updated");
      const cells = await page.locator("td.todo summary, td.done, td.none").allInnerTexts();
      check(cells.every((t) => /to fix|pass|not graded|could not run|some checks ran/.test(t)), `a progress cell says nothing of what it holds: ${cells.join(" | ")}`);
      const raced = await page.locator("h3 + table td.num").allInnerTexts();
      check(raced.length > 0 && raced.every((t) => /(req\/s|CPU per request|heap per connection) [0-9.]+× the reference's|not raced|skipped|stalled/.test(t)),
        `a race cell does not say which figure it is: ${raced.join(" | ")}`);
      await page.screenshot({ path: path.join(outDir, "live-room.png"), fullPage: true });
    });
  }

  await test("Little's law: 2000 connections / 0.2 s = 10,000 req/s, and which bound binds", async (make) => {
    const page = await make();
    await open(page, PAGES.ch07);
    const box = page.locator(".littles-law");
    const result = box.locator("output");
    const set = async (name, value) => box.locator(`input[name=${name}]`).fill(value);
    await set("connections", "2000");
    await set("service", "200");
    await set("threads", "unlimited");
    await set("cores", "2");
    await set("cpu", "0.05");
    let text = await result.innerText();
    check(text.includes("10,000 req/s") && text.includes("Concurrency binds"), `it says: ${text}`);
    await set("cpu", "5");
    text = await result.innerText();
    check(text.includes("400 req/s") && text.includes("The CPU binds"), `with 5 ms of CPU it says: ${text}`);
    await set("threads", "16");
    text = await result.innerText();
    check(text.includes("80 req/s") && text.includes("Concurrency binds"), `with 16 threads it says: ${text}`);
  });

  await test("animation: paused under reduced motion, a frame changes after Play", async (make) => {
    const page = await make();
    await open(page, PAGES.ch03);
    const box = page.locator(".selector-animation");
    check(await box.locator("svg .sa-conn").count() === 5, "not five connections in the diagram");
    const play = box.locator("button.sa-play");
    check(await play.innerText() === "Play", `the button reads ${await play.innerText()} under reduced motion`);
    const frame = () => box.getAttribute("data-frame");
    const picture = () => box.locator("svg").innerHTML();
    const before = [await frame(), await picture()];
    await page.waitForTimeout(2000);
    check(await frame() === before[0], "it moves while paused");
    await play.click();
    check(await play.innerText() === "Pause", "Play does not turn into Pause");
    check(await frame() !== before[0] && await picture() !== before[1], "the frame is the same after Play");
    const second = await frame();
    await page.waitForFunction((f) => document.querySelector(".selector-animation").getAttribute("data-frame") !== f, second, { timeout: 4000 });
    await play.click();
    const stopped = await frame();
    await page.waitForTimeout(2000);
    check(await frame() === stopped, "it keeps moving after Pause");
  }, { reducedMotion: "reduce" });

  await test("animation: plays by itself without reduced motion", async (make) => {
    const page = await make();
    await open(page, PAGES.ch03);
    const box = page.locator(".selector-animation");
    await box.scrollIntoViewIfNeeded();
    const first = await box.getAttribute("data-frame");
    await page.waitForFunction((f) => document.querySelector(".selector-animation").getAttribute("data-frame") !== f, first, { timeout: 4000 });
  });

  await test("phone layout at 390 px: no page scrolls sideways, the sidebar is above the content", async (make) => {
    const page = await make();
    for (const address of crawled) {
      await open(page, address);
      const layout = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        navBottom: document.querySelector("nav.sidebar").getBoundingClientRect().bottom,
        mainTop: document.querySelector("main").getBoundingClientRect().top,
      }));
      check(layout.width <= 390, `${relative(address)} is ${layout.width} px wide`);
      check(layout.navBottom <= layout.mainTop + 1, `${relative(address)}: the sidebar is not above the content`);
    }
    check(await page.locator("#site-search").isVisible(), "no search box on a phone");
  }, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
}

// Pictures of the features for a reviewer, after they have been used.
async function featureShots() {
  await test("screenshots of the features", async (make) => {
    const page = await make();
    await open(page, PAGES.ch05);
    const quiz = page.locator(".openblock.quiz").first();
    await quiz.locator("input[type=radio]").first().check();
    await quiz.locator("button", { hasText: "Check" }).click();
    await quiz.screenshot({ path: path.join(outDir, "feature-quiz-wrong.png") });
    await open(page, PAGES.ch07);
    await page.locator(".littles-law").screenshot({ path: path.join(outDir, "feature-littles-law.png") });
    await open(page, PAGES.ch03);
    await page.locator(".selector-animation button.sa-step").click();
    await page.locator(".selector-animation button.sa-step").click();
    await page.locator(".selector-animation").screenshot({ path: path.join(outDir, "feature-selector-loop.png") });
    const reveal = page.locator("details", { has: page.locator("summary", { hasText: /^Reveal/ }) }).first();
    await reveal.locator("summary").click();
    await reveal.screenshot({ path: path.join(outDir, "feature-reveal.png") });
    await page.locator("#site-search").focus();
    await page.locator("#site-search").pressSequentially("backlog");
    await page.locator("#site-search-results a").first().waitFor();
    await page.locator("nav.sidebar").screenshot({ path: path.join(outDir, "feature-search.png") });
    await page.locator(".theme-switch button[data-theme-choice=dark]").click();
    await page.locator(".selector-animation").screenshot({ path: path.join(outDir, "feature-selector-loop-dark.png") });
    const listing = page.locator(".listingblock", { has: page.locator("code[data-lang=java]") }).first();
    await listing.hover();
    await listing.screenshot({ path: path.join(outDir, "feature-listing-dark.png") });
  }, { reducedMotion: "reduce" });
}

try {
  browser = await chromium.launch(LAUNCH);
  await crawl();
  await features();
  await screenshots();
  await featureShots();
} catch (e) {
  fail("run", e.message.split("\n")[0]);
} finally {
  await closeBrowser();
}
finish();
