"""The Metapyziks replay string (version 3), read and written.

Metapyziks/lost-cities is a bot arena whose runner prints each game as a "game string":
the base64 text of a little binary record, which its HTML viewer replays
(``https://metapyziks.github.io/lost-cities/#<game string>``). Laid out as
``LostCities/GameString.cs`` writes it (integers little-endian)::

    u8 version (3)  u8 colour count (5 or 6)  u8 winner  u8 disqualified
    [i32 player 1 score  i32 player 2 score   -- only when someone was disqualified]
    u8 player to move first (1 or 2)
    cards: deck, all discards, player 1 expeditions, player 1 hand,
           player 2 expeditions, player 2 hand     -- each a u8 count and one byte a card
    i32 action count, then one byte an action

A card byte is ``colour << 4 | value``: colours Red 1, Green 2, Blue 3, White 4, Yellow 5,
Purple 6; value 0 for a wager, else 2-10. Players are 0 none, 1 and 2. An action byte
holds the index of the card in the mover's hand (bits 0-2), whether it is discarded
(bit 3) and the colour of the discard pile drawn from (bits 4-7; 0 for the draw pile).
A hand is a list in deal order; the played card leaves it (the first card equal to it),
the drawn card joins it at the end. The draw pile is drawn from its **end**.

The string holds the whole deal, so the conversion is lossless both ways:

>>> from lcn.variants.classic_play import random_game
>>> game = random_game(7)
>>> text = IMPORTER.write_record(game)
>>> back = IMPORTER.read(text).records[0]
>>> [back.tags[t] == game.tags[t] for t in ("Hand1", "Hand2", "Deck", "Result")]
[True, True, True, True]
>>> [t.text for t in back.turns] == [t.text for t in game.turns]
True

The game string has no player names: the seats are called "Player 1" and "Player 2" as in
the runner. The runner scores without the 8-card bonus; the record keeps the official
scores, and when the string's winner is only the winner without the bonus, the import says
so (``[HouseRules "no 8-card bonus"]``). Written strings name the official winner.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass

from ..describe import card_words
from ..diagnostics import Diagnostic, Severity
from ..messages import join, msg, template
from ..model import GameRecord
from ..validate import validate_record
from ..variants.classic import CLASSIC_5, CLASSIC_6, COLOUR_NAMES, ClassicConfig, parse_cards, parse_move
from . import houserules
from .base import (
    Conversion,
    ExportError,
    GameRead,
    GameStream,
    Importer,
    SourceMap,
    Span,
    note,
    shown,
    syntax_error,
)
from .common import CLASSIC, GameBuilder

VERSION = 3
VIEWER = "https://metapyziks.github.io/lost-cities/#"
COLOURS = {1: "R", 2: "G", 3: "B", 4: "W", 5: "Y", 6: "P"}
CODES = {letter: code for code, letter in COLOURS.items()}
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_PLAYER = {0: "nobody", 1: "Player 1", 2: "Player 2"}


class Damaged(ValueError):
    """A game string that cannot be read; ``offset`` is the byte where it goes wrong."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass
class GameString:
    """The fields of a decoded game string."""

    version: int
    colours: int
    winner: int
    disqualified: int
    scores: tuple[int, int] | None
    first: int
    deck: list[str]
    discards: list[str]
    expeditions: tuple[list[str], list[str]]
    hands: tuple[list[str], list[str]]
    actions: list[int]
    #: Byte offset of each action, for messages that point into the string.
    action_offsets: list[int]
    trailing: int


class _Bytes:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, size: int, what: str) -> bytes:
        if self.at + size > len(self.data):
            raise Damaged(msg("the string ends at byte {size}, in the middle of {what}",
                              size=len(self.data), what=what), len(self.data))
        chunk = self.data[self.at:self.at + size]
        self.at += size
        return chunk

    def u8(self, what: str) -> int:
        return self.take(1, what)[0]

    def i32(self, what: str) -> int:
        value: int = struct.unpack("<i", self.take(4, what))[0]
        return value

    def cards(self, what: str, colours: int) -> list[str]:
        count = self.u8(msg("the count of {what}", what=what))
        cards = []
        for _ in range(count):
            offset = self.at
            byte = self.u8(what)
            colour, value = byte >> 4, byte & 15
            if colour not in COLOURS or colour > colours or value == 1 or value > 10:
                raise Damaged(msg("byte {byte} in {what} is not a card of a {colours}-colour "
                                  "game (colour 1-{colours} in the high half, value 0 or 2-10)",
                                  byte=f"0x{byte:02x}", what=what, colours=colours), offset)
            cards.append(COLOURS[colour] + ("w" if value == 0 else str(value)))
        return cards


def decode(text: str) -> GameString:
    """The fields of a game string (base64); Damaged says what is wrong and where."""
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise Damaged(msg("not base64 ({error})", error=str(exc)), 0) from None
    stream = _Bytes(data)
    version = stream.u8(msg("the version"))
    if version != VERSION:
        raise Damaged(msg("version {version} game strings are not supported: this reader knows "
                          "version {known}", version=version, known=VERSION), 0)
    colours = stream.u8(msg("the colour count"))
    if colours not in (5, 6):
        raise Damaged(msg("a game of {colours} colours: Lost Cities has 5 (or 6 with purple)",
                          colours=colours), 1)
    winner = stream.u8(msg("the winner"))
    disqualified = stream.u8(msg("the disqualified player"))
    for offset, value, what in ((2, winner, msg("the winner")),
                                (3, disqualified, msg("the disqualified player"))):
        if value not in _PLAYER:
            raise Damaged(msg("{what} is {value}: expected 0 (none), 1 or 2", what=what,
                              value=value), offset)
    scores = None
    if disqualified:
        scores = (stream.i32(msg("player 1's score")), stream.i32(msg("player 2's score")))
    first_at = stream.at
    first = stream.u8(msg("the player to move first"))
    if first not in (1, 2):
        raise Damaged(msg("the player to move first is {first}: expected 1 or 2", first=first),
                      first_at)
    deck = stream.cards(msg("the deck"), colours)
    discards = stream.cards(msg("the discard piles"), colours)
    exp1 = stream.cards(msg("player 1's expeditions"), colours)
    hand1 = stream.cards(msg("player 1's hand"), colours)
    exp2 = stream.cards(msg("player 2's expeditions"), colours)
    hand2 = stream.cards(msg("player 2's hand"), colours)
    count_at = stream.at
    count = stream.i32(msg("the action count"))
    if count < 0 or count > len(data) - stream.at:
        raise Damaged(msg("the string says it holds {count} actions but has {left} bytes left",
                          count=count, left=len(data) - stream.at), count_at)
    offsets = list(range(stream.at, stream.at + count))
    actions = list(stream.take(count, msg("the actions")))
    return GameString(version, colours, winner, disqualified, scores, first, deck, discards,
                      (exp1, exp2), (hand1, hand2), actions, offsets, len(data) - stream.at)


def _column(prefix: int, offset: int) -> int:
    """The column of the base64 character that holds a byte of the decoded string."""
    return prefix + offset * 4 // 3 + 1


@dataclass
class _Source:
    """One game string of the input, where it stands, and the runner's summary of it."""

    line: int
    column: int
    text: str
    #: The runner's GameSummary (``End: {...}`` or ``--output``), when the string came in one.
    summary: dict[str, object] | None = None
    #: The text of the summary's line, to place a problem at one of its fields.
    summary_line: str = ""


@dataclass
class _Final:
    """What the runner holds at the end of a game: its scores and expeditions (by player)."""

    first: int
    winner: int
    disqualified: int
    scores: dict[int, int]
    expeditions: dict[int, dict[str, list[str]]]


#: The runner's names of the values and colours, as its console prints them.
VALUE_NAMES = {"w": "Wager", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
               "7": "Seven", "8": "Eight", "9": "Nine", "10": "Ten"}
COLOUR_WORDS = {"R": "Red", "G": "Green", "B": "Blue", "W": "White", "Y": "Yellow", "P": "Purple"}
_SUMMARY_FIELDS = ("Config", "FirstTurn", "Winner", "Disqualified", "Player1Score",
                   "Player2Score", "Replay")


def _problem(message: str, line: int, column: int, length: int = 1) -> Diagnostic:
    return note("metapyziks-damaged", message, Severity.ERROR, line=line, column=column,
                length=length)


def _console(text: str) -> bool:
    """Whether the input is the runner's console output (``Game: N`` / ``End: {...}``)."""
    return any(line.startswith(("End: {", "Game: ")) for line in text[:200_000].split("\n"))


def _sources(text: str) -> tuple[list[_Source], list[Diagnostic]]:
    """The game strings of the input, and every problem found while finding them."""
    if text.lstrip().startswith("{"):
        return _json_sources(text)
    if _console(text):
        return _console_sources(text)
    sources = []
    for number, line in enumerate(text.split("\n"), 1):
        word = line.strip()
        if not word:
            continue
        column = line.index(word) + 1
        hash_at = word.find("#")
        if hash_at >= 0 and ("://" in word[:hash_at] or word.startswith("#")):
            column += hash_at + 1
            word = word[hash_at + 1:]
        sources.append(_Source(number, column, word))
    return sources, []


def _summary(data: object, line: int, column: int, text: str
             ) -> tuple[_Source | None, Diagnostic | None]:
    """A GameSummary object: its game string, or the problem with it."""
    if not isinstance(data, dict):
        return None, _problem(msg("a game summary is not a JSON object"), line, column)
    replay = data.get("Replay")
    if not isinstance(replay, str):
        return None, _problem(msg("a game summary has no \"Replay\" string (the game string)"),
                              line, column)
    unknown = [key for key in data if key not in _SUMMARY_FIELDS]
    if unknown:
        at = text.find(f'"{unknown[0]}"')
        return None, _problem(msg("`{shown}` is not a field of the runner's game summaries",
                                  shown=shown(unknown[0])), line, at + 1 if at >= 0 else column)
    return _Source(line, column, replay, data, text), None


def _json_sources(text: str) -> tuple[list[_Source], list[Diagnostic]]:
    """Game strings in the runner's ``--output`` file (``GameResults``: ``Summaries[]``)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", 1)
        column = getattr(exc, "colno", 1)
        message = getattr(exc, "msg", str(exc))
        return [], [_problem(msg("the runner's --output file is not valid JSON ({error}): it "
                                 "is cut short or edited", error=message), line, column)]
    except RecursionError:
        return [], [_problem(msg("the JSON is nested too deeply"), 1, 1)]
    if isinstance(data, dict) and "Replay" in data:
        summaries: object = [data]
    elif isinstance(data, dict) and "Summaries" in data:
        summaries = data["Summaries"]
        extra = [key for key in data if key not in ("Summaries", "Results")]
        if extra:
            return [], [_problem(msg("`{shown}` is not a field of the runner's --output file "
                                     "(Summaries, Results)", shown=shown(extra[0])), 1, 1)]
    else:
        return [], [_problem(msg("JSON without \"Summaries\" or \"Replay\": not the runner's "
                                 "--output file"), 1, 1)]
    if not isinstance(summaries, list):
        return [], [_problem(msg("\"Summaries\" is not a list"), 1, 1)]
    # The place of each "Replay" string, in order (its text may be escaped: \u002B).
    places = []
    at = counted = line_start = 0
    line = 1
    while (at := text.find('"Replay"', at)) >= 0:
        start = text.find('"', text.find(":", at) + 1)
        # Lines are counted on from the last place, so that many summaries stay linear.
        newlines = text.count("\n", counted, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", counted, start) + 1
        counted = start
        places.append((line, start - line_start + 1))  # the column of the opening quote
        at = start + 1
    sources, problems = [], []
    lines = text.split("\n")
    for index, item in enumerate(summaries):
        line, column = places[index] if index < len(places) else (1, 1)
        source, problem = _summary(item, line, column, lines[line - 1])
        if problem is not None:
            problems.append(problem)
        elif source is not None:
            source.column += 1  # past the opening quote
            sources.append(source)
    return sources, problems


def _console_sources(text: str) -> tuple[list[_Source], list[Diagnostic]]:
    """Game strings of the ``End: {...}`` lines of the runner's console output."""
    sources: list[_Source] = []
    problems: list[Diagnostic] = []
    games = 0
    waiting: int | None = None  # the line of a "Game: N" whose End line is still to come
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("Game: "):
            value = line[len("Game: "):]
            if waiting is not None:
                problems.append(_problem(msg("game {game} has no `End:` line before the next "
                                             "game starts", game=games), waiting, 1))
            if value != str(games + 1):
                problems.append(_problem(msg("`{shown}`: the runner numbers its games from 1 "
                                             "on; game {game} was to come", shown=shown(line),
                                             game=games + 1), number, 7, len(value)))
            games += 1
            waiting = number
        elif line.startswith("End: "):
            if waiting is None:
                problems.append(_problem(msg("an `End:` line without its `Game:` line"),
                                         number, 1))
            waiting = None
            body = line[len("End: "):]
            try:
                data = json.loads(body)
            except ValueError as exc:
                problems.append(_problem(msg("the game summary is not valid JSON ({error}): "
                                             "the line is cut short or edited",
                                             error=str(getattr(exc, "msg", exc))),
                                         number, 5 + getattr(exc, "colno", 1)))
                continue
            except RecursionError:
                problems.append(_problem(msg("the JSON is nested too deeply"), number, 6))
                continue
            at = line.find('"Replay"')
            column = line.find('"', line.find(":", at) + 1) + 2 if at >= 0 else 6
            source, problem = _summary(data, number, column, line)
            if problem is not None:
                problems.append(problem)
            elif source is not None:
                sources.append(source)
    if waiting is not None:
        problems.append(_problem(msg("game {game} has no `End:` line: the output is cut short",
                                     game=games), waiting, 1))
    return sources, problems


def _full_deck(config: ClassicConfig) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in config.all_cards():
        counts[card] = counts.get(card, 0) + 1
    return counts


def _runner_score(cards: list[str]) -> int:
    """``Helpers.CalculateScore`` of the runner: no 8-card bonus; an empty expedition is 0."""
    wagers = sum(1 for c in cards if c[1] == "w")
    value = sum(int(c[1:]) for c in cards if c[1] != "w")
    return 0 if not wagers and not value else (value - 20) * (1 + wagers)


def _field_column(line: str, name: str) -> int:
    at = line.find(f'"{name}"')
    return at + 1 if at >= 0 else 1


def _check_summary(source: _Source, final: _Final, number: int) -> list[Diagnostic]:
    """The runner's summary of a game against its own game string: a difference is damage."""
    summary = source.summary or {}
    expected: dict[str, object] = {"FirstTurn": _RUNNER_PLAYER[final.first],
                                   "Winner": _RUNNER_PLAYER[final.winner],
                                   "Disqualified": _RUNNER_PLAYER[final.disqualified]}
    if not final.disqualified:
        expected["Player1Score"] = final.scores[1]
        expected["Player2Score"] = final.scores[2]
    problems = []
    for name, value in expected.items():
        if name in summary and summary[name] != value:
            problems.append(_problem(
                msg("game {game}: the summary says {name} {said}, but its game string gives "
                    "{value}: the line is edited or damaged", game=number, name=name,
                    said=json.dumps(summary[name]), value=json.dumps(value)), source.line,
                _field_column(source.summary_line, name), len(name) + 2))
    if final.disqualified and ("Player1Score" in summary or "Player2Score" in summary):
        problems.append(_problem(msg("game {game}: the runner gives no scores for a game with a "
                                     "disqualified player", game=number), source.line,
                                 _field_column(source.summary_line, "Player1Score")))
    return problems


def _net_double(value: float) -> str:
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def _check_console(text: str, sources: list[_Source], finals: list[_Final]) -> list[Diagnostic]:
    """Every line the runner prints after its games, against the games themselves.

    The runner prints, after the ``Game:``/``End:`` lines, the seeds and expeditions of a
    single game, then ``=== Final Results ===`` and each player's record. All of it follows
    from the games, so each line is compared with what the runner would print; a line that
    differs or that the runner does not print is damage. Output with no final results is
    what ``--endless`` prints, and is complete as it is.
    """
    lines = text.split("\n")
    last = max(s.line for s in sources) if sources else 0
    expected: list[str] = [""]
    if len(finals) == 1:
        final, summary = finals[0], sources[0].summary or {}
        config = summary.get("Config") if isinstance(summary.get("Config"), dict) else {}
        assert isinstance(config, dict)
        expected += [f"Game Seed: {config.get('GameSeed')}",
                     f"Player1 Seed: {config.get('Player1Seed')}",
                     f"Player2 Seed: {config.get('Player2Seed')}", ""]
        if final.disqualified:
            expected.append(f"{_RUNNER_PLAYER[final.disqualified]} Disqualified!")
        else:
            for player in (1, 2):
                expected.append(f"{_RUNNER_PLAYER[player]}: {final.scores[player]} Points")
                for colour, cards in final.expeditions[player].items():
                    names = ", ".join(VALUE_NAMES[c[1:]] for c in cards)
                    expected.append(f"  {COLOUR_WORDS[colour]}: {names} ({_runner_score(cards)})")
        expected.append("")
    expected += ["", "=== Final Results ===", ""]
    for player in (1, 2):
        scores = [f.scores[player] for f in finals]
        expected += [f"{_RUNNER_PLAYER[player]}:",
                     f"  Went First: {sum(1 for f in finals if f.first == player)}",
                     f"  Wins: {sum(1 for f in finals if f.winner == player)}",
                     f"  Ties: {sum(1 for f in finals if f.winner == 0)}",
                     f"  Losses: {sum(1 for f in finals if f.winner not in (0, player))}",
                     f"  Disqualified: {sum(1 for f in finals if f.disqualified == player)}",
                     f"  Best Score: {max(scores)}", f"  Worst Score: {min(scores)}",
                     f"  Mean Score: {_net_double(sum(scores) / len(scores))}", ""]
    rest = lines[last:]
    while rest and rest[-1] == "":
        rest.pop()
    if not rest:
        return []  # --endless output, or the Game/End lines alone
    for offset, (got, want) in enumerate(zip(rest, expected, strict=False)):
        if got != want:
            column = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
                          min(len(got), len(want))) + 1
            return [_problem(msg("`{got}`: the runner prints `{want}` here (this line does not "
                                 "follow from the games above: the output is edited or "
                                 "damaged)", got=shown(got), want=shown(want)) if want
                             else msg("`{got}` is not a line the runner prints here",
                                      got=shown(got)), last + offset + 1, column)]
    if len(rest) > len(expected):
        return [_problem(msg("`{shown}`: the runner's output ends before this line",
                             shown=shown(rest[len(expected)])), last + len(expected) + 1, 1)]
    while expected and expected[-1] == "":
        expected.pop()
    if len(rest) < len(expected):
        return [_problem(msg("the runner's output stops early: `{shown}` is missing (the "
                             "output is cut short)", shown=shown(expected[len(rest)])),
                         last + len(rest), 1)]
    return []


_RUNNER_PLAYER = {0: "None", 1: "Player1", 2: "Player2"}


class MetapyziksImporter(Importer):
    name = "metapyziks"
    title = template("Metapyziks replay string (game string version 3)")
    writes = True

    def detect(self, text: str) -> float:
        head = text[:200_000]
        if head.lstrip().startswith("{"):
            if '"Replay"' not in head:
                return 0.0
            return 0.95 if '"Summaries"' in head or '"Config"' in head else 0.5
        if _console(head):
            return 0.95 if "End: {" in head else 0.5
        found = 0
        for source in _sources(head)[0]:
            word = source.text
            if len(word) < 40 or not _BASE64.fullmatch(word):
                return 0.0
            try:
                decode(word)
            except Damaged:
                head_bytes = base64.b64decode(word[:8] + "=" * (-len(word[:8]) % 4), validate=False)
                # A long base64 word that does not decode (its version byte changed, say) is
                # still most likely a damaged game string: low, but not nothing.
                return 0.5 if head_bytes[:1] == bytes([VERSION]) else 0.2
            found += 1
            if found >= 3:
                break
        return 0.95 if found else 0.0

    def read(self, text: str) -> Conversion:
        records: list[GameRecord] = []
        sources: list[SourceMap | None] = []
        found, problems = _sources(text)
        diagnostics = []
        finals: list[_Final] = []
        for builder, final in self._built(found, problems):
            records.append(builder.finish())
            sources.append(builder.source)
            diagnostics.extend(builder.diagnostics)
            finals.append(final)
        self._check_all(text, found, finals, problems)
        return Conversion(records, diagnostics, sources)

    def read_each(self, text: str, detected: bool = False) -> GameStream:
        """Each game built when it is asked for: a file of thousands of game strings of
        hundreds of turns each held them all, a few hundred bytes a turn, near a gigabyte for
        4 MiB. The input is gone through once first, each game built and dropped, so that
        every problem is found before the first game is given."""
        found, problems = _sources(text)
        finals = [final for _, final in self._built(found, problems)]
        self._check_all(text, found, finals, problems)

        def games() -> Iterator[GameRead]:
            for builder, _ in self._built(found, [], check=False):
                record = builder.finish()
                yield record, builder.source, builder.diagnostics
        return GameStream(games())

    def _built(self, found: list[_Source], problems: list[Diagnostic], check: bool = True
               ) -> Iterator[tuple[GameBuilder, _Final]]:
        """The game of each game string that can be read; a problem for each that cannot."""
        count = 0
        for number, source in enumerate(found, 1):
            try:
                game = decode(source.text)
                builder, final = self._convert(game, count + 1, source.line,
                                               source.column - 1, source.summary)
            except Damaged as exc:
                problems.append(_problem(msg("game string {number}: {problem}", number=number,
                                             problem=exc.args[0]), source.line,
                                         _column(source.column - 1, exc.offset)))
                continue
            if check and source.summary is not None and len(problems) < 100:
                # (bounded: each problem searches its line, and a runner's file is one line)
                problems.extend(_check_summary(source, final, number))
            count += 1
            yield builder, final

    def _check_all(self, text: str, found: list[_Source], finals: list[_Final],
                   problems: list[Diagnostic]) -> None:
        """Raise the problems of the input (with the console's lines checked), if any."""
        if not problems and _console(text) and len(finals) == len(found):
            problems.extend(_check_console(text, found, finals))
        if problems or not finals:
            if not problems:
                problems.append(note("metapyziks-damaged", msg("no game string found"),
                                     Severity.ERROR))
            raise syntax_error(self.name, problems)

    def _convert(self, game: GameString, index: int, line: int, prefix: int,
                 summary: dict[str, object] | None = None) -> tuple[GameBuilder, _Final]:
        config = CLASSIC_6 if game.colours == 6 else CLASSIC_5
        if game.discards or game.expeditions[0] or game.expeditions[1]:
            raise Damaged(msg("the game starts with cards already on the table; an LCN record "
                              "starts at the deal"), 0)
        sizes = [len(game.hands[0]), len(game.hands[1])]
        if sizes != [config.hand_size] * 2 or len(game.deck) != config.pile_size:
            raise Damaged(msg("the hands hold {first} and {second} cards and the deck {deck}: "
                              "a fresh deal has {hand}, {hand} and {pile}", first=sizes[0],
                              second=sizes[1], deck=len(game.deck), hand=config.hand_size,
                              pile=config.pile_size), 0)
        counts = _full_deck(config)
        for card in game.deck + game.hands[0] + game.hands[1]:
            counts[card] -= 1
        wrong = sorted(card for card, n in counts.items() if n)
        if wrong:
            detail = join(msg("{card} missing", card=card) if counts[card] > 0
                          else msg("{card} too often", card=card) for card in wrong[:4])
            raise Damaged(msg("the cards are not one full deck ({detail})", detail=detail), 0)

        builder = GameBuilder(index, line=line, house_rules=frozenset({houserules.NO_BONUS}))
        builder.source.tag_lines = True
        seats = (1, 2) if game.first == 1 else (2, 1)  # Metapyziks players, LCN seat order
        builder.tag("Player1", _PLAYER[seats[0]])
        builder.tag("Player2", _PLAYER[seats[1]])
        if game.colours == 6:
            builder.tag("Expeditions", "6")
        builder.tag("Hand1", " ".join(game.hands[seats[0] - 1]))
        builder.tag("Hand2", " ".join(game.hands[seats[1] - 1]))
        builder.tag("Deck", " ".join(reversed(game.deck)))
        if game.first == 2:
            builder.warn("seats-swapped", msg("player 2 moves first in this game string; LCN's "
                                              "Player1 is the player who moves first, so Player1 "
                                              "is \"Player 2\""),
                         (line, prefix + 1, 1), Severity.INFO)

        hands = {1: list(game.hands[0]), 2: list(game.hands[1])}
        # The runner's expeditions, colours in its order (Red, Green, Blue, White, Yellow, Purple).
        order = [COLOURS[n] for n in range(1, game.colours + 1)]
        expeditions: dict[int, dict[str, list[str]]] = {p: {c: [] for c in order} for p in (1, 2)}
        piles: dict[str, list[str]] = {c: [] for c in config.colours}
        deck = list(game.deck)
        mover: int | None = game.first
        for number, (byte, offset) in enumerate(zip(game.actions, game.action_offsets, strict=True), 1):
            if mover is None:
                raise Damaged(msg("action {number} comes after the last card of the deck was "
                                  "drawn", number=number), offset)
            hand = hands[mover]
            index_, discard, colour = byte & 7, bool(byte & 8), byte >> 4
            if index_ >= len(hand):
                raise Damaged(msg("action {number} plays card {index} of a hand of {size}",
                                  number=number, index=index_, size=len(hand)), offset)
            card = hand[index_]
            hand.remove(card)  # the runner removes the first card equal to it
            if discard:
                piles[card[0]].append(card)
            else:
                expeditions[mover][card[0]].append(card)
            if colour:
                letter = COLOURS.get(colour)
                if letter is None or letter not in config.colours:
                    raise Damaged(msg("action {number} draws from discard pile {colour}, which "
                                      "does not exist in a {colours}-colour game", number=number,
                                      colour=colour, colours=game.colours), offset)
                if not piles[letter]:
                    raise Damaged(msg("action {number} draws from the {colour} discard pile, "
                                      "which is empty", number=number,
                                      colour=COLOUR_NAMES[letter]), offset)
                hand.append(piles[letter].pop())
                draw = letter
            else:
                if not deck:
                    raise Damaged(msg("action {number} draws from the empty deck",
                                      number=number), offset)
                hand.append(deck.pop())
                draw = "d"
            span: Span = (line, _column(prefix, offset), 2)
            builder.turn(discard, card, draw, place=span, draw_span=span)
            mover = None if not deck else 3 - mover
        scores = {p: sum(_runner_score(cards) for cards in expeditions[p].values()) for p in (1, 2)}
        final = _Final(game.first, game.winner, game.disqualified, scores, expeditions)

        end: Span = (line, prefix + 1, 1)
        builder.stated_span = end
        names = {1: "Player 1", 2: "Player 2"}
        if game.trailing:
            builder.warn("not-carried", msg("{count} bytes after the last action are not part "
                                            "of a version 3 game string; they were ignored",
                                            count=game.trailing), end)
        if game.disqualified:
            assert game.scores is not None
            builder.stated = "*"
            builder.warn("disqualified", msg("{name} was disqualified after {count} actions "
                                             "(an illegal move or no answer); the record ends "
                                             "there. The runner's scores: Player 1 {first}, "
                                             "Player 2 {second}", name=names[game.disqualified],
                                             count=len(game.actions), first=game.scores[0],
                                             second=game.scores[1]), end)
        elif builder.over and summary is not None and isinstance(summary.get("Player1Score"), int):
            # The runner's scores (without the 8-card bonus), first mover first: the builder
            # keeps them as the stated result, and names the house rule when it explains them.
            builder.stated = [scores[seats[0]], scores[seats[1]]]
        elif builder.over:
            state = builder.table
            official = houserules.winner(CLASSIC.score(state).totals)
            plain = houserules.winner(houserules.scores_without_bonus(state))
            claimed = None if game.winner == 0 else (0 if game.winner == game.first else 1)
            seat_name = {None: msg("nobody (a tie)"), 0: names[seats[0]], 1: names[seats[1]]}
            if claimed != official:
                if claimed == plain:
                    houserules.add_house_rule(builder.record, houserules.NO_BONUS)
                    builder.warn("house-rule", msg("the game string names {claimed} as the "
                                                   "winner, as the runner scores without the "
                                                   "8-card bonus (house rule: {rule}); under the "
                                                   "official rules the winner is {official}, and "
                                                   "the record's result is official",
                                                   claimed=seat_name[claimed],
                                                   rule=houserules.NO_BONUS,
                                                   official=seat_name[official]), end,
                                 rule="C-SCORE-BONUS")
                else:
                    builder.warn("winner-mismatch", msg("the game string names {claimed} as the "
                                                        "winner, but its moves make {official} "
                                                        "the winner (with or without the 8-card "
                                                        "bonus); the record keeps the moves' "
                                                        "result", claimed=seat_name[claimed],
                                                        official=seat_name[official]), end)
        elif game.actions or game.winner:
            builder.warn("unfinished", msg("the game string ends before the game does ({count} "
                                           "cards left in the deck)", count=len(deck)), end,
                         Severity.INFO)
        return builder, final

    # -- writing ----------------------------------------------------------------------
    def write_record(self, record: GameRecord) -> str:
        if record.variant_name != "classic":
            raise ExportError(msg("a {variant} game: the game string holds classic games",
                                  variant=record.variant_name))
        missing = [tag for tag in ("Hand1", "Hand2", "Deck") if tag not in record.tags]
        if missing:
            raise ExportError(msg("the game string needs the whole deal, and the record has no "
                                  "{tags} tag", tags=join(missing, msg(" or "))))
        report = validate_record(record)
        errors = [d for d in report.diagnostics if d.is_error and d.code != "missing-termination"]
        if errors:
            first = errors[0]
            place = msg(" (turn {turn})", turn=first.turn) if first.turn else ""
            raise ExportError(msg("the record breaks the rules{place}: {problem}", place=place,
                                  problem=first.message))
        state = report.state
        config: ClassicConfig = state.config
        dealt = [parse_cards(record.tags["Hand1"], config), parse_cards(record.tags["Hand2"], config)]
        hands = [list(dealt[0]), list(dealt[1])]
        deck = list(reversed(parse_cards(record.tags["Deck"], config)))
        out = bytearray([VERSION, len(config.colours)])
        over = CLASSIC.is_over(state)
        best = houserules.winner(CLASSIC.score(state).totals) if over else None
        out += bytes([0 if best is None else best + 1, 0, 1])

        def cards(items: list[str]) -> bytes:
            return bytes([len(items)]) + bytes(CODES[c[0]] << 4 | (0 if c[1] == "w" else int(c[1:]))
                                               for c in items)

        start_deck = list(deck)
        piles: dict[str, list[str]] = {c: [] for c in config.colours}
        actions = bytearray()
        for index, turn in enumerate(record.turns):
            move = parse_move(turn.text, config)
            hand = hands[index % 2]
            at = hand.index(move.card)
            if at >= 8:
                raise ExportError(msg("turn {turn}: {card} is card {place} of the hand; the "
                                      "game string can only name the first 8", turn=index + 1,
                                      card=card_words(move.card), place=at + 1))
            hand.pop(at)
            if move.discard:
                piles[move.card[0]].append(move.card)
            if move.draw == "d":
                hand.append(deck.pop())
                colour = 0
            else:
                hand.append(piles[move.draw].pop())
                colour = CODES[move.draw]
            actions.append(at | (8 if move.discard else 0) | colour << 4)
        out += cards(start_deck) + cards([]) + cards([]) + cards(dealt[0])
        out += cards([]) + cards(dealt[1])
        out += struct.pack("<i", len(actions)) + actions
        return base64.b64encode(bytes(out)).decode("ascii") + "\n"


IMPORTER = MetapyziksImporter()
