// The annotation form, narrowed to the replay's current turn.
//
// Without this script the form lists every turn; with it, only the turn on the board is
// shown (with a button to show them all), and the form remembers that turn so the saved
// version opens at it. The current turn comes from the "lcn:turn" event on document
// (detail.turn: turns played, 0 before the first) or from ?turn= in the address bar.
(function () {
  "use strict";

  var form = document.getElementById("annotate-form");
  if (!form) {
    return;
  }
  var rows = form.querySelectorAll(".annotate-turn");
  var hint = document.getElementById("annotate-hint");
  var showAll = document.getElementById("annotate-show-all");
  var atTurn = document.getElementById("annotate-at-turn");
  var expanded = false;
  var current = null;

  function show(turn) {
    current = turn;
    if (atTurn) {
      atTurn.value = turn === null ? "" : String(turn);
    }
    var found = null;
    Array.prototype.forEach.call(rows, function (row) {
      var here = Number(row.getAttribute("data-turn")) === turn;
      row.hidden = !expanded && !here;
      row.classList.toggle("annotate-current", here);
      if (here) {
        found = row;
      }
    });
    if (hint) {
      hint.hidden = expanded || found !== null;
      hint.textContent = hint.getAttribute("data-text") || "Go to a turn to give it a glyph or a comment.";
    }
  }

  function turnFromAddress() {
    var value = new URL(window.location.href).searchParams.get("turn");
    return value !== null && /^\d+$/.test(value) ? parseInt(value, 10) : null;
  }

  if (showAll) {
    showAll.hidden = false;
    showAll.addEventListener("click", function () {
      expanded = !expanded;
      showAll.textContent = expanded
        ? showAll.getAttribute("data-fewer") || "Show only the current turn"
        : showAll.getAttribute("data-all") || "Show every turn";
      show(current);
    });
  }

  document.addEventListener("lcn:turn", function (event) {
    if (event.detail && typeof event.detail.turn === "number") {
      show(event.detail.turn);
    }
  });
  window.addEventListener("lcn:location", function () {
    var turn = turnFromAddress();
    if (turn !== null) {
      show(turn);
    }
  });

  var initial = atTurn && /^\d+$/.test(atTurn.value) ? parseInt(atTurn.value, 10) : turnFromAddress();
  show(initial);
}());
