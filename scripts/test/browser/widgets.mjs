// The interactive figures: the Little's law calculator (chapter 07) and the selector loop's
// animation (chapter 03), paused under reduced motion and playing without it.
// Imported by scripts/test/browser.mjs, which runs widgets() after room.mjs's tests.
import { PAGES, open, check, test } from "./common.mjs";

export async function widgets() {
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
}
