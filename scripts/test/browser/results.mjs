// What the site shows of a learner's work and of the races: "Mark this chapter done" and the
// grader's results in the sidebar, and the bench charts (the committed runs, and a learner's own).
// Imported by scripts/test/browser.mjs, which runs progressAndCharts() after chapter.mjs's tests.
import path from "node:path";
import { url, outDir, PAGES, open, check, test } from "./common.mjs";

export async function progressAndCharts() {
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

  await test("bench charts: a learner's results/bench/03.json shows as 'yours' against the reference, with the verdict (and a busy machine beside it), and its --timeline turn's threads; none shows a hint", async (make) => {
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
      body: JSON.stringify(["bench/03.json", "timeline/03-hello.json", "timeline/03-hello-reference.json"]) }));
    // Its --timeline turn's two recordings (committed timelines stand in for them: what is drawn is the same kind).
    for (const [mine, committed] of [["03-hello", "04-ch04.spread-exercise"], ["03-hello-reference", "04-ch04.spread-solution"]]) {
      await page.route(url(`results/timeline/${mine}.json`), async (route) => {
        const response = await route.fetch({ url: url(`timeline/${committed}.json`) });
        await route.fulfill({ response });
      });
    }
    const hello = (server, rps) => ({ server, status: "measured", rps, latencyMs: { p50: 3, p99: 9 }, errors: 0, non2xx: 0, flags: [] });
    await page.route(url("results/bench/03.json"), (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify({
      schema: "course-bench/1", command: "scripts/bench.sh 03", kind: "chapter", date: "2026-01-01T00:00:00Z",
      machine: { cores: 2 }, methodology: { mode: "quick", warmups: 1, runs: 3, runSeconds: 2 },
      servers: [{ id: "learner", role: "learner", label: "exercises/03-reactor.java" }, { id: "reference", role: "reference", label: "solutions/03-reactor.java" }],
      workloads: [{ id: "hello", group: "hello", boundRps: null, results: [{ ...hello("learner", 41234),
        notes: ["the load generator used 95% of its CPU"], ratio: { rps: 0.8247, rpsInterval: { low: 0.61, high: 1.12, turns: 3,
          confidence: 0.95, verdict: "same", advice: "this race cannot tell a difference under 39%" },
          busy: "the machine was busy during 2 of 3 turns: other processes used up to 0.9 of a core, so this verdict may be the machine's, not the servers'; race again when it is quiet" } },
        hello("reference", 50000)] }], flags: [],
      timeline: { workload: "hello", seconds: 4, servers: [
        { server: "learner", file: ".results/timeline/03-hello.json", cpuMicrosPerRequestRecorded: 12.1, cpuMicrosPerRequestMeasured: 10.9 },
        { server: "reference", file: ".results/timeline/03-hello-reference.json", cpuMicrosPerRequestRecorded: 11.0, cpuMicrosPerRequestMeasured: 10.2 }] } }) }));
    await open(page, PAGES.ch03);
    await mine.and(page.locator(".ready")).waitFor({ timeout: 5000 });
    const text = await mine.innerText();
    check(await mine.locator("svg:not(.tl-chart) rect").count() === 2, "expected two bars: yours and the reference");
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
    // bench.sh --timeline: both servers' threads under the chart, on one time scale.
    const threads = mine.locator(".timeline-race .timeline-panel:has(svg.tl-chart)");
    await threads.nth(1).waitFor({ timeout: 10000 }).catch(() => {});
    check(await threads.count() === 2, `the race's two timelines are not drawn under its chart (${await threads.count()} drawn)`);
    const titles = await mine.locator(".timeline-race .tl-title").allInnerTexts();
    check(titles.join(" | ") === "Your server, on hello | The reference, on hello", `the race's timelines are titled: ${titles.join(" | ")}`);
    await mine.locator(".timeline-race").screenshot({ path: path.join(outDir, "race-timelines.png") });
  });
}
