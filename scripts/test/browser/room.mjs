// The classroom: the instructor's slides, the room summary scripts/room.sh writes, and the live
// room (scripts/room.sh serve) that Suite.java starts for this run, with hand-ins as a learner's
// copy of the course sends them (from scripts/test/fixtures/room/).
// Imported by scripts/test/browser.mjs, which runs classroom() after results.mjs's tests.
import { readFileSync } from "node:fs";
import path from "node:path";
import { outDir, url, roomUrl, open, check, test, CHAPTERS } from "./common.mjs";

const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "fixtures", "room");

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

export async function classroom() {
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

  await test("room summary (scripts/room.sh): self-contained, a learner's failing checks unfold on a click, and their threads are drawn, linked from Stuck", async (make) => {
    const page = await make();
    await open(page, url("room-check.html"));
    check((await page.title()) === "Room summary", `no room summary (did the room step run?): title '${await page.title()}'`);
    const folded = page.locator("td.todo details").first();
    const list = folded.locator("ul");
    check(!(await list.isVisible()), "a learner's failing checks show before anyone asks");
    await folded.locator("summary").click();
    check(await list.isVisible() && (await list.locator("li").count()) > 0, "clicking 'N to fix' shows no failing checks");
    check((await page.locator("tfoot").innerText()).includes("Most stuck on"), "no 'Most stuck on' row");
    // ada's timeline of chapter 03 (handin.sh packed it from the fixture's .results/timeline/): drawn, and linked from Stuck.
    const threads = page.locator('#threads-ada-03 svg.tl[role="img"]');
    check(await threads.isVisible(), "ada's timeline of chapter 03 is not drawn under Threads");
    const rows = await threads.locator("text").allTextContents();
    check(rows.includes("main") && rows.some((t) => t.startsWith("the JVM's own threads")), `ada's timeline lacks its reactor's thread (main) or the JVM's: ${rows.join(" | ")}`);
    check(await threads.locator("rect.cpu").count() > 0, "ada's timeline shows no thread on a CPU");
    await page.locator('a[href="#threads-ada-03"]').click();
    check(new URL(page.url()).hash === "#threads-ada-03", "the Stuck table's 'their threads' does not lead to the timeline");
    await page.locator("#threads-ada-03").screenshot({ path: path.join(outDir, "room-threads.png") });
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
}
