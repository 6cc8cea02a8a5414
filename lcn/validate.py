"""The validator: runs a record through its variant's engine and reports every problem.

This is the generic driver: it checks what is the same for every game (move numbers, turns
after the end, the termination against the computed scores) and leaves the rules to the
variant. Problems become diagnostics placed at the exact line and column of the turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .diagnostics import Diagnostic, Severity, hint
from .messages import msg
from .model import GameRecord
from .reader import RESULT_PATTERN, Reader, Source
from .variants import MoveSyntaxError, Problem, Score, Variant, find_variant, variant_names
from .variants.base import ExpressResult


@dataclass
class GameReport:
    """What the validator found in one game: its diagnostics, final state and scores."""

    index: int
    record: GameRecord
    variant: Variant[Any, Any] | None
    diagnostics: list[Diagnostic]
    state: Any = None
    score: Score | None = None
    over: bool = False
    #: Whether every turn could be applied (no unreadable turn stopped the rule checks).
    complete: bool = True
    #: JSON snapshots of the state before the first turn and after each turn (on request).
    snapshots: list[dict[str, Any]] | None = None
    #: Scores after each turn (on request), totals in seat order.
    running: list[list[int]] | None = None
    #: What a variant or the validator adds: ``match`` (a game of a match), ``unchecked_from``
    #: (the turn that could not be read, after which no rule was checked).
    extra: dict[str, Any] = field(default_factory=dict)
    #: Turns in the record; kept apart so that a report can travel without its turns
    #: (``lcn.parallel`` sends reports between processes).
    turn_count: int = -1

    def __post_init__(self) -> None:
        if self.turn_count < 0:
            self.turn_count = len(self.record.turns)

    @property
    def valid(self) -> bool:
        # Asked of every report in bulk, where nearly all have no diagnostic at all.
        return not self.diagnostics or not any(d.is_error for d in self.diagnostics)

    @property
    def players(self) -> list[str]:
        if self.variant is None:
            return self.record.players()
        return self.variant.players(self.record, self.state)

    @property
    def totals(self) -> list[int] | None:
        """The final scores in seat order, or None when the game could not be scored.

        Callers that need only the totals (the JSON form, match totals, ``lcn.parallel``)
        read them here: a report of the express check knows them without a score sheet.
        """
        return self.score.totals if self.score is not None else None

    def to_json(self) -> dict[str, Any]:
        """The fixed shape of ``lcn validate --format json`` for one game (more keys follow)."""
        return {
            "index": self.index,
            "valid": self.valid,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "variant": self.record.variant_name,
            "players": self.players,
            "turns": self.turn_count,
            "line": self.record.line,
            "over": self.over,
            "scores": self.totals if self.complete else None,
        }


class ExpressReport(GameReport):
    """The report of a game that the express check found valid.

    It says all that validation says of the game (no problem, the final scores, whether
    the game is over, the number of turns); the final ``state`` and the ``score`` sheet
    are made on first use, by validating the game again in full, since most callers
    (``lcn validate``, the JSON form, match totals) never ask for them.
    """

    def __init__(self, index: int, record: GameRecord, variant: Variant[Any, Any],
                 result: ExpressResult) -> None:
        self.index = index
        self.record = record
        self.variant = variant
        self.diagnostics = []
        self.over = result.over
        self.extra = {}  # complete, snapshots and running: the class's defaults
        self.turn_count = result.turns
        self._result = result

    def _full(self) -> None:
        full = validate_record(self.record, self.index, variant=self.variant, express=False)
        if full.diagnostics or full.totals != self._result.totals or full.over != self.over:
            raise AssertionError(f"the express check and full validation disagree on game "
                                 f"{self.index} (line {self.record.line}): {full.diagnostics!r}")
        self.__dict__.setdefault("_state", full.state)
        self.__dict__.setdefault("_score", full.score)

    @property
    def state(self) -> Any:
        if "_state" not in self.__dict__:
            self._full()
        return self.__dict__["_state"]

    @state.setter
    def state(self, value: Any) -> None:
        self.__dict__["_state"] = value

    @property
    def score(self) -> Score | None:
        if "_score" not in self.__dict__:
            self._full()
        score: Score | None = self.__dict__["_score"]
        return score

    @score.setter
    def score(self, value: Score | None) -> None:
        self.__dict__["_score"] = value

    @property
    def players(self) -> list[str]:
        return list(self._result.players)

    @property
    def totals(self) -> list[int] | None:
        return list(self._result.totals)


def _express(record: GameRecord, index: int, variant: Variant[Any, Any]) -> GameReport | None:
    """The report of a game the variant's express check decides, or None.

    The reader keeps a game's movetext unread (``Reader(express=True)``) when it is words
    alone; the express check decides the rules from those words, and what is checked here
    is the rest of what full validation checks, the termination against the scores.
    """
    deferred = record.deferred
    termination = record.termination
    if deferred is None or termination is None or record.diagnostics:
        return None
    words = deferred.words()
    if not words or words[-1] != termination:
        return None
    result = variant.express_check(record, words[:-1])
    if result is None:
        return None
    tags = record.tags.mapping
    if not tags.keys() <= _KNOWN_AS_WRITTEN:  # one step in C for the usual tags
        for name in tags:
            if name not in _KNOWN_AS_WRITTEN:
                meant = _KNOWN_FOLDED.get(name.casefold())
                if meant is not None and meant != name:
                    return None  # a tag name in another case: full validation warns (_check_tag_case)
    tag = tags.get("Result")
    if tag is not None and tag.strip() != termination:
        return None
    # The scores as the writer puts them; any other spelling of the same numbers (`025`)
    # is left to full validation, which reads them as numbers.
    if termination != "*" and (not result.over or termination != ":".join(map(str, result.totals))):
        return None
    return ExpressReport(index, record, variant, result)


def _tag_diagnostic(record: GameRecord, problem: Problem) -> Diagnostic:
    line = record.tags.lines.get(problem.tag or "", record.line)
    return Diagnostic(problem.code, problem.message, problem.severity, line, 1 if line else None,
                      None, problem.rule, hint=problem.hint)


def _turn_diagnostic(turn_no: int, turn: Any, problem: Problem | MoveSyntaxError,
                     severity: Severity = Severity.ERROR) -> Diagnostic:
    line, column = turn.position_of(problem.offset)
    return Diagnostic(problem.code, problem.message,
                      getattr(problem, "severity", severity), line, column, turn_no,
                      problem.rule, max(problem.length, 1), hint=problem.hint)


#: Most digits of a score in a termination (longer ones are an error, never converted).
MAX_SCORE_DIGITS = 9


def parse_termination(text: str) -> list[int] | None:
    """The scores of a termination (``57:-12`` → [57, -12]); None for ``*``."""
    if text == "*" or not RESULT_PATTERN.fullmatch(text):
        return None
    parts = text.split(":")
    if any(len(part.lstrip("-")) > MAX_SCORE_DIGITS for part in parts):
        return None  # no game scores that much; _check_termination says so
    return [int(part) for part in parts]


def validate_record(record: GameRecord, index: int = 1, *, variant: Variant[Any, Any] | None = None,
                    keep_snapshots: bool = False, keep_running: bool = False,
                    express: bool = True) -> GameReport:
    """Validate one game; the record is left as read.

    A record read with ``Reader(express=True)`` may be decided by its variant's express
    check (:class:`ExpressReport`), unless snapshots or running scores are asked for or
    ``express`` is False; the report is the same either way.

        >>> from lcn import read_game
        >>> report = validate_record(read_game('[Player1 "A"]\\n[Player2 "B"]\\n\\nR5/d R4/d *\\n'))
        >>> report.valid
        True
    """
    deferred = record.deferred
    if variant is None:
        # The reader found it already for a record it kept unread.
        variant = deferred.variant if deferred is not None else find_variant(record.variant_name)
    if deferred is not None:
        if express and variant is not None and not keep_snapshots and not keep_running:
            express_report = _express(record, index, variant)
            if express_report is not None:
                return express_report
        record.expand()  # before the reader's diagnostics are copied: it may add some
    diagnostics = list(record.diagnostics)
    _check_tag_case(record, diagnostics)
    report = GameReport(index, record, variant, diagnostics)
    if variant is None:
        line = record.tags.lines.get("Variant", record.line)
        diagnostics.append(Diagnostic(
            "unknown-variant", msg('unknown variant "{variant}": expected one of {variants}',
                                   variant=record.tags.get("Variant"),
                                   variants=", ".join(variant_names())),
            Severity.ERROR, line, 1, None, "LCN-TAG"))
        report.complete = False
        return report

    state, problems = variant.setup(record)
    diagnostics.extend(_tag_diagnostic(record, p) for p in problems)
    snapshots = [variant.snapshot(state)] if keep_snapshots else None
    running = [variant.score(state).totals] if keep_running else None

    applying = True
    over_reported = False
    #: Written move numbers minus expected ones since the last wrong number: a turn left out
    #: (or written twice) shifts every later number, and only the first shift is reported.
    number_shift = 0
    #: The first turn that broke a rule: the problems of later turns that its variant lists
    #: as consequences (``Variant.consequences``) are warnings that name it.
    first_error: int | None = None
    previous_applied = False
    scanned = 0
    parse = variant.parse_move
    apply = variant.apply
    is_over = variant.is_over
    word_unit = variant.turn_unit == "word"
    keeping = snapshots is not None or running is not None
    for i, turn in enumerate(record.turns):
        turn_no = i + 1
        if turn.number is not None and applying:
            expected, plain = variant.move_number(state, i)
            wrong = None
            advice = None
            if number_shift and turn.number == expected:
                number_shift = 0  # one number was mistyped, and the numbering goes on as it was
            elif turn.number != expected + number_shift:
                wrong = msg("move number {number} where {expected} was expected",
                            number=turn.number, expected=expected + number_shift)
                advice = hint("number-shift", number=turn.number)
                number_shift = turn.number - expected
            elif word_unit and (turn.number_dots >= 3) == plain:
                want = f"{expected}." if plain else msg("{number}... (or no number)", number=expected)
                wrong = msg("move number with {dots} dot(s) here: expected {want}",
                            dots=turn.number_dots, want=want)
            if wrong is not None:
                # The caret goes under the number itself (``12.``), where the reader saw it.
                line, column = turn.number_at or (turn.line, turn.column)
                length = (turn.number_width or len(str(turn.number)) + turn.number_dots) \
                    if turn.number_at else 1
                diagnostics.append(Diagnostic("move-number", wrong, Severity.ERROR, line,
                                              column, turn_no, "LCN-MOVE-NUMBER", length,
                                              hint=advice))
        if not turn.text:
            diagnostics.append(Diagnostic("move-syntax", msg("empty turn: expected a move after the "
                                                             "move number"),
                                          Severity.ERROR, turn.line, turn.column,
                                          turn_no, "LCN-MOVE"))
            if applying:
                applying = False
                report.extra["unchecked_from"] = turn_no
            continue
        try:
            move = parse(state, turn.text)
        except MoveSyntaxError as exc:
            diagnostics.append(_turn_diagnostic(turn_no, turn, exc))
            if applying:
                # Where the position stops being known: later turns are read, not judged.
                applying = False
                report.extra["unchecked_from"] = turn_no
            continue
        if not applying:
            continue
        if is_over(state):
            if not over_reported:
                over_reported = True
                extra = len(record.turns) - i
                severity, note = _consequence(diagnostics)
                diagnostics.append(Diagnostic(
                    "after-game-end",
                    msg("the game ended at turn {turn} ({reason}); this turn and the {later} "
                        "after it cannot be played{note}", turn=i, reason=variant.end_reason(state),
                        later=extra - 1, note=note) if extra > 1 else
                    msg("the game ended at turn {turn} ({reason}); this turn cannot be "
                        "played{note}", turn=i, reason=variant.end_reason(state), note=note),
                    severity, turn.line, turn.column, turn_no,
                    variant.rule_game_over, len(turn.text)))
            continue
        if i and turn.text == record.turns[i - 1].text and previous_applied:
            # The same turn twice in a row: legal at times (two uncovers of a card that has
            # two copies), but when playing it again breaks a rule it was written twice: its
            # problems are reported, the first with a hint, and it is left out.
            trial = variant.copy_state(state)
            attempt = apply(trial, move)
            again = [p for p in attempt if p.severity is Severity.ERROR]
            if again and _fits_better_without(variant, state, trial, record, i):
                again[0].hint = again[0].hint or hint("repeated-turn")
                for problem in attempt:
                    if problem is not again[0] and problem.code in variant.consequences:
                        problem = replace(problem, severity=Severity.WARNING)
                    diagnostics.append(_turn_diagnostic(turn_no, turn, problem))
                previous_applied = False
                if snapshots is not None:
                    snapshots.append(variant.snapshot(state))
                if running is not None:
                    running.append(variant.score(state).totals)
                continue
            state = trial
            broken = attempt
        else:
            broken = apply(state, move)
        previous_applied = True
        while first_error is None and scanned < len(diagnostics):
            if _breaks_a_rule(diagnostics[scanned]):
                first_error = diagnostics[scanned].turn
            scanned += 1
        if broken:
            slipped = first_error is not None
            for problem in broken:
                if slipped and problem.severity is Severity.ERROR \
                        and problem.code in variant.consequences:
                    problem = replace(problem, severity=Severity.WARNING,
                                      message=msg("{message} (which may follow from the error "
                                                  "at turn {turn})", message=problem.message,
                                                  turn=first_error))
                diagnostics.append(_turn_diagnostic(turn_no, turn, problem))
        if keeping:
            if snapshots is not None:
                snapshots.append(variant.snapshot(state))
            if running is not None:
                running.append(variant.score(state).totals)

    report.state = state
    report.complete = applying
    report.snapshots = snapshots
    report.running = running
    report.over = applying and is_over(state)
    report.score = variant.score(state)
    if applying:
        for end_problem in variant.end_problems(state, record):
            diagnostics.append(_tag_diagnostic(record, end_problem))
    _check_termination(report, variant)
    return report


#: Tag names that LCN reads (in any game), spelled as the specifications spell them.
KNOWN_TAGS = ("Event", "Site", "Date", "Round", "Result", "Variant", "Annotator", "Expeditions",
              "Hand1", "Hand2", "Deck", "PileSizes", "Sheet",
              *(f"Player{n}" for n in range(1, 6)), *(f"Wagers{n}" for n in range(1, 5)),
              *(f"Pile{n}" for n in range(1, 5)))
_KNOWN_FOLDED = {name.casefold(): name for name in KNOWN_TAGS}
#: The tag names of ``_KNOWN_FOLDED`` as they are spelled there: no case to fold (most tags).
_KNOWN_AS_WRITTEN = frozenset(_KNOWN_FOLDED.values())


def _check_tag_case(record: GameRecord, diagnostics: list[Diagnostic]) -> None:
    """Warn of a tag written in another case than a tag LCN reads (``[variant "rivals"]``).

    Tag names are case-sensitive, so such a tag is kept as an unknown one and means nothing:
    the game is read as if it were absent, and the warning says which spelling was meant.
    """
    for name in record.tags:
        meant = _KNOWN_FOLDED.get(name.casefold())
        if meant is not None and meant != name and meant not in record.tags:
            line = record.tags.lines.get(name, record.line)
            diagnostics.append(Diagnostic(
                "tag-case", msg("the tag `{name}` is not `{meant}`: tag names are case-sensitive, so "
                                "it is kept as an unknown tag and the game is read without {meant}",
                                name=name, meant=meant),
                Severity.WARNING, line, 1 if line else None, None, "LCN-TAG", len(name) + 1,
                hint=hint("wrong-case", written=name, meant=meant)))


def _check_termination(report: GameReport, variant: Variant[Any, Any]) -> None:
    record = report.record
    diagnostics = report.diagnostics
    text = record.termination
    if text is None:
        return
    line, column = record.termination_line, record.termination_column
    tag = record.tags.get("Result")
    if tag is not None and tag.strip() != text:
        diagnostics.append(Diagnostic(
            "result-tag-mismatch", msg('the Result tag says "{tag}" but the movetext ends with '
                                       '`{text}`', tag=tag, text=text),
            Severity.ERROR, record.tags.lines.get("Result", line), 1, None,
            "LCN-TERMINATION"))
    scores = parse_termination(text)
    if scores is None:
        if text != "*":
            diagnostics.append(Diagnostic(
                "result-syntax", msg("a score of the termination has more than {limit} "
                                     "digits: expected the final scores or `*`",
                                     limit=MAX_SCORE_DIGITS),
                Severity.ERROR, line, column, None,
                "LCN-TERMINATION", min(len(text), 80)))
        return
    players = report.players
    if len(scores) != len(players):
        diagnostics.append(Diagnostic(
            "result-syntax", msg("`{text}` gives {scores} scores for {players} players",
                                 text=text, scores=len(scores), players=len(players)),
            Severity.ERROR, line, column, None, "LCN-TERMINATION", len(text)))
        return
    if not report.complete:
        return
    severity, note = _consequence(diagnostics)
    if not report.over:
        diagnostics.append(Diagnostic(
            "game-unfinished", msg("the record ends before the game does ({progress}): end an "
                                   "unfinished record with `*`{note}",
                                   progress=variant.progress(report.state), note=note),
            severity, line, column, None, variant.rule_result, len(text)))
        return
    assert report.score is not None
    if scores != report.score.totals:
        computed = ":".join(str(t) for t in report.score.totals)
        diagnostics.append(Diagnostic(
            "result-mismatch", msg("the final scores are {computed}, not {text}{note}",
                                   computed=computed, text=text, note=note), severity,
            line, column, None, variant.rule_result, len(text)))


def _fits_better_without(variant: Variant[Any, Any], state: Any, played: Any, record: GameRecord,
                         index: int) -> bool:
    """Whether the turn after ``index`` breaks fewer rules if turn ``index`` is left out.

    A turn written twice is left out; but a slip can also make a turn read like the one
    before it by chance (a card miswritten as the previous player's), and then the next turn
    fits the game with it played. ``played`` is the state with the turn played.
    """
    if index + 1 >= len(record.turns):
        return True
    try:
        following = variant.parse_move(state, record.turns[index + 1].text)
    except MoveSyntaxError:
        return True

    def errors_after(base: Any) -> int:
        if variant.is_over(base):
            return 1  # the turn after would come after the end
        trial = variant.copy_state(base)
        return sum(1 for p in variant.apply(trial, following) if p.severity is Severity.ERROR)

    return errors_after(state) <= errors_after(played)


def _breaks_a_rule(diagnostic: Diagnostic) -> bool:
    """Whether a diagnostic is an error of a turn that changes the game from there on.

    A wrong move number does not: the turns are played the same whatever their numbers
    (and the writer renumbers them), so it never turns later problems into warnings.
    """
    return diagnostic.is_error and diagnostic.turn is not None and diagnostic.code != "move-number"


def _consequence(diagnostics: list[Diagnostic]) -> tuple[Severity, str]:
    """How to report a problem that an earlier error in a turn may explain.

    A turn left out, written twice or mangled changes the game from there on: the end comes
    sooner or later and the scores differ. Once a turn broke a rule, those consequences are
    warnings that name it, so that one slip gives one error; the game is invalid anyway.
    """
    first = next((d for d in diagnostics if _breaks_a_rule(d)), None)
    if first is None:
        return Severity.ERROR, ""
    # The note follows a message directly, hence its leading space.
    return Severity.WARNING, msg(" (which may follow from the error at turn {turn})", turn=first.turn)


def validate_games(records: Iterable[GameRecord], matches: MatchChecks | None = None,
                   **options: Any) -> Iterator[GameReport]:
    """Validate games in order, adding the checks that span games (matches).

    ``matches`` carries those checks on from the games of other sources: a match split over
    several files given in order keeps its running totals (docs/spec.md §6.4).
    """
    if matches is None:
        matches = MatchChecks()
    for index, record in enumerate(records, 1):
        report = validate_record(record, index, **options)
        matches.add(report)
        yield report


class MatchChecks:
    """The checks that span games, fed the reports in file order.

    Each variant keeps its own tracker (a classic match is three classic games in a row), so
    a file mixing variants checks each variant's games apart. One run of games, whether
    validated in this process or in several, goes through one of these.
    """

    def __init__(self) -> None:
        self._trackers: dict[str, Any] = {}

    def add(self, report: GameReport) -> None:
        if report.variant is None:
            return
        name = report.variant.name
        if name not in self._trackers:
            self._trackers[name] = report.variant.match_tracker()
        tracker = self._trackers[name]
        if tracker is not None:
            tracker.add(report)


def validate(source: Source, **options: Any) -> Iterator[GameReport]:
    """Read and validate every game of a source, streaming.

    File-level problems (an empty file) are on the reader: use :class:`ValidationRun` to get
    them too.
    """
    return validate_games(Reader(source, express=_express_reading(options)), **options)


def _express_reading(options: dict[str, Any]) -> bool:
    """Whether to read for the express check: not when every turn's position is wanted."""
    return options.get("express", True) and not options.get("keep_snapshots") \
        and not options.get("keep_running")


class ValidationRun:
    """Validates a whole source and keeps the file-level diagnostics beside the games.

    ``matches`` is given to carry the checks of matches over from the sources before (a
    match in several files); by default the run has its own.
    """

    def __init__(self, source: Source, *, matches: MatchChecks | None = None,
                 **options: Any) -> None:
        self.reader = Reader(source, express=_express_reading(options))
        self.matches = matches
        self.options = options

    def __iter__(self) -> Iterator[GameReport]:
        return validate_games(self.reader, self.matches, **self.options)

    @property
    def file_diagnostics(self) -> list[Diagnostic]:
        return self.reader.file_diagnostics
