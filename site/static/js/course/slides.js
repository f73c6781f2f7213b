// Slides (guide/slides): on a deck, the arrow keys, Page Up and Down, Space, Home and End move
// from slide to slide, and F shows the deck full screen, except while a field the instructor
// fills in (contenteditable: the room's address, a break's end) has the focus. Without
// JavaScript the slides read as one long page.

function slideList(deck) {
  return Array.prototype.slice.call(deck.querySelectorAll(".slide, .content > .sect1"));
}

// The slide whose top is nearest the top of the screen.
function currentSlide(list) {
  var best = 0, distance = Infinity;
  list.forEach(function (slide, i) {
    var d = Math.abs(slide.getBoundingClientRect().top);
    if (d < distance) { distance = d; best = i; }
  });
  return best;
}

export function slides() {
  var deck = document.querySelector(".deck");
  if (!deck) return;
  function go(i) {
    var list = slideList(deck);
    list[Math.max(0, Math.min(list.length - 1, i))].scrollIntoView({ block: "start" });
  }
  function fullScreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (deck.requestFullscreen) deck.requestFullscreen().catch(function () { /* refused: stay as is */ });
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || (e.target && (/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) || e.target.isContentEditable))) return;
    var i = currentSlide(slideList(deck));
    switch (e.key) {
      case "ArrowRight": case "ArrowDown": case "PageDown": case " ": go(i + 1); break;
      case "ArrowLeft": case "ArrowUp": case "PageUp": go(i - 1); break;
      case "Home": go(0); break;
      case "End": go(Infinity); break;
      case "f": case "F": fullScreen(); break;
      default: return;
    }
    e.preventDefault();
  });
}
