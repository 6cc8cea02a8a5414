// The share panel: copy buttons, and links that follow the replay's current turn (the panel's
// and an embed's link to the full replay).
//
// The replay page announces its turn with a "lcn:turn" event on document (detail.turn: the
// number of turns played, 0 before the first); pages that only change ?turn= in the address
// bar through history.replaceState/pushState are followed too.
(function () {
  "use strict";

  var panel = document.getElementById("share");

  function escapeAttribute(text) {
    return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  }

  function withTurn(url, turn) {
    var parsed = new URL(url, window.location.href);
    if (turn === null || turn === undefined) {
      parsed.searchParams.delete("turn");
    } else {
      parsed.searchParams.set("turn", String(turn));
    }
    // The hands view chosen on the page (?view=) travels with the links too.
    var view = new URL(window.location.href).searchParams.get("view");
    if (view) {
      parsed.searchParams.set("view", view);
    } else if (parsed.searchParams.has("view")) {
      parsed.searchParams.delete("view");
    }
    return parsed.toString();
  }

  function embedCode(url) {
    return '<iframe src="' + escapeAttribute(url) + '" width="720" height="480" ' +
      'title="' + escapeAttribute(panel.getAttribute("data-embed-title") || "Lost Cities replay") +
      '" loading="lazy"></iframe>';
  }

  function update(turn) {
    // Links elsewhere on the page (the embed's "open" link) that follow the turn too.
    Array.prototype.forEach.call(document.querySelectorAll("a[data-follow-turn]"), function (link) {
      link.href = withTurn(link.href, turn);
    });
    if (!panel) {
      return;
    }
    var base = panel.getAttribute("data-permalink") || panel.getAttribute("data-self-contained");
    var turnLink = document.getElementById("share-turn");
    if (turnLink && base) {
      turnLink.value = withTurn(base, turn);
    }
    var selfContained = document.getElementById("share-self-contained");
    if (selfContained) {
      selfContained.value = withTurn(panel.getAttribute("data-self-contained"), turn);
    }
    var embed = document.getElementById("share-embed");
    if (embed) {
      embed.value = embedCode(withTurn(panel.getAttribute("data-embed"), turn));
    }
  }

  function copy(button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) {
      return;
    }
    var done = function () {
      // The words come from the page, in its language.
      var label = button.getAttribute("data-label") || button.textContent;
      button.setAttribute("data-label", label);
      button.textContent = button.getAttribute("data-copied") || "Copied";
      window.setTimeout(function () { button.textContent = label; }, 1500);
    };
    var fallback = function () {
      field.focus();
      field.select();
      try {
        if (document.execCommand("copy")) {
          done();
        }
      } catch (error) {
        // Copying is refused: the text stays selected for the reader to copy by hand.
      }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, fallback);
    } else {
      fallback();
    }
  }

  Array.prototype.forEach.call(document.querySelectorAll("#share button[data-copy]"), function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { copy(button); });
  });
  Array.prototype.forEach.call(document.querySelectorAll("#share .share-link"), function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });

  // The "saved" notice is for the moment of saving: the address bar, and links copied from
  // it, should not carry it on.
  var address = new URL(window.location.href);
  if (address.searchParams.has("saved") && window.history.replaceState) {
    address.searchParams.delete("saved");
    window.history.replaceState(window.history.state, "", address.toString());
  }

  // The server writes relative links unless it knows its own address (LCN_BASE_URL): they
  // are made absolute here, from the address this page was really reached at.
  function absolute(url) {
    return url ? new URL(url, window.location.href).toString() : url;
  }
  Array.prototype.forEach.call(document.querySelectorAll("a[data-follow-turn]"), function (link) {
    link.setAttribute("href", link.href);
  });
  if (panel) {
    ["data-permalink", "data-self-contained", "data-embed"].forEach(function (name) {
      if (panel.getAttribute(name)) { panel.setAttribute(name, absolute(panel.getAttribute(name))); }
    });
    Array.prototype.forEach.call(panel.querySelectorAll("input.share-link"), function (field) {
      field.value = absolute(field.value);
    });
    var embedField = document.getElementById("share-embed");
    if (embedField && panel.getAttribute("data-embed")) {
      var shownTurn = new URL(window.location.href).searchParams.get("turn");
      embedField.value = embedCode(withTurn(panel.getAttribute("data-embed"),
        shownTurn !== null && /^\d+$/.test(shownTurn) ? parseInt(shownTurn, 10) : null));
    }
  }

  document.addEventListener("lcn:turn", function (event) {
    if (event.detail && typeof event.detail.turn === "number") {
      update(event.detail.turn);
    }
  });
  window.addEventListener("lcn:location", function () {
    var turn = new URL(window.location.href).searchParams.get("turn");
    if (turn !== null && /^\d+$/.test(turn)) {
      update(parseInt(turn, 10));
    }
  });
}());
