"""The replay page of a game: its board at one turn, the move list, the score graph, the source.

Every turn of a replay is a plain link rendered by the server, so the site works without
JavaScript; the page carries the board of its own turn, and the small script fetches the
others in server-rendered chunks of ``POSITIONS_CHUNK`` positions, then only shows and hides
them (no second renderer in the browser).

What one request costs is bounded by the page it shows, not by the game: one position (or
one chunk), a window of ``MOVES_PAGE`` turns of the move list (and of the annotation form), a
graph of at most ``GRAPH_POINTS`` points, and the source shown only up to
``SOURCE_SHOWN_BYTES``. Games longer than ``MAX_REPLAY_TURNS`` are not replayed at all (a 422
page), and renders of long files count against the read rate limit. Every route that shows a
replay (stored games, samples, self-contained links, embeds) renders it through
:func:`render_replay`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from flask import current_app, has_request_context, render_template, request
from markupsafe import Markup
from werkzeug.exceptions import BadRequest, NotFound

from ..caches import ByteCache
from ..i18n import _, current_language
from ..security import count_heavy_read
from .games import (
    DATA_CACHE,
    DATA_CACHE_BYTES,
    HEAVY_TEXT_BYTES,
    cached_data,
    digest,
    download_name,
    outline_of,
    overview_of,
    positions_of,
    refuse_long_game,
    told_of,
)

VIEWS = ("all", "1", "2", "3", "4", "5", "none")
#: Largest source shown whole next to its diagnostics; longer ones show the lines around them.
SOURCE_LINES_SHOWN = 400
#: Positions in one fragment fetched by replay.js: every position of a game of usual length
#: (the samples have at most 80 turns), a bounded part of a long one.
POSITIONS_CHUNK = 100
#: Turns in one page of the move list at most; even, so that the rows of an alternating
#: game (two turns a row) never straddle two pages. Every turn is a link that keeps the
#: page's other arguments (a self-contained link's token, up to 8,000 characters), so a page
#: holds fewer turns when its links are long: about MOVES_PAGE_BYTES of links in all.
MOVES_PAGE = 500
MOVES_PAGE_BYTES = 192 * 1024
#: Points of the score graph, and its click targets (each a link, counted as the moves' are
#: in GRAPH_BYTES): beyond these, each stands for several turns.
GRAPH_POINTS = 400
GRAPH_BYTES = 48 * 1024
#: Games listed on each side of the current one in a replay's list of a file's games.
GAMES_AROUND = 25
#: Whatever their links' length, a page of moves and the graph show this many turns each,
#: one by one: a game of usual length is never cut into pages.
LEAST_PER_PAGE = 120
#: Longest source shown highlighted on a replay page (Pygments' HTML is some twenty times
#: its text); longer ones are downloaded.
SOURCE_SHOWN_BYTES = 16 * 1024
#: Highlighted sources (Pygments' HTML is many times the size of its text).
SOURCE_CACHE: ByteCache[Markup] = ByteCache(DATA_CACHE_BYTES // 4, lambda html: len(html) * 2)
#: What stands for "this is the current turn" in a move list made once for every turn.
_MARK = "\x00{}\x00"
_MARKS = re.compile("\x00([0-9]+)\x00")


@dataclass(frozen=True, slots=True)
class TurnMarked:
    """A fragment made once for every turn of a game: its text cut where a turn's link says
    whether it is the current one (``pieces`` and ``turns`` alternate)."""

    pieces: tuple[str, ...]
    turns: tuple[int, ...]

    def at(self, turn: int) -> Markup:
        """The fragment as the page of ``turn`` shows it."""
        out = [self.pieces[0]]
        for index, piece in zip(self.turns, self.pieces[1:], strict=True):
            out.append(" current" if index == turn else "")
            out.append(piece)
        return Markup("".join(out))


def render_cached() -> bool:
    """Whether a replay page reuses the parts it shares with the game's other turns
    (``RENDER_CACHE``, on unless turned off: the tests compare both ways)."""
    return bool(current_app.config.get("RENDER_CACHE", True))


def moves_list(context: dict[str, Any], text: str, game: int, links: str) -> TurnMarked | None:
    """The move list's page (``_moves.html``) made once for every turn it holds.

    Only the class of the current turn's link changes from one turn to the next, yet the list
    (a link, the turn told in words and its comments for every turn) was the largest part of
    rendering a replay page. It is rendered once per text, game, window, links and language
    with a mark where each link says whether it is the current one, and kept with the game's
    other computed data. None when the cache is off or the record holds the mark's byte (a NUL),
    which could then be taken for a mark.
    """
    if not render_cached() or "\x00" in text:  # the mark's byte in the record: made as before
        return None
    key = ("moves", digest(text), game, context["moves_first"], context["moves_last"], links,
           current_language())

    def make() -> TurnMarked | None:
        html = render_template("_moves.html", **dict(
            context, current=lambda index: Markup(_MARK.format(index))))
        parts = _MARKS.split(html)
        pieces, turns = tuple(parts[0::2]), tuple(int(n) for n in parts[1::2])
        return TurnMarked(pieces, turns)

    made: TurnMarked | None = DATA_CACHE.get_or_make(key, make)
    return made


def view_arg(view: str | None) -> str:
    if view is None and has_request_context():
        view = request.args.get("view")
    return view if view in VIEWS else "all"


#: Routes whose pages read only their own arguments (``game``, ``turn``, ``view``, ``part``,
#: ``saved``): any other is ignored, kept neither in the page's links nor in its cache key.
OWN_ARGUMENTS = ("pages.stored", "pages.sample")


def linker(game: int, view: str, multi: bool) -> Callable[..., str]:
    """Builds ``?...`` links that keep the request's other arguments (``/v?g=...``)."""
    kept: list[tuple[str, str]] = []
    if has_request_context():
        kept = [(k, v) for k, v in request.args.items(multi=True)
                if k not in ("turn", "game", "view", "part")
                and request.endpoint not in OWN_ARGUMENTS]

    # The common link, to a turn of this game in this view, is the same text around the turn:
    # made once, as a page holds a link per turn of its move list.
    before = urlencode([*kept, *((("game", str(game)),) if multi or game != 1 else ())])
    after = "" if view == "all" else "&" + urlencode([("view", view)])
    head = f"?{before}&turn=" if before else "?turn="

    def link(turn: int | None = None, *, to_game: int | None = None, to_view: str | None = None,
             part: str | None = None) -> str:
        if type(turn) is int and to_game is None and to_view is None and part is None:
            return f"{head}{turn}{after}"
        args = list(kept)
        chosen = game if to_game is None else to_game
        if multi or chosen != 1:
            args.append(("game", str(chosen)))
        if turn is not None:
            args.append(("turn", str(turn)))
        shown = view if to_view is None else to_view
        if shown != "all":
            args.append(("view", shown))
        if part is not None:
            args.append(("part", part))
        return "?" + urlencode(args) if args else "?"

    return link


def move_rows(turns: Sequence[Any]) -> list[dict[str, Any]]:
    """Turns grouped into the move list's rows: a row starts at every numbered turn.

    Alternating games (classic) get ``1. R5/d R4/d`` rows; games that number every turn
    (Rivals) one turn a row. Nothing here knows which variant it shows.
    """
    rows: list[dict[str, Any]] = []
    for turn in turns:
        if turn.numbered or not rows:
            rows.append({"number": turn.number, "turns": []})
        rows[-1]["turns"].append(turn)
    return rows


def score_graph(running: list[list[int]], players: list[str], turn: int,
                link_length: int = 0) -> dict[str, Any] | None:
    """Coordinates of the score graph (an SVG drawn by the server, clickable per turn).

    At most ``GRAPH_POINTS`` points and as many click targets: beyond that, each stands for
    a run of turns (the last turn of the run is drawn, its first is the link), so a long game
    draws a graph of the same size as a short one.
    """
    shape = graph_shape(running, players, link_length)
    if shape is None:
        return None
    span_x, count = shape["span_x"], shape["count"]
    return dict(shape, marker=round(shape["left"] + min(turn, count) * span_x, 1))


def graph_shape(running: list[list[int]], players: list[str], link_length: int = 0
                ) -> dict[str, Any] | None:
    """The score graph without its marker (:func:`score_graph`): the same for every turn of a
    game, so a replay page computes it once per game and length of links."""
    if len(running) < 2 or not players:
        return None
    width, height, left, right, top, bottom = 640, 180, 36, 10, 10, 22
    count = len(running) - 1
    stride = max(1, -(-(count + 1) // GRAPH_POINTS))
    shown = sorted(set(range(0, count + 1, stride)) | {count})
    values = [v for i in shown for v in running[i]]
    low, high = min(0, *values), max(1, *values)
    span_x = (width - left - right) / count
    span_y = (height - top - bottom) / (high - low)

    def x(i: int) -> float:
        return round(left + i * span_x, 1)

    def y(v: float) -> float:
        return round(top + (high - v) * span_y, 1)

    lines = []
    for seat in range(len(players)):
        points = " ".join(f"{x(i)},{y(running[i][seat] if seat < len(running[i]) else 0)}" for i in shown)
        lines.append({"seat": seat, "name": players[seat], "points": points,
                      "final": running[-1][seat] if seat < len(running[-1]) else 0})
    ticks = sorted({low, 0, high})
    targets = max(LEAST_PER_PAGE, min(GRAPH_POINTS, GRAPH_BYTES // (link_length + 160)))
    every = max(1, -(-(count + 1) // targets))
    return {
        "width": width, "height": height, "left": left, "step": round(span_x, 6),
        "lines": lines, "zero": y(0), "ticks": [{"value": v, "y": y(v)} for v in ticks],
        "hits": [{"turn": i, "x": round(x(i) - span_x / 2, 1), "w": round(span_x * every, 1),
                  "last": min(i + every - 1, count)}
                 for i in range(0, count + 1, every)],
        "bottom": height - bottom, "top": top, "right": width - right,
        "span_x": span_x, "count": count,
    }


def moves_page_size(link_length: int) -> int:
    """Turns in one page of the move list whose links are ``link_length`` characters long."""
    size = min(MOVES_PAGE, MOVES_PAGE_BYTES // (link_length + 160))
    return max(LEAST_PER_PAGE, size - size % 2)


def moves_window(turn: int, applied: int, total: int, size: int = MOVES_PAGE) -> tuple[int, int]:
    """The turns (first, last; 1-based) of the move list's page that shows ``turn``."""
    page = max(min(turn, max(applied, 1)) - 1, 0) // size
    first = page * size + 1
    return first, min(first + size - 1, total)


def annotate_source(text: str, diagnostics: Sequence[dict[str, Any]],
                    first_line: int = 1) -> dict[str, Any]:
    """The source as numbered lines with the bad spans marked and each line's diagnostics.

    Long sources show only the lines around the problems, with gaps marked, so that a
    2 MiB paste with one error stays readable.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    by_line: dict[int, list[dict[str, Any]]] = {}
    general = []
    for d in diagnostics:
        line = d.get("line")
        if isinstance(line, int) and first_line <= line < first_line + len(lines):
            by_line.setdefault(line, []).append(d)
        else:
            general.append(d)
    wanted: set[int] | None = None
    if len(lines) > SOURCE_LINES_SHOWN:
        wanted = set()
        for line in by_line:
            wanted.update(range(line - 2, line + 3))
        if not wanted:
            wanted.update(range(first_line, first_line + 20))
    rows: list[dict[str, Any]] = []
    previous = None
    for offset, content in enumerate(lines):
        number = first_line + offset
        if wanted is not None and number not in wanted:
            continue
        if previous is not None and number != previous + 1:
            rows.append({"gap": True})
        previous = number
        rows.append({"gap": False, "number": number, "html": _marked(content, by_line.get(number, [])),
                     "diagnostics": by_line.get(number, [])})
    return {"rows": rows, "general": general}


def _marked(content: str, diagnostics: list[dict[str, Any]]) -> Markup:
    spans = []
    for d in diagnostics:
        column = d.get("column")
        if isinstance(column, int) and column >= 1:
            start = min(column - 1, len(content))
            end = min(max(start + max(int(d.get("length") or 1), 1), start + 1), max(len(content), start + 1))
            spans.append((start, end, d.get("severity", "error")))
    if not spans:
        return Markup.escape(content)
    spans.sort()
    out: list[str] = []
    at = 0
    for start, end, severity in spans:
        if start < at:
            start = at
        if end <= start:
            continue
        out.append(str(Markup.escape(content[at:start])))
        piece = content[start:end] or " "
        out.append(f'<mark class="{severity}">{Markup.escape(piece)}</mark>')
        at = end
    out.append(str(Markup.escape(content[at:])))
    return Markup("".join(out))


def _source_of_game(text: str, games: Sequence[dict[str, Any]], index: int) -> tuple[str, int]:
    """The lines of one game of a file, and the number of its first line."""
    lines = text.split("\n")
    start = games[index - 1]["line"]
    end = games[index]["line"] - 1 if index < len(games) else len(lines)
    chunk = lines[start - 1:end]
    while chunk and not chunk[-1].strip():
        chunk.pop()
    return "\n".join(chunk) + "\n", start


def highlight_lcn(source: str, first_line: int, marked: tuple[int, ...]) -> Markup:
    """The source highlighted by the project's Pygments lexer, with line numbers and anchors
    (cached, bounded in bytes)."""
    key = ("source", digest(source), first_line, marked)
    return SOURCE_CACHE.get_or_make(key, lambda: _highlight(source, first_line, marked))


def _highlight(source: str, first_line: int, marked: tuple[int, ...]) -> Markup:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    from lcn.pygments_lexer import LCNLexer

    formatter = HtmlFormatter(linenos="table", linenostart=first_line, cssclass="highlight",
                              lineanchors="L", anchorlinenos=True, wrapcode=True,
                              hl_lines=[line - first_line + 1 for line in marked])
    return Markup(highlight(source, LCNLexer(), formatter))


def render_replay(text: str, *, game_id: str | None, game: int = 1, turn: int | None = None,
                  embed: bool = False, view: str | None = None) -> str:
    """The replay page of game ``game`` of a file, opened at ``turn`` (0: before the first).

    ``embed`` gives the compact page made for iframes. ``view`` chooses whose hands show
    (``all``, a seat ``1``-``5``, ``none``; from ``?view=`` when not given). Raises NotFound
    for a game the file does not have, BadRequest for a file without games and
    TooLongToReplay for a game longer than ``MAX_REPLAY_TURNS``.

    The page holds the current position and the move list's page around it. Any route that
    renders through here also answers ``?part=positions&turn=N`` (the chunk of
    ``POSITIONS_CHUNK`` positions that holds turn N, as an HTML fragment, which replay.js
    fetches as the reader steps) and ``?part=moves&turn=N`` (the move list's page of turn N).
    """
    games = overview_of(text)
    if not games:
        raise BadRequest(_("the record holds no game"))
    if not 1 <= game <= len(games):
        raise NotFound(_("this file has 1 game: there is no game %(game)s", game=game)
                       if len(games) == 1 else
                       _("this file has %(count)s games: there is no game %(game)s",
                         count=len(games), game=game))
    refuse_long_game(games[game - 1]["turns"], game)
    if len(text) > HEAVY_TEXT_BYTES:
        count_heavy_read()
    data = outline_of(text, game)
    assert data is not None
    applied = data["applied"]
    current = 0 if turn is None else max(0, min(turn, applied))
    shown_view = view_arg(view)
    multi = len(games) > 1
    link = linker(game, shown_view, multi)
    diagnostics_by_turn: dict[int, list[dict[str, Any]]] = {}
    for d in data["diagnostics"]:
        if d.get("turn"):
            diagnostics_by_turn.setdefault(d["turn"], []).append(d)
    part = request.args.get("part") if has_request_context() else None
    known = data["known_variant"]
    if part == "positions":
        first = current // POSITIONS_CHUNK * POSITIONS_CHUNK
        chunk = positions_of(text, game, first, POSITIONS_CHUNK, applied) if known else {}
        positions = [(n, chunk[n]) for n in sorted(chunk)]
    else:
        positions = list(positions_of(text, game, current, 1, applied).items()) if known else []
    link_length = len(link(applied))
    first_turn, last_turn = moves_window(current, applied, len(data["turns"]),
                                         moves_page_size(link_length))
    # The annotation form, many times the size of a move, covers the chunk of positions.
    chunk_first = current // POSITIONS_CHUNK * POSITIONS_CHUNK
    annotate_first = max(chunk_first, 1) if current else 1
    window = data["turns"][first_turn - 1:last_turn]
    board = f"board/{data['variant']}.html" if known else "board/generic.html"
    shown_turns = [n for n, _ in positions if n > 0] + [first_turn, min(last_turn, applied)]
    told = told_of(text, game, max(1, min(shown_turns)), max(shown_turns)) if known else {}
    context: dict[str, Any] = {
        "replay": data,
        "positions": positions,
        "position": positions[0][1] if positions else None,
        "chunk": POSITIONS_CHUNK,
        # The list of a file's games shows those around this one: a self-contained link can
        # carry thousands of one-line games, and each entry is a link that carries them all.
        "games": list(games[max(0, game - 1 - GAMES_AROUND):game + GAMES_AROUND]) if multi else [],
        "games_total": len(games),
        "game_index": game,
        "game_id": game_id,
        "turn": current,
        "view": shown_view,
        "embed": embed,
        "lcn_text": text,
        "tags": dict((k, v) for k, v in data["tags"]),
        "link": link,
        "rows": move_rows(window),
        "moves_first": first_turn,
        "moves_last": last_turn,
        "annotate_first": annotate_first,
        "annotate_last": min(chunk_first + POSITIONS_CHUNK, len(data["turns"])),
        "diagnostics_by_turn": diagnostics_by_turn,
        "board_templates": [board, "board/generic.html"],
        "has_hands": bool(positions) and "hands" in positions[0][1],
        "told": told,
    }
    context["current"] = lambda index: " current" if index == current else ""
    if part != "positions":
        moves = moves_list(context, text, game, link())
        if moves is not None:
            context["moves_html"] = moves.at(current)
    if part == "positions":
        return render_template("_positions.html", **context)
    if part == "moves":
        return render_template("_moves.html", **context)
    source, first_line = _source_of_game(text, games, game)
    marked = tuple(sorted({d["line"] for d in data["diagnostics"] if isinstance(d.get("line"), int)}))
    whole = len(source) <= SOURCE_SHOWN_BYTES
    context.update({
        "graph": _graph(text, game, data, current, link_length),
        "source_html": highlight_lcn(source, first_line, marked) if not embed and whole else None,
        "source_too_long": not whole,
        "download_name": cached_data("download-name", text, lambda: download_name(text, "lcn", "game")),
        "source_annotated": (annotate_source(source, data["diagnostics"], first_line)
                             if not data["valid"] and not embed else None),
    })
    if embed:  # embed_replay.html (the sharing module's) extends replay.html
        return render_template(["embed_replay.html", "replay.html"], **context)
    return render_template("replay.html", **context)


def _graph(text: str, game: int, data: dict[str, Any], turn: int, link_length: int
           ) -> dict[str, Any] | None:
    """:func:`score_graph` of a replay page, its shape computed once per game."""
    shape = cached_data("graph", text, lambda: graph_shape(data["running"], data["players"], link_length),
                    game, link_length)
    if shape is None:
        return None
    return dict(shape, marker=round(shape["left"] + min(turn, shape["count"]) * shape["span_x"], 1))


__all__ = ["GAMES_AROUND", "MOVES_PAGE_BYTES", "OWN_ARGUMENTS", "POSITIONS_CHUNK", "SOURCE_CACHE", "VIEWS",
           "annotate_source", "linker", "moves_list", "render_replay", "view_arg"]
