// Colour theme: light, dark, or the system's. partials/head.html applies the stored choice
// before the first paint; these buttons change it.

import { local } from "./shared.js";

var THEME_KEY = "course-theme";

export function theme() {
  var buttons = document.querySelectorAll(".theme-switch button[data-theme-choice]");
  function show() {
    var current = local.getItem(THEME_KEY) || "system";
    if (current === "system") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", current);
    buttons.forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-theme-choice") === current));
    });
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      var choice = b.getAttribute("data-theme-choice");
      if (choice === "system") local.removeItem(THEME_KEY); else local.setItem(THEME_KEY, choice);
      show();
    });
  });
  show();
}
