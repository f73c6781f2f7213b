// Copy buttons on every code listing.

import { el } from "./shared.js";

function listingText(pre) {
  var copy = pre.cloneNode(true);
  // Callout numbers ((1), (2)) are Asciidoctor's markup, not code.
  copy.querySelectorAll(".conum").forEach(function (c) { c.remove(); });
  return copy.textContent.replace(/[ \t]+$/gm, "").replace(/\n+$/, "");
}

function copyWithTextarea(text) {
  var area = el("textarea", { readonly: "", "aria-hidden": "true" });
  area.value = text;
  area.style.position = "fixed";
  area.style.top = "-1000px";
  document.body.appendChild(area);
  area.select();
  var ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  area.remove();
  return ok;
}

function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    return navigator.clipboard.writeText(text).then(function () { return true; },
      function () { return copyWithTextarea(text); });
  }
  return Promise.resolve(copyWithTextarea(text));
}

export function copyButtons() {
  document.querySelectorAll(".listingblock pre").forEach(function (pre) {
    var box = pre.parentNode;
    var button = el("button", { type: "button", "class": "copy-button", "aria-label": "Copy this code" }, "Copy");
    var timer = null;
    button.addEventListener("click", function () {
      copyText(listingText(pre)).then(function (ok) {
        button.textContent = ok ? "Copied" : "Press Ctrl+C";
        button.classList.toggle("copied", ok);
        if (!ok) {
          var range = document.createRange();
          range.selectNodeContents(pre);
          var selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
        }
        clearTimeout(timer);
        timer = setTimeout(function () {
          button.textContent = "Copy";
          button.classList.remove("copied");
        }, 2000);
      });
    });
    box.classList.add("has-copy");
    box.insertBefore(button, pre);
  });
}
