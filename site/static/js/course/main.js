// The course pages' own behaviour, one module per feature: copy buttons, progress, hints and
// reveals, quizzes, the Little's-law calculator, the selector-loop animation, search, the
// colour theme, the benchmark panels, the timelines of threads, and the slides' keys. Loaded by partials/head.html with
// <script type="module">, so it needs the site served over HTTP (scripts/start.sh), not file://.
//
// Everything works on the HTML that Asciidoctor and Hugo wrote; each feature looks for its
// markup and does nothing when the page has none. No library, no build step, no request to
// another host: the only fetches are index.json and the learner's results, both served with
// the site.
import { theme } from "./theme.js";
import { copyButtons } from "./copy.js";
import { doneToggle, showProgress, loadGrades } from "./progress.js";
import { hints, reveals } from "./hints.js";
import { quizzes } from "./quiz.js";
import { littlesLaw } from "./littles-law.js";
import { selectorAnimation } from "./selector-loop.js";
import { search } from "./search.js";
import { benchPanels } from "./bench.js";
import { slides } from "./slides.js";
import { timelinePanels } from "./timeline.js";

// Each feature on its own: one that throws must not take the others down.
[theme, copyButtons, doneToggle, showProgress, loadGrades, hints, reveals, quizzes, littlesLaw,
  selectorAnimation, search, benchPanels, timelinePanels, slides].forEach(function (feature) {
  try {
    feature();
  } catch (e) {
    if (window.console) console.warn("js/course: " + (feature.name || "a feature") + " failed:", e);
  }
});
