// Render the log panel of brdgme's game page with the web front end's own component.
//
// Usage: node brdgme_web_logs.js WEB_BUILD < page.json > panel.html
//
// WEB_BUILD is brdgme/web's `src` compiled by its TypeScript (tsc -p . --outDir build), with
// its locked dependencies (react 16.1.1, immutable 4.0.0-rc.9, moment 2.19.2, ...) in
// node_modules beside it. page.json holds what the API's `GET /game/<id>` answer gives the
// page for the log: `game_logs` (each `{game_log: {..., logged_at}, html}`), the players
// (name, colour), the viewer's position (or null for a spectator) and `view_at`, the time
// the page is looked at (the separators' wording depends on it: "h:mm A" today, "ddd, h:mm
// A" this week, "MMM D, h:mm A" this year, "YYYY-M-D, h:mm A" before). The clock the
// component reads (moment(), through Date.now) is set to `view_at`; the time zone is the
// process's (TZ).
//
// The side panel is `Component.prototype.renderMeta` of src/components/game/show.tsx, the
// players, actions and the "Logs" panel whose entries come from its `renderLogs`: a
// `- TIME -` line before an entry logged more than ten minutes after the one before, and
// each entry's HTML as the API rendered it. It is written as React renders it
// (renderToStaticMarkup: the HTML the browser's DOM holds, without React's attributes).
"use strict";
const path = require("path");
const { createRequire } = require("module");

const build = path.resolve(process.argv[2]);
const need = createRequire(path.join(build, "index.js"));
const page = JSON.parse(require("fs").readFileSync(0, "utf8"));

const viewAt = Date.parse(page.view_at + "Z");
Date.now = () => viewAt;

const React = need("react");
const ReactDOMServer = need("react-dom/server");
const Records = need("./records");
const Show = need("./components/game/show");

const now = new Date(viewAt).toISOString().replace("Z", "");
const players = page.players.map((p, i) => ({
  game_player: { id: `gp${i}`, position: i, color: p.color, is_turn: false, last_turn_at: now },
  user: { id: `u${i}`, name: p.name },
  game_type_user: { id: `gtu${i}`, rating: 1200 },
}));
const game = Records.GameExtended.fromJS({
  game: { id: "game", is_finished: Boolean(page.finished) },
  game_type: { name: "Lost Cities" },
  game_version: {},
  game_player: page.viewer === null ? undefined : players[page.viewer].game_player,
  game_players: players,
  game_logs: page.game_logs,
});
const component = new Show.Component({ gameId: "game", game, subMenuOpen: false });
process.stdout.write(ReactDOMServer.renderToStaticMarkup(component.renderMeta()) + "\n");
