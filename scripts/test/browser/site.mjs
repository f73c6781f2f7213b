// The site as a whole: the crawl of every page from the home page, the phone layout of every page
// it found, and the screenshots (of two pages in each scheme and width, then of the features).
// Imported by scripts/test/browser.mjs, which runs crawl() first and the rest in its order; and by
// chapter.mjs, whose quiz test reads quizzesPerPage (what the crawl counted on each page).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { base, outDir, ok, fail, url, PAGES, strayRequests, newContext, newPage, open, check, test, relative } from "./common.mjs";

// Every page, found from the home page through the sidebar (and the pagers).
export const quizzesPerPage = {};
export const crawled = [];
export async function crawl() {
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

// Every page the crawl found, at a phone's width: the last of the features' tests (browser.mjs runs
// it after widgets.mjs's).
export async function phoneLayout() {
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

export async function screenshots() {
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

// Pictures of the features for a reviewer, after they have been used.
export async function featureShots() {
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
