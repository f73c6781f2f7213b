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
//
// This file runs the parts in order; each part is a module in scripts/test/browser/: common.mjs
// (what they share: the command line, the results, the browser, test()), site.mjs (the crawl, the
// phone layout, the screenshots), chapter.mjs (a chapter page's features), results.mjs (progress
// and the bench charts), room.mjs (the slides and the room), widgets.mjs (the interactive figures), timelines.mjs (the
// timelines of threads).
import { fail, finish, launchBrowser, closeBrowser } from "./browser/common.mjs";
import { crawl, phoneLayout, screenshots, featureShots } from "./browser/site.mjs";
import { chapterPage } from "./browser/chapter.mjs";
import { progressAndCharts } from "./browser/results.mjs";
import { classroom } from "./browser/room.mjs";
import { widgets } from "./browser/widgets.mjs";
import { timelines } from "./browser/timelines.mjs";

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

// The features, each part after the one before it (phoneLayout needs the pages crawl() found).
async function features() {
  await chapterPage();
  await progressAndCharts();
  await classroom();
  await widgets();
  await timelines();
  await phoneLayout();
}

try {
  await launchBrowser();
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
