// Instant stepping on a replay page. The server renders every turn as a plain link and every
// position as HTML (the page holds the current one, one fragment holds them all), so this
// script renders nothing: it shows and hides positions, moves the move list's highlight and
// the graph's marker, and keeps ?turn=N in the address bar.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var last = parseInt(root.getAttribute("data-last"), 10) || 0;
  var current = parseInt(root.getAttribute("data-turn"), 10) || 0;
  var positions = {};
  var holder = document.getElementById("positions");
  root.querySelectorAll("section.position[data-turn]").forEach(function (section) {
    positions[section.getAttribute("data-turn")] = section;
  });
  // The page holds the current position; the others come in one server-rendered fragment,
  // fetched at once. A step asked for before it arrives waits for it; if it cannot be
  // fetched, the step falls back to the plain link (a page load).
  var pending = null;
  var loaded = false;
  var failed = false;
  function load() {
    if (!holder || !holder.getAttribute("data-positions-url") || !window.fetch) { failed = true; return; }
    fetch(holder.getAttribute("data-positions-url"), { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("positions: HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var template = document.createElement("template");
        template.innerHTML = html;
        template.content.querySelectorAll("section.position[data-turn]").forEach(function (section) {
          var key = section.getAttribute("data-turn");
          if (positions[key]) { return; }
          section.hidden = true;
          holder.appendChild(section);
          positions[key] = section;
        });
        loaded = true;
        root.setAttribute("data-ready", "1");
        if (pending !== null) { var turn = pending; pending = null; go(turn); }
      })
      .catch(function () {
        failed = true;
        if (pending !== null) { window.location.href = urlFor(pending).toString(); }
      });
  }
  var moves = document.getElementById("moves");
  var marker = document.getElementById("graph-marker");
  var graph = document.getElementById("graph");

  function urlFor(turn, view) {
    var url = new URL(window.location.href);
    url.searchParams.set("turn", String(turn));
    if (view !== undefined) {
      if (view === "all") { url.searchParams.delete("view"); } else { url.searchParams.set("view", view); }
    }
    return url;
  }

  function offsetIn(element, box) {
    return element.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  }

  function setStep(name, turn) {
    var link = root.querySelector('.steps a[data-step="' + name + '"]');
    if (link) { link.setAttribute("href", urlFor(turn).search); }
  }

  function go(turn, options) {
    turn = Math.max(0, Math.min(last, turn));
    var previous = positions[String(current)];
    var next = positions[String(turn)];
    if (!next) {
      if (failed) { window.location.href = urlFor(turn).toString(); }
      else if (!loaded) { pending = turn; }
      return;
    }
    if (previous && previous !== next) { previous.hidden = true; }
    next.hidden = false;
    current = turn;
    root.setAttribute("data-turn", String(turn));
    root.querySelectorAll(".mv.current").forEach(function (el) { el.classList.remove("current"); });
    var move = moves ? moves.querySelector('.mv[data-turn="' + turn + '"]') : null;
    if (move) {
      move.classList.add("current");
      if (moves.parentElement && (!options || !options.keepScroll)) {
        var box = moves.parentElement;
        var top = offsetIn(move, box);
        if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - move.offsetHeight) {
          box.scrollTop = Math.max(0, top - box.clientHeight / 2);
        }
      }
    }
    if (marker && graph) {
      var left = parseFloat(graph.getAttribute("data-left"));
      var step = parseFloat(graph.getAttribute("data-step"));
      var x = String(Math.round((left + step * turn) * 10) / 10);
      marker.setAttribute("x1", x);
      marker.setAttribute("x2", x);
    }
    setStep("first", 0);
    setStep("prev", Math.max(0, turn - 1));
    setStep("next", Math.min(last, turn + 1));
    setStep("last", last);
    root.querySelectorAll(".views a[data-view]").forEach(function (link) {
      link.setAttribute("href", urlFor(turn, link.getAttribute("data-view")).search);
    });
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", urlFor(turn).toString());
    }
    root.dispatchEvent(new CustomEvent("lcn:turn", { bubbles: true, detail: { turn: turn } }));
  }

  function setView(view) {
    root.classList.forEach(function (name) {
      if (name.indexOf("view-") === 0) { root.classList.remove(name); }
    });
    root.classList.add("view-" + view);
    root.setAttribute("data-view", view);
    root.querySelectorAll(".views a[data-view]").forEach(function (link) {
      link.classList.toggle("current", link.getAttribute("data-view") === view);
    });
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", urlFor(current, view).toString());
    }
  }

  root.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) { return; }
    var link = event.target.closest ? event.target.closest("a") : null;
    if (!link || !root.contains(link)) { return; }
    if (link.hasAttribute("data-turn")) {
      event.preventDefault();
      stop();
      go(parseInt(link.getAttribute("data-turn"), 10), { keepScroll: !!link.closest(".moves") });
    } else if (link.hasAttribute("data-step")) {
      event.preventDefault();
      stop();
      var name = link.getAttribute("data-step");
      go(name === "first" ? 0 : name === "last" ? last : name === "prev" ? current - 1 : current + 1);
    } else if (link.hasAttribute("data-view") && link.closest(".views")) {
      event.preventDefault();
      setView(link.getAttribute("data-view"));
    }
  });

  // Autoplay: one turn every 1.5 seconds until the end, or until any other step.
  var play = document.getElementById("play");
  var timer = null;
  function stop() {
    if (timer !== null) { window.clearInterval(timer); timer = null; }
    if (play) { play.textContent = "Play"; play.setAttribute("aria-pressed", "false"); }
  }
  function start() {
    if (current >= last) { go(0); }
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    timer = window.setInterval(function () {
      if (current >= last) { stop(); return; }
      go(current + 1);
    }, 1500);
  }
  if (play) {
    play.hidden = false;
    play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target;
    var tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || (target && target.isContentEditable)) { return; }
    var turn = null;
    if ((event.key === "p" || event.key === "P") && play) {
      event.preventDefault();
      if (timer === null) { start(); } else { stop(); }
      return;
    }
    if (event.key === "ArrowLeft") { turn = current - 1; }
    else if (event.key === "ArrowRight") { turn = current + 1; }
    else if (event.key === "Home") { turn = 0; }
    else if (event.key === "End") { turn = last; }
    if (turn === null) { return; }
    event.preventDefault();
    stop();
    go(turn);
  });

  (function scrollToCurrent() {
    var move = moves ? moves.querySelector(".mv.current") : null;
    var box = moves ? moves.parentElement : null;
    if (move && box && box.scrollHeight > box.clientHeight) {
      box.scrollTop = Math.max(0, offsetIn(move, box) - box.clientHeight / 2);
    }
  })();
  load();
  window.lcnReplay = {
    go: go, last: last,
    turn: function () { return current; },
    ready: function () { return loaded; }
  };
})();
