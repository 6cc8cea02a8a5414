// Instant stepping on a replay page. The server renders every turn as a plain link and every
// position as HTML (the page holds the current one; the others come in server-rendered
// chunks of data-chunk positions, fetched as the reader steps), so this script renders
// nothing: it shows and hides positions, moves the move list's highlight (fetching the move
// list's page of a turn when a long game's list does not show it) and the graph's marker,
// and keeps ?turn=N in the address bar.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var last = parseInt(root.getAttribute("data-last"), 10) || 0;
  var current = parseInt(root.getAttribute("data-turn"), 10) || 0;
  var positions = {};
  var holder = document.getElementById("positions");
  var chunk = holder ? parseInt(holder.getAttribute("data-chunk"), 10) || 100 : 100;
  root.querySelectorAll("section.position[data-turn]").forEach(function (section) {
    positions[section.getAttribute("data-turn")] = section;
  });
  // Chunks by number: "loading", "loaded" or "failed". At most KEEP chunks stay in the
  // page; the ones farthest from the current turn are dropped (and fetched again if needed).
  var KEEP = 6;
  var chunks = {};
  var pending = null;
  function chunkOf(turn) { return Math.floor(turn / chunk); }
  function fragmentUrl(name, turn) {
    var url = new URL(holder.getAttribute(name), window.location.href);
    url.searchParams.set("turn", String(turn));
    return url.toString();
  }
  function fetchText(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.text();
    });
  }
  function forget() {
    var held = Object.keys(chunks).filter(function (k) { return chunks[k] === "loaded"; });
    if (held.length <= KEEP) { return; }
    var here = chunkOf(current);
    held.sort(function (a, b) { return Math.abs(b - here) - Math.abs(a - here); });
    held.slice(0, held.length - KEEP).forEach(function (k) {
      var n = parseInt(k, 10);
      for (var t = n * chunk; t < (n + 1) * chunk; t++) {
        var section = positions[String(t)];
        if (section && t !== current) { section.remove(); delete positions[String(t)]; }
      }
      delete chunks[k];
    });
  }
  function load(number) {
    if (number < 0 || number > chunkOf(last) || chunks[number]) { return; }
    if (!holder || !holder.getAttribute("data-positions-url") || !window.fetch) {
      chunks[number] = "failed";
      return;
    }
    chunks[number] = "loading";
    fetchText(fragmentUrl("data-positions-url", number * chunk))
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
        chunks[number] = "loaded";
        if (chunks[chunkOf(current)] === "loaded") { root.setAttribute("data-ready", "1"); }
        if (pending !== null && chunkOf(pending) === number) { var turn = pending; pending = null; go(turn); }
        forget();
      })
      .catch(function () {
        chunks[number] = "failed";
        if (pending !== null && chunkOf(pending) === number) {
          window.location.href = urlFor(pending).toString();
        }
      });
  }
  // The chunk of the current turn, and its neighbour when the turn is near its edge.
  function prefetch(turn) {
    var number = chunkOf(turn);
    load(number);
    var offset = turn - number * chunk;
    if (offset >= chunk - 10) { load(number + 1); }
    if (offset < 10) { load(number - 1); }
  }
  var announce = document.getElementById("turn-announce");
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
      var state = chunks[chunkOf(turn)];
      if (state === "failed") { window.location.href = urlFor(turn).toString(); return; }
      pending = turn;
      root.removeAttribute("data-ready");
      load(chunkOf(turn));
      return;
    }
    if (previous && previous !== next) { previous.hidden = true; }
    next.hidden = false;
    current = turn;
    root.setAttribute("data-turn", String(turn));
    root.querySelectorAll(".mv.current").forEach(function (el) { el.classList.remove("current"); });
    showMoves(turn);
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
    // The language switch returns to the turn shown, not the one the page opened at.
    var back = document.querySelector(".language-switch input[name=next]");
    if (back) {
      var here = urlFor(turn);
      back.value = here.pathname + here.search;
    }
    prefetch(turn);
    if (chunks[chunkOf(turn)] === "loaded") { root.setAttribute("data-ready", "1"); }
    keepSpace();
    if (announce && (!options || !options.quiet)) {
      var line = next.querySelector(".turn-line");
      announce.textContent = line ? line.textContent : "";
    }
    root.dispatchEvent(new CustomEvent("lcn:turn", { bubbles: true, detail: { turn: turn, view: root.getAttribute("data-view") } }));
  }

  // A long game's move list shows one page of turns: a turn outside it brings its page.
  var movesWanted = null;
  function showMoves(turn) {
    if (!moves || !holder || !holder.getAttribute("data-moves-url") || !window.fetch) { return; }
    var first = parseInt(moves.getAttribute("data-first"), 10) || 1;
    var lastShown = parseInt(moves.getAttribute("data-last"), 10);
    if (isNaN(lastShown) || (turn >= first && turn <= lastShown) || (turn === 0 && first === 1)) { return; }
    if (movesWanted === turn) { return; }
    movesWanted = turn;
    fetchText(fragmentUrl("data-moves-url", turn)).then(function (html) {
      if (movesWanted !== turn) { return; }
      var template = document.createElement("template");
      template.innerHTML = html.trim();
      var fresh = template.content.querySelector("#moves");
      if (!fresh) { return; }
      moves.replaceWith(fresh);
      moves = fresh;
      movesWanted = null;
      moves.querySelectorAll(".mv.current").forEach(function (el) { el.classList.remove("current"); });
      var move = moves.querySelector('.mv[data-turn="' + current + '"]');
      if (move) {
        move.classList.add("current");
        var box = moves.parentElement;
        box.scrollTop = Math.max(0, offsetIn(move, box) - box.clientHeight / 2);
      }
    }).catch(function () { movesWanted = null; });
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
    root.dispatchEvent(new CustomEvent("lcn:turn", { bubbles: true, detail: { turn: current, view: view } }));
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

  // Autoplay: one turn every few seconds (the speed chosen) until the end, or until any other
  // step. The button holds both its words and shows the one aria-pressed says (site.css), so
  // that it is as wide as the longer one and the steps beside it never move.
  var play = document.getElementById("play");
  var speed = document.getElementById("speed");
  var timer = null;
  function stop() {
    if (timer !== null) { window.clearInterval(timer); timer = null; }
    if (play) { play.setAttribute("aria-pressed", "false"); }
  }
  function delay() {
    var chosen = speed ? parseInt(speed.value, 10) : 1500;
    return chosen > 0 ? chosen : 1500;
  }
  function start() {
    if (current >= last) { go(0); }
    play.setAttribute("aria-pressed", "true");
    timer = window.setInterval(function () {
      if (current >= last) { stop(); return; }
      go(current + 1);
    }, delay());
  }
  if (play) {
    play.hidden = false;
    play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
  }
  if (speed) {
    speed.closest("label").hidden = false;
    speed.addEventListener("change", function () {
      if (timer !== null) { window.clearInterval(timer); timer = null; start(); }
    });
  }

  // Keyboard help (the "?" button or key). Letter shortcuts (p, ?) can be turned off there
  // (WCAG 2.1.4); the choice is kept in this browser.
  var keysButton = document.getElementById("keys-button");
  var keysHelp = document.getElementById("keys-help");
  var letterKeys = document.getElementById("letter-keys");
  var lettersOn = true;
  try { lettersOn = window.localStorage.getItem("lcn-letter-keys") !== "off"; } catch (error) { lettersOn = true; }
  if (letterKeys) {
    letterKeys.checked = lettersOn;
    letterKeys.addEventListener("change", function () {
      lettersOn = letterKeys.checked;
      try { window.localStorage.setItem("lcn-letter-keys", lettersOn ? "on" : "off"); } catch (error) { /* not kept */ }
    });
  }
  function showHelp(open) {
    if (!keysHelp || !keysButton) { return; }
    keysHelp.hidden = !open;
    keysButton.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) { (letterKeys || keysHelp).focus(); } else { keysButton.focus(); }
  }
  if (keysButton && keysHelp) {
    keysButton.hidden = false;
    keysButton.addEventListener("click", function () { showHelp(keysHelp.hidden); });
    var close = document.getElementById("keys-close");
    if (close) { close.addEventListener("click", function () { showHelp(false); }); }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "Escape" && keysHelp && !keysHelp.hidden) { showHelp(false); return; }
    var target = event.target;
    var tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || (target && target.isContentEditable)) { return; }
    var turn = null;
    if ((event.key === "p" || event.key === "P") && play && lettersOn) {
      event.preventDefault();
      if (timer === null) { start(); } else { stop(); }
      return;
    }
    if (event.key === "?" && keysHelp && lettersOn) {
      event.preventDefault();
      showHelp(keysHelp.hidden);
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

  // The board's space is kept at the tallest position seen, so that what stands under it does
  // not move while stepping. In an embed, the board is scaled down instead to the height the
  // frame leaves above the controls, so that both show without scrolling.
  var embed = document.body.classList.contains("embed");
  var reserved = 0;
  function keepSpace() {
    if (!holder) { return; }
    if (embed) { fit(); return; }
    var height = holder.offsetHeight;
    if (height > reserved) { reserved = height; holder.style.minHeight = height + "px"; }
  }
  function fit() {
    // Scaled by what the page overflows the frame, a few times over (the bars below the board
    // and the text around it do not scale with it).
    holder.style.zoom = "";
    var zoom = 1;
    for (var round = 0; round < 4; round++) {
      var over = document.documentElement.scrollHeight - window.innerHeight;
      if (over <= 0) { return; }
      var height = holder.getBoundingClientRect().height;
      var wanted = height - over - 1;
      if (wanted < 40 || zoom <= 0.25) { return; }
      zoom = Math.max(0.25, Math.floor(zoom * wanted / height * 100) / 100);
      holder.style.zoom = String(zoom);
    }
  }
  if (embed) { window.addEventListener("resize", keepSpace); }
  keepSpace();

  (function scrollToCurrent() {
    var move = moves ? moves.querySelector(".mv.current") : null;
    var box = moves ? moves.parentElement : null;
    if (move && box && box.scrollHeight > box.clientHeight) {
      box.scrollTop = Math.max(0, offsetIn(move, box) - box.clientHeight / 2);
    }
  })();
  prefetch(current);
  window.lcnReplay = {
    go: go, last: last,
    turn: function () { return current; },
    ready: function () { return chunks[chunkOf(current)] === "loaded"; }
  };
})();
