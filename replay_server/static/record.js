// The recorder (/record): each turn is tapped on buttons that offer only the legal choices.
//
// The record lives in localStorage and is written there after every tap, so a reload, a
// lost connection or a closed tab loses nothing. The choices come from POST /api/v1/moves
// (the library's lcn.legal_moves), the table from POST /record/position (the replay page's
// own position fragment). Every choice button carries data-lcn: the text it adds to the
// record (a classic turn is two taps, the card "R5" or "xR5", then the draw "/d" or "/B",
// and optionally a third after "/d": the card drawn, "=R7", from the API's "draws"; a Rivals
// or Roll & Write turn is the words and pieces the API offers, one at a time).
(function () {
  "use strict";

  var root = document.getElementById("recorder");
  if (!root) {
    return;
  }
  var TEXT = JSON.parse(document.getElementById("record-text").textContent);
  var COLOURS = JSON.parse(document.getElementById("record-colours").textContent);
  var KEY = "lcn-record-v1";
  var NAMES_RE = /[\s"\]\[{};]/;

  function $(id) { return document.getElementById(id); }

  function say(key, params) {
    var text = TEXT[key] || key;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return params && params[name] !== undefined ? String(params[name]) : whole;
    });
  }

  // -- the record ------------------------------------------------------------------------

  var state = load();
  var position = null;   // the last answer of /api/v1/moves for the current game
  var running = false;   // a refresh is under way
  var again = false;     // another refresh was asked for meanwhile
  var retryTimer = null;
  var boardText = null;  // the text whose table is shown

  function load() {
    try {
      var data = JSON.parse(window.localStorage.getItem(KEY) || "null");
      return data && data.games && data.games.length ? data : null;
    } catch (error) {
      return null;
    }
  }

  function store() {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(state));
    } catch (error) {
      showProblem(String(error));
    }
  }

  function currentGame() {
    return state.games[state.games.length - 1];
  }

  function isClassic() {
    return state.variant === "classic";
  }

  // The text a move adds to a turn's text: lcn.moves.extend, said again (and a classic
  // draw "/d" after its card).
  function extend(text, move) {
    if (!text || move.charAt(0) === "," || move.charAt(0) === "=" || move.length === 1 ||
        text.slice(-1) === ">" || move.charAt(0) === "/") {
      return text + move;
    }
    return text + " " + move;
  }

  // The turns of a game from its taps: [{text, finished}].
  function turnsOf(game) {
    var turns = [];
    game.pieces.forEach(function (piece) {
      if (piece.start || !turns.length) {
        turns.push({text: piece.lcn});
      } else {
        turns[turns.length - 1].text = extend(turns[turns.length - 1].text, piece.lcn);
      }
    });
    return turns;
  }

  // Whether the last turn is still being written: a classic card without its draw, or a
  // turn the server said is open (its turn number is the last turn's).
  function lastOpen(game, turns) {
    if (!turns.length) {
      return false;
    }
    if (isClassic()) {
      return turns[turns.length - 1].text.indexOf("/") < 0;
    }
    return !!game.open;
  }

  function today() {
    var now = new Date();
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return now.getFullYear() + "." + two(now.getMonth() + 1) + "." + two(now.getDate());
  }

  function quoteTag(value) {
    return String(value).replace(/\\/g, "\\\\").replace(/"/g, "\\\"");
  }

  function commentText(text) {
    var clean = String(text).trim();
    if (!clean) {
      return "";
    }
    if (clean.indexOf("}") < 0) {
      return "{" + clean + "}";
    }
    return "; " + clean.replace(/\s+/g, " ") + "\n";
  }

  // One game as LCN. ``finishedOnly`` leaves out a turn being written.
  function gameText(index, finishedOnly) {
    var game = state.games[index];
    var tags = [["Date", game.date]];
    if (state.match) {
      tags.push(["Match", state.matchName], ["Game", String(index + 1)]);
    }
    if (state.variant !== "classic") {
      tags.push(["Variant", state.variant]);
    }
    game.players.forEach(function (name, seat) { tags.push(["Player" + (seat + 1), name]); });
    if (state.variant === "classic" && state.expeditions === 6) {
      tags.push(["Expeditions", "6"]);
    }
    if (state.variant === "rivals") {
      game.wagers.forEach(function (pair, seat) {
        tags.push(["Wagers" + (seat + 1), pair[0] + "w " + pair[1] + "w"]);
      });
    }
    (game.hands || []).forEach(function (hand, seat) {
      if (hand) {
        tags.push(["Hand" + (seat + 1), hand]);
      }
    });
    var lines = tags.map(function (tag) { return "[" + tag[0] + " \"" + quoteTag(tag[1]) + "\"]"; });
    var turns = turnsOf(game);
    if (finishedOnly && lastOpen(game, turns)) {
      turns = turns.slice(0, -1);
    }
    var words = [];
    turns.forEach(function (turn, i) {
      if (isClassic()) {
        if (i % 2 === 0) {
          words.push((i / 2 + 1) + ".");
        }
      } else {
        words.push((i + 1) + ".");
      }
      var note = game.notes[i] || {};
      words.push(turn.text + (note.glyph || ""));
      var comment = commentText(note.comment || "");
      if (comment) {
        words.push(comment);
      }
    });
    words.push(game.result && turns.length === turnsOf(game).length ? game.result : "*");
    var movetext = [];
    var line = "";
    words.forEach(function (word) {
      var numbered = /^\d+\.$/.test(word) && !isClassic();
      if (line && (numbered || line.length + word.length + 1 > 78 || line.slice(-1) === "\n")) {
        movetext.push(line.replace(/\n$/, ""));
        line = "";
      }
      line = line ? line + " " + word : word;
    });
    movetext.push(line.replace(/\n$/, ""));
    return lines.join("\n") + "\n\n" + movetext.join("\n") + "\n";
  }

  function fileText(finishedOnly) {
    return state.games.map(function (game, index) { return gameText(index, finishedOnly); })
      .join("\n");
  }

  // -- the server ------------------------------------------------------------------------

  function post(url, body) {
    return fetch(url, {
      method: "POST", headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify(body), credentials: "same-origin"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return {status: response.status, data: data};
      });
    });
  }

  function errorMessage(data) {
    var error = (data && data.error) || {};
    var first = (data && data.diagnostics && data.diagnostics[0]) || (error.diagnostics && error.diagnostics[0]);
    return (first && first.message) || error.message || "?";
  }

  function setOffline(offline) {
    $("net-status").hidden = !offline;
    if (offline) {
      $("net-message").textContent = say("offline");
    }
    root.classList.toggle("offline", offline);
  }

  function showProblem(text) {
    $("problem").textContent = text || "";
  }

  function refresh() {
    if (!state) {
      return;
    }
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    if (retryTimer) {
      window.clearTimeout(retryTimer);
      retryTimer = null;
    }
    var game = currentGame();
    var index = state.games.length;
    var turns = turnsOf(game);
    var classicOpen = isClassic() && lastOpen(game, turns);
    var asked = fileText(false);
    if (classicOpen) {  // the card waits for its draw: the position is before it
      var saved = game.pieces.pop();
      asked = fileText(false);
      game.pieces.push(saved);
    }
    $("choices").setAttribute("aria-busy", "true");
    root.setAttribute("data-busy", "");
    var body = {lcn: asked, game: index};
    if (isClassic()) {
      body.draws = true;  // the names the last turn's draw from the pile may be given
    }
    post(root.getAttribute("data-moves-url"), body).then(function (answer) {
      if (answer.status === 429) {
        showProblem(say("busy"));
        retryTimer = window.setTimeout(refresh, 4000);
        return null;
      }
      setOffline(false);
      if (again) {  // the record changed meanwhile (an undo): this answer is for the old one
        return null;
      }
      if (answer.status !== 200) {
        if (answer.status !== 400) {
          showProblem(say("server", {message: errorMessage(answer.data)}));
        } else if (!turns.length) {
          showProblem(say("setup_broken", {message: errorMessage(answer.data)}));
        } else {
          showProblem(say("broken", {message: errorMessage(answer.data)}));
        }
        position = null;
        render();
        return null;
      }
      showProblem("");
      position = answer.data;
      if (!position.over) {
        game.result = null;
      }
      if (!isClassic()) {
        game.open = !position.over && turns.length > 0 && position.turn === turns.length;
      }
      store();
      var shown = fileText(true);
      if (shown === boardText && !position.over) {  // the same table as last time (a die, a bid)
        return {status: 304};
      }
      return post(root.getAttribute("data-position-url"), {lcn: shown, game: index}).then(function (board) {
        if (board.status === 200) {
          boardText = shown;
        }
        return board;
      });
    }).then(function (board) {
      if (board === null || board === undefined || again) {
        return;
      }
      if (board.status === 200) {
        $("board").innerHTML = board.data.html;
        game.totals = board.data.totals;
        game.match = board.data.match || null;
        if (position && position.over && !game.result) {
          game.result = board.data.totals.join(":");
          store();
        }
      } else if (board.status !== 429 && board.status !== 304) {
        $("board").textContent = say("board_error", {message: errorMessage(board.data)});
      }
      render();
    }).catch(function () {
      position = null;  // the choices shown were for the position before: never offer them
      setOffline(true);
      render();
    }).then(function () {
      running = false;
      $("choices").removeAttribute("aria-busy");
      root.removeAttribute("data-busy");
      if (again) {
        refresh();
      }
    });
  }

  // -- the choices -----------------------------------------------------------------------

  function colourOf(text) {
    var match = /([YBWGRPO])(?:\d|w|$|[+>^-])/.exec(text.replace(/^.*:/, ""));
    return match ? match[1] : "";
  }

  function button(lcn, face, caption, colour) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "rec-choice" + (colour ? " c-" + colour + "-mark" : "");
    element.setAttribute("data-lcn", lcn);
    var big = document.createElement("span");
    big.className = "face";
    big.textContent = face;
    element.appendChild(big);
    if (caption) {
      var small = document.createElement("span");
      small.className = "caption";
      small.textContent = caption;
      element.appendChild(small);
    }
    return element;
  }

  function group(title, buttons) {
    var section = document.createElement("div");
    section.className = "choice-group";
    var heading = document.createElement("h3");
    heading.textContent = title;
    section.appendChild(heading);
    var list = document.createElement("div");
    list.className = "choice-list";
    buttons.forEach(function (b) { list.appendChild(b); });
    section.appendChild(list);
    return section;
  }

  // Cards in rows by colour, a row per colour.
  function colourRows(title, items) {
    var section = group(title, []);
    var list = section.querySelector(".choice-list");
    list.className = "choice-rows";
    var rows = {};
    var order = [];
    items.forEach(function (item) {
      var colour = item.colour || "?";
      if (!rows[colour]) {
        rows[colour] = document.createElement("div");
        rows[colour].className = "choice-row";
        rows[colour].setAttribute("role", "group");
        rows[colour].setAttribute("aria-label", COLOURS[colour] || colour);
        order.push(colour);
      }
      rows[colour].appendChild(item.button);
    });
    order.forEach(function (colour) { list.appendChild(rows[colour]); });
    return section;
  }

  function classicGroups(moves, turns, game) {
    var groups = [];
    if (lastOpen(game, turns)) {
      var card = turns[turns.length - 1].text;
      var sources = moves.filter(function (m) { return m.lcn.split("/")[0] === card; });
      groups.push(group(say("source", {card: card}), sources.map(function (m) {
        var source = m.lcn.split("/")[1];
        var face = source === "d" ? say("draw_pile") : say("discard_pile", {colour: COLOURS[source] || source});
        return button("/" + source, "/" + source + " · " + face, m.label, source === "d" ? "" : source);
      })));
      return groups;
    }
    var seen = {};
    var placed = [];
    var discarded = [];
    moves.forEach(function (m) {
      var piece = m.lcn.split("/")[0];
      if (seen[piece]) {
        return;
      }
      seen[piece] = true;
      var discard = piece.charAt(0) === "x";
      var cardText = discard ? piece.slice(1) : piece;
      var item = {colour: cardText.charAt(0), button: button(piece, piece, "", cardText.charAt(0))};
      (discard ? discarded : placed).push(item);
    });
    if (placed.length) {
      groups.push(colourRows(say("place"), placed));
    }
    if (discarded.length) {
      groups.push(colourRows(say("discard"), discarded));
    }
    return groups;
  }

  // After a classic turn that drew from the draw pile unnamed ("R5/d"): the cards it may
  // have drawn, for whoever saw it (optional: the next turn may be tapped at once).
  function drawGroup(draws, turns) {
    var section = colourRows(say("drawn", {move: turns[turns.length - 1].text}), draws.map(function (m) {
      var card = m.lcn.slice(1);
      var element = button(m.lcn, card, "", card.charAt(0));
      element.setAttribute("aria-label", m.label);
      return {colour: card.charAt(0), button: element};
    }));
    section.classList.add("drawn-group");
    return section;
  }

  function numberedGroups(moves) {
    var kinds = {};
    var order = [];
    function add(kind, title, item, rows) {
      if (!kinds[kind]) {
        kinds[kind] = {title: title, items: [], rows: rows};
        order.push(kind);
      }
      kinds[kind].items.push(item);
    }
    moves.forEach(function (m) {
      var text = m.lcn;
      var colour = colourOf(text);
      var item = {colour: colour, button: button(text, text, m.label, colour)};
      if (state.variant === "rivals") {
        if (text.indexOf("up:") === 0) {
          add("up", say("uncover"), item, true);
        } else if (text.indexOf("place:") === 0 || text.charAt(0) === ",") {
          add("place", say("place_cards"), item, false);
        } else if (text.indexOf("box:") === 0) {
          add("box", say("box"), item, false);
        } else if (/-$/.test(text)) {
          add("pass", say("pass"), item, false);
        } else if (/\d$/.test(text)) {
          add("bid", say("bid"), item, false);
        } else {
          add("other", say("other"), item, false);
        }
        return;
      }
      if (text.length === 1) {
        add(/\d/.test(text) ? "number" : "colour",
            /\d/.test(text) ? say("number_die") : say("colour_die"), item, false);
      } else if (/:-$/.test(text)) {
        add("refuse", say("refuse"), item, false);
      } else if (text.indexOf(":") > 0) {
        add("choose", say("choose", {player: text.split(":")[0]}), item, true);
      } else {
        add("accelerate", say("accelerate"), item, false);
      }
    });
    return order.map(function (kind) {
      var entry = kinds[kind];
      return entry.rows ? colourRows(entry.title, entry.items)
        : group(entry.title, entry.items.map(function (item) { return item.button; }));
    });
  }

  // -- the page --------------------------------------------------------------------------

  function render() {
    if (!state) {
      $("setup").hidden = false;
      $("recording").hidden = true;
      return;
    }
    $("setup").hidden = true;
    $("recording").hidden = false;
    var game = currentGame();
    var turns = turnsOf(game);
    var title = game.players.join(" – ");
    if (state.match) {
      title += " · " + say("game_of", {game: state.games.length});
    }
    $("game-title").textContent = title;
    var match = game.match;
    $("match-line").hidden = !match;
    if (match) {
      $("match-line").textContent = say("match_totals", {totals: Object.keys(match.totals).map(function (name) {
        return name + " " + match.totals[name];
      }).join(", ")});
    }
    var groups = $("choice-groups");
    groups.textContent = "";
    var over = !!(position && position.over);
    var heading = "";
    if (position && !over) {
      heading = say("turn_of", {turn: position.turn, player: position.player});
      var made = isClassic() ? classicGroups(position.moves, turns, game) : numberedGroups(position.moves);
      made.forEach(function (g) { groups.appendChild(g); });
    } else if (over) {
      heading = say("over", {totals: game.players.map(function (name, seat) {
        return name + " " + ((game.totals || [])[seat]);
      }).join(", ")});
    } else {
      heading = running ? say("loading") : say("no_choices");
    }
    if (position && isClassic() && position.draws && position.draws.length && turns.length &&
        !lastOpen(game, turns)) {
      groups.appendChild(drawGroup(position.draws, turns));
    }
    $("choices-title").textContent = heading;
    root.toggleAttribute("data-over", over && !!game.result);
    if (position) {
      $("choices").setAttribute("data-turn", String(position.turn));
    }
    $("undo").disabled = !turns.length && state.games.length === 1;
    $("next-game").hidden = !(over && state.match && state.games.length < 3 && game.result);
    $("lcn-text").textContent = fileText(false);
    renderNotes(turns, game);
  }

  function renderNotes(turns, game) {
    var select = $("note-turn");
    var chosen = select.value;
    select.textContent = "";
    var first = document.createElement("option");
    turns.forEach(function (turn, i) {
      var option = document.createElement("option");
      option.value = String(i);
      option.textContent = say("turn", {turn: i + 1}) + ": " + turn.text;
      select.appendChild(option);
    });
    if (!turns.length) {
      first.value = "";
      first.textContent = say("nothing");
      select.appendChild(first);
    }
    var last = String(turns.length - 1);
    select.value = chosen !== "" && Number(chosen) < turns.length ? chosen : last;
    var note = game.notes[select.value] || {};
    $("note-glyph").value = note.glyph || "";
    $("note-comment").value = note.comment || "";
    var disabled = !turns.length;
    $("note-glyph").disabled = disabled;
    $("note-comment").disabled = disabled;
    select.disabled = disabled;
  }

  function announce(text) {
    $("last-move").textContent = text;
  }

  function tap(lcn) {
    if (!state || running) {
      return;
    }
    var game = currentGame();
    var turns = turnsOf(game);
    var start;
    if (isClassic()) {
      start = lcn.charAt(0) !== "/" && lcn.charAt(0) !== "=";
    } else {
      start = !position || position.turn > turns.length;
    }
    game.pieces.push({lcn: lcn, start: start});
    store();
    var now = turnsOf(game);
    announce(say("last", {move: now[now.length - 1].text}));
    $("save-status").textContent = "";
    if (isClassic() && start) {  // the card's draw sources are in the answer already
      render();
    } else {
      refresh();
    }
    $("choices-title").focus();
  }

  function undo() {
    if (!state) {
      return;
    }
    var game = currentGame();
    if (!game.pieces.length) {
      if (state.games.length > 1) {
        state.games.pop();
        game = currentGame();
        game.result = null;
      } else {
        return;
      }
    }
    var removed = game.pieces.pop();
    if (removed) {
      game.result = null;
      var count = turnsOf(game).length;
      Object.keys(game.notes).forEach(function (key) {
        if (Number(key) >= count) {
          delete game.notes[key];
        }
      });
      announce(say("undone", {move: removed.lcn}));
    }
    store();
    refresh();
    $("choices-title").focus();
  }

  function leader(game) {
    var totals = game.match ? game.match.totals : null;
    var names = game.players.slice();
    if (!totals) {
      return names;
    }
    var first = names[0];
    var second = names[1];
    var a = totals[first] || 0;
    var b = totals[second] || 0;
    if (a > b) {
      return [first, second];
    }
    if (b > a) {
      return [second, first];
    }
    return [second, first];  // level: the other player begins this time
  }

  function nextGame() {
    var game = currentGame();
    if (!state.match || state.games.length >= 3 || !game.result) {
      return;
    }
    state.games.push({players: leader(game), hands: [], wagers: [], pieces: [], notes: {},
                      date: today(), result: null, match: game.match});
    store();
    position = null;
    $("permalink-line").hidden = true;
    refresh();
    $("choices-title").focus();
  }

  // -- setup -----------------------------------------------------------------------------

  function chosenVariant() {
    var checked = document.querySelector("input[name=variant]:checked");
    return checked ? checked.value : "classic5";
  }

  function syncSetup() {
    var variant = chosenVariant();
    var classic = variant.indexOf("classic") === 0;
    var select = $("player-count");
    // The numbers of players each game allows, as the server's games say (data-players).
    var limits = JSON.parse($("setup-form").dataset.players)[classic ? "classic" : variant];
    Array.prototype.forEach.call(select.options, function (option) {
      option.disabled = Number(option.value) < limits[0] || Number(option.value) > limits[1];
    });
    if (Number(select.value) > limits[1]) {
      select.value = String(limits[1]);
    }
    $("count-field").hidden = classic;
    var count = classic ? 2 : Number(select.value);
    Array.prototype.forEach.call(document.querySelectorAll(".player-field"), function (field) {
      field.hidden = Number(field.getAttribute("data-seat")) > count;
    });
    Array.prototype.forEach.call(document.querySelectorAll(".wager-fields"), function (field) {
      field.hidden = variant !== "rivals";
    });
    Array.prototype.forEach.call(document.querySelectorAll(".classic-only"), function (field) {
      field.hidden = !classic;
    });
  }

  function start(event) {
    event.preventDefault();
    var variant = chosenVariant();
    var classic = variant.indexOf("classic") === 0;
    var count = classic ? 2 : Number($("player-count").value);
    var players = [];
    var wagers = [];
    for (var seat = 1; seat <= count; seat += 1) {
      players.push($("player-" + seat).value.trim());
      wagers.push([$("wager-" + seat + "-a").value, $("wager-" + seat + "-b").value]);
    }
    var distinct = players.filter(function (name, i) { return players.indexOf(name) === i; });
    if (players.some(function (name) { return !name || NAMES_RE.test(name); }) ||
        distinct.length !== players.length) {
      showProblem(say("names"));
      $("player-1").focus();
      return;
    }
    if (variant === "rivals" && wagers.some(function (pair) { return pair[0] === pair[1]; })) {
      showProblem(say("wagers"));
      $("wager-1-a").focus();
      return;
    }
    showProblem("");
    var date = today();
    state = {
      variant: classic ? "classic" : variant, expeditions: variant === "classic6" ? 6 : 5,
      match: classic && $("match").checked, matchName: players.join(" vs ") + ", " + date,
      games: [{players: players, wagers: variant === "rivals" ? wagers : [],
               hands: classic ? [$("hand-1").value.trim().replace(/\s+/g, " "),
                                 $("hand-2").value.trim().replace(/\s+/g, " ")] : [],
               pieces: [], notes: {}, date: date, result: null}]
    };
    store();
    position = null;
    announce("");
    render();
    refresh();
    $("choices-title").focus();
  }

  function newRecord() {
    if (state && !window.confirm(say("confirm_new"))) {
      return;
    }
    window.localStorage.removeItem(KEY);
    state = null;
    position = null;
    $("board").textContent = "";
    boardText = null;
    $("permalink-line").hidden = true;
    $("save-status").textContent = "";
    showProblem("");
    announce("");
    render();
    syncSetup();
    $("setup-title").focus();
  }

  // -- save and download -----------------------------------------------------------------

  function save() {
    if (!state) {
      return;
    }
    var game = currentGame();
    var status = $("save-status");
    status.textContent = say("saving");
    var note = lastOpen(game, turnsOf(game)) ? " " + say("unfinished_turn") : "";
    var turns = turnsOf(game).length - (lastOpen(game, turnsOf(game)) ? 1 : 0);
    post(root.getAttribute("data-save-url"), {lcn: fileText(true)}).then(function (answer) {
      if (answer.status === 200 || answer.status === 201) {
        var link = new URL(answer.data.url, window.location.href).toString();
        state.saved = link;
        state.savedAt = atLastTurn(link, state.games.length - 1, turns);
        store();
        status.textContent = say("saved") + note;
        showSaved();
      } else {
        status.textContent = say("save_failed", {message: errorMessage(answer.data)});
      }
    }).catch(function () {
      status.textContent = say("save_offline");
    });
  }

  // The replay of a saved game at the position just recorded: the permalink opens a game at
  // its start, while whoever saves at the table wants to see where the game stands (in a
  // match, the game being played). A turn being written is not in the file, so not counted.
  function atLastTurn(link, index, turns) {
    var url = new URL(link, window.location.href);
    if (state.games.length > 1) {
      url.searchParams.set("game", String(index + 1));
    }
    url.searchParams.set("turn", String(turns));
    return url.toString();
  }

  function showSaved() {
    $("permalink").href = state.saved;
    $("permalink").textContent = state.saved;
    $("open-replay").href = state.savedAt || state.saved;
    $("permalink-line").hidden = false;
  }

  function download() {
    if (!state) {
      return;
    }
    var blob = new Blob([fileText(true)], {type: "text/plain;charset=utf-8"});
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    var names = currentGame().players.join("-").replace(/[^A-Za-z0-9_-]+/g, "_");
    link.download = (names || "game") + ".lcn";
    document.body.appendChild(link);
    link.click();
    window.setTimeout(function () {
      URL.revokeObjectURL(link.href);
      link.remove();
    }, 1000);
  }

  // -- notes -----------------------------------------------------------------------------

  function noteChanged() {
    if (!state) {
      return;
    }
    var index = $("note-turn").value;
    if (index === "") {
      return;
    }
    var game = currentGame();
    var glyph = $("note-glyph").value;
    var comment = $("note-comment").value;
    if (glyph || comment.trim()) {
      game.notes[index] = {glyph: glyph, comment: comment};
    } else {
      delete game.notes[index];
    }
    store();
    $("lcn-text").textContent = fileText(false);
  }

  function noteTurnChanged() {
    var note = currentGame().notes[$("note-turn").value] || {};
    $("note-glyph").value = note.glyph || "";
    $("note-comment").value = note.comment || "";
  }

  // -- wiring ----------------------------------------------------------------------------

  $("choice-groups").addEventListener("click", function (event) {
    var target = event.target.closest("[data-lcn]");
    if (target && !target.disabled) {
      tap(target.getAttribute("data-lcn"));
    }
  });
  $("undo").addEventListener("click", undo);
  $("next-game").addEventListener("click", nextGame);
  $("save").addEventListener("click", save);
  $("download").addEventListener("click", download);
  $("new-record").addEventListener("click", newRecord);
  $("retry").addEventListener("click", refresh);
  $("note-turn").addEventListener("change", noteTurnChanged);
  $("note-glyph").addEventListener("change", noteChanged);
  $("note-comment").addEventListener("input", noteChanged);
  $("setup-form").addEventListener("submit", start);
  Array.prototype.forEach.call(document.querySelectorAll("input[name=variant]"), function (input) {
    input.addEventListener("change", syncSetup);
  });
  $("player-count").addEventListener("change", syncSetup);
  window.addEventListener("online", refresh);
  window.addEventListener("offline", function () { setOffline(true); });

  syncSetup();
  render();
  if (state) {
    if (state.saved) {
      showSaved();
    }
    refresh();
  }

  // Kept for use without a connection: the service worker answers from its cache when the
  // network does not, and the page puts itself and its assets in that cache.
  if ("serviceWorker" in navigator && window.caches) {
    navigator.serviceWorker.register(root.getAttribute("data-sw-url"), {scope: root.getAttribute("data-scope")})
      .then(function () {
        var urls = [window.location.pathname];
        Array.prototype.forEach.call(document.querySelectorAll("link[rel=stylesheet], script[src], link[rel=icon]"),
          function (element) { urls.push(element.getAttribute("href") || element.getAttribute("src")); });
        return window.caches.open("lcn-record").then(function (cache) { return cache.addAll(urls); });
      })
      .then(function () { root.setAttribute("data-offline-ready", ""); })
      .catch(function () { return null; });
  }
}());
