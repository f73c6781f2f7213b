// Predict-first quizzes: an open block with role quiz, a checklist, an explanation.
//
// A page asks before its steps and measures after them, so nothing in the HTML gives the
// answer away: every item is unchecked and a role names the right one ([.quiz.answer-2] is
// the second), and the explanation is a collapsible block ([.explanation%collapsible]),
// closed without JavaScript. A checked item ([x]) still works, for a quiz that may show it.

import { el } from "./shared.js";

function itemIsChecked(li) {
  if (li.querySelector("i.fa-check-square-o, input[type=checkbox][checked]")) return true;
  return /^\s*\u2713/.test(li.textContent);
}

function itemText(li) {
  var copy = li.cloneNode(true);
  copy.querySelectorAll("i.fa, input[type=checkbox]").forEach(function (m) { m.remove(); });
  var p = copy.querySelector("p") || copy;
  // The rest keeps its inline markup (code, emphasis); only the leading marker goes.
  var html = p.innerHTML.replace(/^\s*(?:\u2713|\u274f|&#10003;|&#10063;)\s*/, "");
  return html.trim();
}

var quizCount = 0;

export function quizzes() {
  document.querySelectorAll(".openblock.quiz").forEach(function (block) {
    var list = block.querySelector("ul.checklist");
    if (!list) return;
    var id = "quiz-" + (++quizCount);
    var content = block.querySelector(":scope > .content") || block;
    var explanation = block.querySelectorAll(".explanation");
    var question = list.closest(".ulist").previousElementSibling;
    var form = el("form", { "class": "quiz-form" });
    var fieldset = el("fieldset");
    var legend = el("legend", { "class": "quiz-label" }, "Predict");
    fieldset.appendChild(legend);
    var correct = -1;
    Array.prototype.forEach.call(list.querySelectorAll(":scope > li"), function (li, i) {
      if (itemIsChecked(li)) correct = i;
      var label = el("label", { "class": "quiz-choice" });
      var input = el("input", { type: "radio", name: id, value: String(i) });
      var span = el("span");
      span.innerHTML = itemText(li);
      label.appendChild(input);
      label.appendChild(span);
      fieldset.appendChild(label);
    });
    var role = /(?:^|\s)answer-(\d+)(?:\s|$)/.exec(block.className);
    if (correct < 0 && role) correct = Number(role[1]) - 1;
    if (correct < 0 || correct >= list.querySelectorAll(":scope > li").length) return;
    if (question) {
      question.id = question.id || id + "-question";
      fieldset.setAttribute("aria-describedby", question.id);
    }
    form.appendChild(fieldset);
    var actions = el("div", { "class": "quiz-actions" });
    var check = el("button", { type: "submit" }, "Check");
    var show = el("button", { type: "button", "class": "quiz-show", hidden: "" }, "Show the answer");
    actions.appendChild(check);
    actions.appendChild(show);
    form.appendChild(actions);
    var feedback = el("p", { "class": "quiz-feedback", role: "status", "aria-live": "polite" });
    form.appendChild(feedback);

    function answer(reveal) {
      block.classList.add("answered");
      explanation.forEach(function (e) {
        e.hidden = false;
        if (e.tagName === "DETAILS") e.open = true;
      });
      form.querySelectorAll(".quiz-choice").forEach(function (label, i) {
        if (i === correct) label.classList.add("correct");
      });
      show.hidden = true;
      if (reveal) feedback.textContent = "The answer is marked. Build it, then measure it after the steps.";
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var picked = form.querySelector("input:checked");
      form.querySelectorAll(".quiz-choice").forEach(function (l) { l.classList.remove("wrong"); });
      if (!picked) {
        feedback.textContent = "Pick one first: a prediction you wrote down is worth more than one you remember.";
        feedback.className = "quiz-feedback";
        return;
      }
      if (Number(picked.value) === correct) {
        feedback.textContent = "Right. Build it, then measure it after the steps.";
        feedback.className = "quiz-feedback right";
        answer(false);
      } else {
        picked.closest(".quiz-choice").classList.add("wrong");
        feedback.textContent = "Not quite. Try another, or build it and measure it after the steps.";
        feedback.className = "quiz-feedback wrong";
        if (!block.classList.contains("answered")) show.hidden = false;
      }
    });
    show.addEventListener("click", function () { answer(true); });

    explanation.forEach(function (e) { e.hidden = true; });
    list.closest(".ulist").replaceWith(form);
    content.classList.add("quiz-body");
    block.classList.add("quiz-ready");
  });
}
