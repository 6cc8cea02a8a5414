"""Every importer, detection, the reader and the lexer cost time linear in their input.

Three kinds of checks (no wall-clock time is measured):

* a static audit of every regular expression in ``lcn/``, ``cli/`` and ``replay_server/``
  (found by walking the modules' globals and classes, and their source for patterns written
  inline), each read in the way it is used (``fullmatch``, ``match`` or a search): no two
  unbounded quantifiers that can share characters (``tests/regex_audit.py``), and nothing
  ``regexploit`` reports. The regular expression engine's work is invisible to Python's
  profiler, so this is where a pattern that backtracks is caught;
* the Python-level work, counted as calls with ``sys.setprofile`` (deterministic), grows in
  proportion to the input: the count on 4n characters is at most 4.5 times that on n;
* each entry point runs on lines of 1 MB (spaces, repeated tokens of its own format, every
  character class) in a child process whose CPU time is capped by ``RLIMIT_CPU``. The cap is
  generous (a linear pass takes a few seconds; one quadratic step over 1 MB takes hours), so
  it separates the two without timing anything closely.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import re
import resource
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fuzz import long_inputs as linear_inputs
from tests import regex_audit

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("lcn", "cli", "replay_server")
_SEARCHING = {"search", "finditer", "findall", "sub", "subn", "split"}
_MODE_OF = {"fullmatch": "full", "match": "match", **dict.fromkeys(_SEARCHING, "search")}


def _module_names() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).with_suffix("")
            parts = list(relative.parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            # Alembic's migration scripts run only inside Alembic (env.py reads its context
            # when imported) and hold no regular expression.
            if not name.startswith("replay_server.migrations."):
                names.append(name)
    return names


def _patterns_in(value: object, depth: int = 0) -> Iterator[re.Pattern[str]]:
    if isinstance(value, re.Pattern):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _patterns_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, depth + 1)


class _Uses(ast.NodeVisitor):
    """How a module's source uses its patterns: global name (or container) → modes."""

    def __init__(self) -> None:
        self.modes: dict[str, set[str]] = {}
        self.inline: list[tuple[int, str, str, int]] = []  # (line, pattern, mode, flags)
        self.unchecked: list[str] = []
        self.loops: list[dict[str, str]] = [{}]
        self.depth = 0

    def visit_For(self, node: ast.For) -> None:
        bound: dict[str, str] = {}
        if isinstance(node.iter, ast.Name):
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name):
                    bound[target.id] = node.iter.id
        self.loops.append({**self.loops[-1], **bound})
        self.generic_visit(node)
        self.loops.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # A method taken (``match = _TOKEN.match``) counts as much as one called.
        if node.attr in _MODE_OF:
            mode = _MODE_OF[node.attr]
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id != "re":
                name = self.loops[-1].get(owner.id, owner.id)
                self.modes.setdefault(name, set()).add(mode)
            elif isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name):
                self.modes.setdefault(owner.attr, set()).add(mode)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _MODE_OF and \
                isinstance(func.value, ast.Name) and func.value.id == "re":
            self._inline(node, _MODE_OF[func.attr])
        elif isinstance(func, ast.Attribute) and func.attr == "compile" and \
                isinstance(func.value, ast.Name) and func.value.id == "re" and self.depth:
            self.unchecked.append(f"line {node.lineno}: a pattern compiled in a function (compile "
                                  "it at module level, where the audit finds it)")
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def _inline(self, node: ast.Call, mode: str) -> None:
        if not node.args or not isinstance(node.args[0], ast.Constant) or \
                not isinstance(node.args[0].value, str):
            self.unchecked.append(f"line {node.lineno}: re.{ast.unparse(node.func)} of a pattern "
                                  "that is not a literal")
            return
        flags = 0
        for arg in [*node.args[1:], *(k.value for k in node.keywords if k.arg == "flags")]:
            for part in ast.walk(arg):
                if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and \
                        part.value.id == "re" and isinstance(getattr(re, part.attr, None), re.RegexFlag):
                    flags |= getattr(re, part.attr)
        self.inline.append((node.lineno, node.args[0].value, mode, flags))


def _collect() -> list[tuple[str, str, str, int]]:
    """(where, pattern, mode, flags) for every regular expression of the packages.

    A pattern is checked in every way any module uses it, under any of its names; one whose
    use cannot be seen (kept in a container, passed elsewhere) is checked as a search, the
    strictest.
    """
    found: list[tuple[str, str, str, int]] = []
    held: dict[int, tuple[str, re.Pattern[str], set[str]]] = {}
    for module_name in _module_names():
        module = importlib.import_module(module_name)
        source = inspect.getsource(module)
        uses = _Uses()
        uses.visit(ast.parse(source))
        assert not uses.unchecked, f"{module_name}: {uses.unchecked}"
        for line, pattern, mode, flags in uses.inline:
            found.append((f"{module_name}:{line}", pattern, mode, flags))
        holders: list[tuple[str, object]] = list(vars(module).items())
        for name, value in list(holders):
            if inspect.isclass(value) and value.__module__ == module.__name__:
                holders.extend((f"{name}.{attr}", item) for attr, item in vars(value).items())
        for name, value in holders:
            for pattern in _patterns_in(value):
                _where, _, modes = held.setdefault(id(pattern), (f"{module_name}.{name}", pattern, set()))
                modes |= uses.modes.get(name.rsplit(".", 1)[-1], set())
    for where, pattern, modes in held.values():
        for mode in sorted(modes or {"search"}):
            found.append((where, pattern.pattern, mode, pattern.flags))
    from lcn.pygments_lexer import LCNLexer

    for state, rules in LCNLexer.tokens.items():
        for rule in rules:
            if isinstance(rule, tuple) and isinstance(rule[0], str):
                # RegexLexer matches each rule at the position the last token ended.
                found.append((f"LCNLexer.tokens[{state}]", rule[0], "match", LCNLexer.flags))
    from werkzeug.routing import BaseConverter

    import replay_server

    for value in vars(replay_server).values():
        if inspect.isclass(value) and issubclass(value, BaseConverter) and value is not BaseConverter:
            found.append((f"replay_server.{value.__name__}.regex", value.regex, "match", 0))
    return found


PATTERNS = _collect()


def test_the_audit_finds_what_it_should() -> None:
    for pattern, mode, unsafe in regex_audit.examples():
        found = regex_audit.audit(pattern, mode)
        assert (found is not None) == unsafe, (pattern, mode, found)


def test_every_pattern_was_found() -> None:
    where = {w.split(":")[0].split(".")[1] if "." in w else w for w, *_ in PATTERNS}
    assert {"importers", "reader", "variants"} <= where | {w.split(".")[1] for w, *_ in PATTERNS}
    texts = {p for _, p, _, _ in PATTERNS}
    from lcn.importers import brdgme, narrated

    assert narrated._TAG.pattern in texts and brdgme._STAMP.pattern in texts
    assert len(PATTERNS) > 60


@pytest.mark.parametrize(("where", "pattern", "mode", "flags"), PATTERNS,
                         ids=[f"{w}-{m}-{i}" for i, (w, _, m, _) in enumerate(PATTERNS)])
def test_no_pattern_backtracks_more_than_linearly(where: str, pattern: str, mode: str,
                                                   flags: int) -> None:
    assert regex_audit.audit(pattern, mode, flags) is None, \
        f"{where}: {pattern!r} ({mode}): {regex_audit.audit(pattern, mode, flags)}"


def test_regexploit_finds_nothing() -> None:
    """regexploit (PyPI) as a second opinion, on the patterns it can read.

    It predates Python 3.11 and cannot parse possessive quantifiers or atomic groups; those
    patterns are the ones the audit above reads.
    """
    sre = pytest.importorskip("regexploit.ast.sre")
    from regexploit.redos import find

    reported, read = [], 0
    for where, pattern, _mode, flags in PATTERNS:
        try:
            parsed = sre.SreOpParser().parse_sre(pattern, flags)
        except AttributeError:  # from_POSSESSIVE_REPEAT, from_ATOMIC_GROUP
            assert "+" in pattern or "(?>" in pattern, pattern
            continue
        read += 1
        reported.extend((where, pattern, str(r)) for r in find(parsed))
    assert not reported
    assert read > len(PATTERNS) // 2


# -- dynamic: the entry points on long inputs -------------------------------------------------

#: Entry points, by name: what they read (a format of fuzz/long_inputs.py) and a call.
ENTRY_POINTS = ("detect", "lcn", "json", "openspiel", "metapyziks", "brdgme", "text", "reader",
                "lexer")
_FORMAT_OF = {"reader": ("lcn",), "lexer": ("lcn",), "detect": tuple(linear_inputs.TOKENS)}


def entry_point(name: str) -> Callable[[str], object]:
    """The function of one entry point; the errors it documents for bad input are caught."""
    from lcn.importers import ImportError_, detect, get_importer
    from lcn.reader import Reader

    if name == "detect":
        call: Callable[[str], object] = detect
    elif name == "reader":
        def call(text: str) -> object:
            return list(Reader(text))
    elif name == "lexer":
        from lcn.pygments_lexer import LCNLexer

        lexer = LCNLexer()

        def call(text: str) -> object:
            return list(lexer.get_tokens_unprocessed(text))
    else:
        call = get_importer(name).read

    def guarded(text: str) -> object:
        try:
            return call(text)
        except ImportError_:
            return None
    return guarded


#: How many runs and tokens of each format the 1 MB test gives each entry point: all of them
#: to an importer; to detection (which runs every importer) and to the reader and the
#: highlighter, the first few, to keep the test's cost down (the step counts see them all).
_MOST = {"detect": 3, "reader": 6, "lexer": 6}


def cases(name: str, size: int, most: int | None = None) -> dict[str, str]:
    found: dict[str, str] = {}
    for fmt in _FORMAT_OF.get(name, (name,)):
        found.update({f"{fmt}-{key}": text
                      for key, text in linear_inputs.inputs(fmt, size, most).items()})
    return found


def calls(function: Callable[[str], object], text: str) -> int:
    """The Python and C function calls one call makes: a count of steps that does not vary."""
    count = 0

    def profile(_frame: object, event: str, _arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        function(text)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_steps_grow_in_proportion_to_the_input(name: str) -> None:
    function = entry_point(name)
    small, large = cases(name, 3_000), cases(name, 12_000)
    worse = {}
    for key in small:
        a, b = calls(function, small[key]), calls(function, large[key])
        if b > 4.5 * a + 2_000:
            worse[key] = (a, b)
    assert not worse, f"{name}: calls on n and 4n characters: {worse}"


_CHILD = textwrap.dedent("""
    import sys
    from tests.test_linear_cost import _MOST, cases, entry_point
    name, size = sys.argv[1], int(sys.argv[2])
    function = entry_point(name)
    for key, text in cases(name, size, _MOST.get(name)).items():
        function(text)
        print(key, flush=True)
""")

#: CPU seconds one child may use for all the 1 MB inputs of one entry point: tens of times what
#: a linear pass takes on a loaded machine, and a tiny part of what a quadratic one would.
CPU_LIMIT = 900
#: Memory for one child: a few hundred bytes for each character of input, for a few inputs.
MEMORY_LIMIT = 2 * 1024**3


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.mark.slow
@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_lines_of_a_megabyte(name: str) -> None:
    result = subprocess.run([sys.executable, "-c", _CHILD, name, str(1_000_000)], cwd=ROOT,
                            capture_output=True, text=True, preexec_fn=_limits,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    done = result.stdout.split()
    expected = list(cases(name, 10, _MOST.get(name)))
    assert result.returncode == 0 and done == expected, (
        f"{name}: stopped after {done[-1:] or 'nothing'} (exit {result.returncode}): "
        f"{result.stderr[-2000:]}")


# -- static: Python loops that copy what they work on -------------------------------------------

#: Loop shapes the audit finds that were read and are bounded, by file and line of code, each
#: with why (the audit cannot see how large what is copied or searched can be).
LOOP_ALLOWED: dict[tuple[str, str], str] = {
    ("lcn/parallel.py", "data = data[os.write(self.tasks, data):]"):
        "a memoryview: slicing it copies nothing",
    ("lcn/parallel.py", "data = data[os.write(results, data):]"):
        "a memoryview: slicing it copies nothing",
    ("lcn/variants/classic_play.py",
     "drawn = tables.names[core.piles[config.colours.index(move.draw)][-1]]"):
        "the colour letters of a card set: five or six",
    ("lcn/variants/rivals.py", "if card not in state.display and state.lost and state.free[card] > 0:"):
        "the display: a handful of cards; a card a lost turn uncovered is added once per copy "
        "left, and the placement being read takes it",
    ("lcn/variants/rivals.py", "if card not in state.display:"):
        "the display: a handful of cards; a card a lost turn uncovered is added once per copy "
        "left, and the placement being read takes it",
    ("lcn/variants/rollwrite_play.py", "colours = [COLOURS.index(rng.choice(COLOURS)) for _ in range(3)]"):
        "the six colours of the dice",
    ("lcn/games/rivals/core.py", "if card not in display:"):
        "the display: a handful of cards, one removed for each added",
    ("lcn/games/rivals/core.py", "if phase == BOXED or card not in display:"):
        "the display: a handful of cards, one removed for each added",
    ("lcn/variants/rollwrite.py", "if column in found:"):
        "at most the 8 columns (a column named twice is refused)",
    ("lcn/variants/rollwrite.py", "if found is None or found in seats:"):
        "at most the players (a player named twice is refused)",
    ("lcn/variants/rollwrite.py",
     'what = msg("twice") if found in seats else msg("an unknown player")'):
        "at most the players, once, before an error",
    ("lcn/variants/rollwrite.py", "if source not in used:"):
        "the layouts of one game: a few",
    ("lcn/variants/rollwrite.py", "if choice.seat in seen:"):
        "at most the players (a second choice of one is refused)",
    ("lcn/variants/rollwrite.py", "and expected[index] not in seen:"):
        "at most the players",
    ("lcn/writer.py", "suffix = glyphs.pop(0)"):
        "once for each turn, on that turn's own copy of its glyphs",
    ("cli/io.py", 'end = data.find(b"\\n") + 1'):
        "the reader asks for lines of at most MAX_LINE + 1 bytes: a few searches of a bounded line",
    ("replay_server/api.py", 'path = path.replace(f"<{converter}", "<")'):
        "four replacements in a route of the site's own",
    ("replay_server/preview.py", "text = text[:-1]"):
        "a name or title already cut to what the preview shows",
}


def _loop_findings() -> dict[tuple[str, str], str]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for finding in regex_audit.loop_findings(path.read_text(encoding="utf-8")):
                found[(where, finding.code.split("  #")[0].strip())] = \
                    f"{where}:{finding.line}: {finding.rule}"
    return found


def test_the_loop_audit_finds_what_it_should() -> None:
    for code, flagged in regex_audit.loop_examples():
        assert bool(regex_audit.loop_findings(code)) == flagged, (code, regex_audit.loop_findings(code))


def test_the_loop_audit_finds_the_trailing_comma_loop() -> None:
    """The shape that made a narrated line of commas quadratic (``words = words[:-1]`` while the
    last word is a comma), as it was written: the audit must see it."""
    source = textwrap.dedent("""
        def clause(self, line, clause):
            words = clause.words[1:]
            while words and words[-1].folded in CONJUNCTIONS:
                words = words[:-1]
    """)
    assert [f.rule for f in regex_audit.loop_findings(source)] == \
        ["`words` is replaced by a slice of itself at each step"]


def test_no_loop_copies_what_it_works_on() -> None:
    unexplained = [where for key, where in _loop_findings().items() if key not in LOOP_ALLOWED]
    assert not unexplained, "loops whose cost may grow with the input:\n" + "\n".join(unexplained)


# -- dynamic: the hostile shapes of the importers -----------------------------------------------

def _mail(body: str, headers: str = "Content-Transfer-Encoding: base64\n"
          "Content-Type: text/plain; charset=punycode\n\n") -> str:
    return ("From play@brdg.me Mon Jan  1 00:00:00 2024\nSubject: Your turn\nFrom: play@brdg.me\n"
            "MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=B\n\n--B\n"
            + headers + body + "\n--B--\n")


def _punycode(n: int) -> str:
    import base64

    letters = "".join(chr(0x400 + i * 7 % 500) for i in range(n)).encode("punycode")
    return _mail(base64.b64encode(letters).decode("ascii"))


def _nested(n: int) -> str:
    opening = "".join(f"--B{i}\nContent-Type: multipart/mixed; boundary=B{i + 1}\n\n"
                      for i in range(n // 60))
    return _mail("", "Content-Type: multipart/mixed; boundary=B0\n\n" + opening)


#: Shapes that once cost more than linear steps or memory (tests/test_importer_bounds.py has
#: each with its figures), by name: a text of about ``n`` characters.
HOSTILE: dict[str, Callable[[int], str]] = {
    "trailing-commas": lambda n: "Ada plays the red 7\nAda drew " + "," * n + "!\n",
    "player-names": lambda n: "".join(f"Players: a{i}, b{i}\n" for i in range(n // 40)) + (
        "Ada plays the red 7\nAda draws from the draw pile\n" * (n // 40)),
    "punycode-body": _punycode,
    "nested-mime": _nested,
    "number-run": lambda n: ("0, 0, " + ", ".join(["1"] * n))[:n],
    "number-lines": lambda n: ("0\n0\n" + "\n".join(["1"] * n))[:n],
}


@pytest.mark.parametrize("entry", ["detect", "import"])
@pytest.mark.parametrize("shape", list(HOSTILE))
def test_hostile_shapes_cost_steps_in_proportion(shape: str, entry: str) -> None:
    from lcn.importers import ImportError_, detect, import_text

    def run(text: str) -> object:
        try:
            return detect(text) if entry == "detect" else import_text(text)
        except ImportError_:
            return None

    make = HOSTILE[shape]
    small, large = calls(run, make(3_000)), calls(run, make(12_000))
    assert large <= 4.5 * small + 2_000, f"{shape} ({entry}): calls on n and 4n: {small}, {large}"


def _reading_cpu(text: str) -> float:
    """CPU time of reading and validating ``text``, the cyclic garbage collector off: its
    passes over the objects a long line makes grow with them, and their share moved the
    ratio from 15 to 45 on a loaded machine, where the copies this looks for give over 60."""
    import gc

    import lcn

    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        for _ in lcn.ValidationRun(text):
            pass
        return time.process_time() - start
    finally:
        gc.enable()


def test_numbers_glued_over_a_whole_line_cost_linear_time() -> None:
    """`1.1.1.…` over a line: each number cut the rest of the word off, a copy per number
    (0.8 s at 100,000 numbers, 6.3 s at 400,000). Slices are no calls, so this is timed, as a
    ratio of CPU time in one process on inputs 16 times apart (the best of two), with room
    for a loaded machine: linear gives about 16, the copies gave over 60."""
    head = '[Player1 "A"]\n[Player2 "B"]\n\n'
    small = min(_reading_cpu(head + "1." * 31_250 + "\n") for _ in range(2))
    large = min(_reading_cpu(head + "1." * 500_000 + "\n") for _ in range(2))
    assert large < 28 * small, (small, large)
