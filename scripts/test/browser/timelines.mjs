// The timelines of threads (js/course/timeline.js) on the chapter pages that show one: the
// reference solution's and a mistake's, drawn from site/static/timeline/, and a learner's own
// from results/timeline/. Imported by scripts/test/browser.mjs; its screenshots (one per chapter,
// and chapter 04's in the dark scheme) go to OUTDIR as timeline-NN.png.
import path from "node:path";
import { url, outDir, open, check, test } from "./common.mjs";

const TIMELINES = [
  ["02", "chapters/02-thread-pool/"],
  ["04", "chapters/04-multi-reactor/"],
  ["05", "chapters/05-virtual-threads/"],
  ["06", "chapters/06-netty-hybrid/"],
  ["08", "chapters/08-fan-out/"],
];

// The panels of a page that drew a chart: each has lanes, a legend, and its slices in words.
async function drawn(page, chapter) {
  const panels = page.locator(".timeline-panel:has(svg.tl-chart)");
  await panels.first().waitFor({ timeout: 10000 });
  const count = await panels.count();
  check(count === 2, `chapter ${chapter}: ${count} timelines drawn, not the reference's and the mistake's`);
  for (let i = 0; i < count; i++) {
    const panel = panels.nth(i);
    const lanes = await panel.locator("g.tl-lane").count();
    check(lanes >= 2, `chapter ${chapter}, timeline ${i + 1}: ${lanes} lanes`);
    check(await panel.locator(".tl-legend li").count() >= 2, `chapter ${chapter}, timeline ${i + 1}: no legend`);
    const first = panel.locator("g.tl-lane").first();
    const name = await first.locator("text.tl-name").textContent();
    await first.locator("rect.tl-track").hover({ force: true });
    const words = await panel.locator(".tl-explain").textContent();
    check(words.includes(name.replace("…", "")), `chapter ${chapter}, timeline ${i + 1}: pointing at lane ${name} says: ${words}`);
    check(/s: (on a CPU|not on a CPU)/.test(words), `chapter ${chapter}: the slice in words: ${words}`);
  }
  return panels;
}

export async function timelines() {
  await test("timelines: chapters 02, 04, 05, 06 and 08 draw the reference's and a mistake's threads, with a legend and each slice in words; the learner's panel says how to record theirs", async (make) => {
    const page = await make();
    for (const [chapter, rel] of TIMELINES) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await open(page, url(rel));
      const mine = page.locator('.timeline-panel[data-src^="results/timeline/"]');
      check((await mine.innerText()).includes("after the command above"), `chapter ${chapter}: the learner's empty panel says: ${await mine.innerText()}`);
      const panels = await drawn(page, chapter);
      const section = page.locator("h3#see-your-threads");
      check(await section.count() === 1, `chapter ${chapter}: no section "See your threads"`);
      // Both charts in one picture: from the first panel's top to the second's bottom.
      // (boundingBox is relative to the viewport; a full-page clip is relative to the page)
      const scroll = await page.evaluate(() => window.scrollY);
      const a = await panels.nth(0).boundingBox();
      const b = await panels.nth(1).boundingBox();
      await page.screenshot({ path: path.join(outDir, `timeline-${chapter}.png`), fullPage: true,
        clip: { x: a.x - 8, y: a.y + scroll - 8, width: Math.max(a.width, b.width) + 16, height: b.y + b.height - a.y + 16 } });
    }
  });

  await test("timelines: dark scheme, and a learner's own timeline (results/timeline/04-ch04.spread.json) drawn above the reference's", async (make) => {
    const page = await make();
    const rel = "chapters/04-multi-reactor/";
    await page.route(url(rel), async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace("</head>", '<meta name="course-results" content="results/site/results.json"></head>');
      await route.fulfill({ response, body: html });
    });
    await page.route(url("results/site/results.json"), (route) => route.fulfill({ contentType: "application/json",
      body: JSON.stringify(["timeline/04-ch04.spread.json"]) }));
    // The learner's: the untouched exercise's recording, as check.sh --timeline writes it.
    await page.route(url("results/timeline/04-ch04.spread.json"), async (route) => {
      const response = await route.fetch({ url: url("timeline/04-ch04.spread-exercise.json") });
      await route.fulfill({ response });
    });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, url(rel));
    const mine = page.locator('.timeline-panel[data-src="results/timeline/04-ch04.spread.json"]');
    await mine.locator("svg.tl-chart").waitFor({ timeout: 10000 });
    check(await mine.locator("g.tl-lane").count() >= 2, "the learner's timeline has no lanes");
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(bg !== "rgb(255, 255, 255)", `the dark scheme is not applied (body background ${bg})`);
    await mine.screenshot({ path: path.join(outDir, "timeline-04-dark.png") });
  }, { colorScheme: "dark" });
}
