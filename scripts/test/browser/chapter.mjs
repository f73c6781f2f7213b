// What a chapter page does for a reader: the sidebar and the pager, a listing's Copy button, the
// hints, a solution's reveal, the quiz, "Predict first" with and without JavaScript, the search
// box and the theme switch.
// Imported by scripts/test/browser.mjs, which runs chapterPage() first among the features.
import { url, PAGES, open, check, test, CHAPTERS } from "./common.mjs";
import { quizzesPerPage } from "./site.mjs";

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

export async function chapterPage() {
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
}
