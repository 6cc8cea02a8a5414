"""A static audit of regular expressions for backtracking that grows faster than the input.

Python's ``re`` is a backtracking engine: two unbounded quantifiers that can share the same
characters (``\\s*(.+?)\\s*:``, ``(a+)+``) make it try every way of splitting a run between
them before it fails, which costs n² or n³ steps on a run of n such characters. This module
finds such pairs in a pattern as ``re._parser`` parses it.

Why it is written here: ``regexploit`` (run as well by ``tests/test_linear_cost.py``) reports
only cubic and worse cases (it skips anything of "starriness" 2 or less) and reads every
pattern as anchored, so the quadratic cases that matter here, and the extra factor n that
``search``, ``finditer``, ``sub`` and ``split`` add by trying every start, are not its
business. The check follows regexploit's idea (intersect the character classes along a
sequence, from an unbounded quantifier until they run out) with three changes:

* an ambiguous pair is two unbounded quantifiers (not three);
* a pattern used to search gets an implicit lazy "any character" quantifier in front, which
  is what trying every start amounts to (``^``/``\\A`` anchor it again);
* a pair only counts when something after it can fail (an element that consumes, an
  assertion, or the end a ``fullmatch`` requires): otherwise the first split tried succeeds.

An unbounded repeat of a group is checked as two copies of the group one after the other,
which finds ``(a+)+`` and lets ``(?::\\d+)+`` (each copy starts with ``:``) pass. Possessive
quantifiers (``*+``, ``++``) and atomic groups (``(?>...)``) give nothing back and never start
a pair. Character classes are compared over a sample alphabet (Latin-1 and a few characters of
other classes: spaces, digits, letters, marks and line separators of Unicode).
"""

from __future__ import annotations

import re
import re._constants as C
import re._parser as P
from dataclasses import dataclass

#: The characters classes are compared on.
ALPHABET: tuple[str, ...] = tuple(chr(i) for i in range(256)) + tuple(
    "\u2028\u2029\u3000\u2003\u0660\u0663\uff12\U0001d7d0\u00b2\u2460\u0301\u2019\u00e4\u0416"
    "\u4e2d\u05d0\U0001f600\ufeff\ud800")
_ALL = frozenset(ALPHABET)
_UNBOUNDED = C.MAXREPEAT
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)
#: How many branch-free sequences one pattern may expand to before the audit gives up.
_EXPANSION_LIMIT = 20000


def _category(name: object, char: str) -> bool:
    if name in (C.CATEGORY_SPACE, C.CATEGORY_UNI_SPACE):
        return bool(re.fullmatch(r"\s", char))
    if name in (C.CATEGORY_NOT_SPACE, C.CATEGORY_UNI_NOT_SPACE):
        return not re.fullmatch(r"\s", char)
    if name in (C.CATEGORY_DIGIT, C.CATEGORY_UNI_DIGIT):
        return bool(re.fullmatch(r"\d", char))
    if name in (C.CATEGORY_NOT_DIGIT, C.CATEGORY_UNI_NOT_DIGIT):
        return not re.fullmatch(r"\d", char)
    if name in (C.CATEGORY_WORD, C.CATEGORY_UNI_WORD):
        return bool(re.fullmatch(r"\w", char))
    if name in (C.CATEGORY_NOT_WORD, C.CATEGORY_UNI_NOT_WORD):
        return not re.fullmatch(r"\w", char)
    if name in (C.CATEGORY_LINEBREAK, C.CATEGORY_UNI_LINEBREAK):
        return char == "\n"
    return char != "\n"


def _variants(char: str, flags: int) -> set[str]:
    if not flags & re.IGNORECASE:
        return {char}
    return {v for v in (char, char.lower(), char.upper(), char.casefold()) if len(v) == 1}


def _leaf_chars(op: object, av: object, flags: int) -> frozenset[str]:
    """The sample characters one character-consuming element matches."""
    if op is C.ANY:
        return _ALL if flags & re.DOTALL else _ALL - {"\n"}
    if op is C.LITERAL:
        target = chr(av)  # type: ignore[arg-type]
        return frozenset(c for c in ALPHABET if target in _variants(c, flags)
                         or c in _variants(target, flags))
    if op is C.NOT_LITERAL:
        return _ALL - _leaf_chars(C.LITERAL, av, flags)
    if op is C.IN:
        items = list(av)  # type: ignore[call-overload]
        negate = bool(items) and items[0][0] is C.NEGATE
        if negate:
            items = items[1:]
        found: set[str] = set()
        for sub_op, sub_av in items:
            if sub_op is C.LITERAL:
                found |= _leaf_chars(C.LITERAL, sub_av, flags)
            elif sub_op is C.RANGE:
                low, high = sub_av
                found |= {c for c in ALPHABET if any(low <= ord(v) <= high for v in _variants(c, flags))}
            elif sub_op is C.CATEGORY:
                found |= {c for c in ALPHABET if _category(sub_av, c)}
            else:  # NOT_LITERAL inside a class and the like: assume anything
                found |= _ALL
        return _ALL - found if negate else frozenset(found)
    raise ValueError(f"not a character element: {op}")


@dataclass(frozen=True)
class Element:
    """One step of a branch-free sequence."""

    chars: frozenset[str]  # what it can consume
    first: frozenset[str]  # what its first character can be
    min: int  # the fewest characters it consumes
    unbounded: bool  # a quantifier without an upper bound
    gives_back: bool  # whether backtracking can make it give characters back
    fails: bool  # whether it can fail at all (an assertion can, though it consumes nothing)
    anchor: str = ""  # "start" for \A or ^ without MULTILINE, "line" for ^ with it
    text: str = ""
    #: A lookbehind of one character class: the characters the one before may be (or, for
    #: ``(?<!...)``, may not be).
    behind: frozenset[str] | None = None
    behind_negated: bool = False


def _subpattern_chars(items: list, flags: int) -> tuple[frozenset[str], frozenset[str], int]:
    """(chars, first chars, min length) of a subpattern, by a walk of its items."""
    chars: set[str] = set()
    first: set[str] = set()
    min_length = 0
    nullable_so_far = True
    for op, av in items:
        c, f, m = _item_chars(op, av, flags)
        chars |= c
        if nullable_so_far:
            first |= f
        min_length += m
        if m > 0:
            nullable_so_far = False
    return frozenset(chars), frozenset(first), min_length


def _item_chars(op: object, av: object, flags: int) -> tuple[frozenset[str], frozenset[str], int]:
    if op in (C.ANY, C.LITERAL, C.NOT_LITERAL, C.IN):
        c = _leaf_chars(op, av, flags)
        return c, c, 1
    if op in _REPEATS:
        low, _high, body = av  # type: ignore[misc]
        c, f, m = _subpattern_chars(list(body), flags)
        return c, f, low * m
    if op is C.SUBPATTERN:
        _group, add, remove, body = av  # type: ignore[misc]
        return _subpattern_chars(list(body), (flags | add) & ~remove)
    if op is C.ATOMIC_GROUP:
        return _subpattern_chars(list(av), flags)  # type: ignore[call-overload]
    if op is C.BRANCH:
        _, branches = av  # type: ignore[misc]
        parts = [_subpattern_chars(list(b), flags) for b in branches]
        return (frozenset().union(*(p[0] for p in parts)), frozenset().union(*(p[1] for p in parts)),
                min(p[2] for p in parts))
    if op is C.GROUPREF or op is C.GROUPREF_EXISTS:
        return _ALL, _ALL, 0
    return frozenset(), frozenset(), 0  # AT, ASSERT, ASSERT_NOT: zero-width


def _has_unbounded(items: list) -> bool:
    for op, av in items:
        if op in _REPEATS:
            inner = [av[2]] if av[1] != _UNBOUNDED else None
        elif op is C.SUBPATTERN:
            inner = [av[3]]
        elif op is C.ATOMIC_GROUP:
            inner = [av]
        elif op is C.BRANCH:
            inner = list(av[1])
        else:
            continue
        if inner is None or any(_has_unbounded(list(body)) for body in inner):
            return True
    return False


def _sequences(items: list, flags: int) -> list[list[Element]]:
    """Every branch-free sequence of elements the subpattern can take."""
    results: list[list[Element]] = [[]]
    for op, av in items:
        options = _options(op, av, flags)
        results = [head + tail for head in results for tail in options]
        if len(results) > _EXPANSION_LIMIT:
            raise ValueError("too many alternatives to check")
    return results


def _options(op: object, av: object, flags: int) -> list[list[Element]]:
    if op in (C.ANY, C.LITERAL, C.NOT_LITERAL, C.IN):
        c = _leaf_chars(op, av, flags)
        return [[Element(c, c, 1, False, False, True)]]
    if op is C.SUBPATTERN:
        _group, add, remove, body = av  # type: ignore[misc]
        return _sequences(list(body), (flags | add) & ~remove)
    if op is C.BRANCH:
        return [seq for branch in av[1] for seq in _sequences(list(branch), flags)]  # type: ignore[index]
    if op is C.ATOMIC_GROUP:
        c, f, m = _subpattern_chars(list(av), flags)  # type: ignore[call-overload]
        return [[Element(c, f, m, _has_unbounded(list(av)), False, True)]]  # type: ignore[call-overload]
    if op in _REPEATS:
        low, high, body = av  # type: ignore[misc]
        body = list(body)
        c, f, m = _subpattern_chars(body, flags)
        simple = len(body) == 1 and body[0][0] in (C.ANY, C.LITERAL, C.NOT_LITERAL, C.IN)
        if high == _UNBOUNDED:
            element = Element(c, f, low * m, True, op is not C.POSSESSIVE_REPEAT, True)
            if simple or op is C.POSSESSIVE_REPEAT:
                return [[element]]
            # Two copies of the body in a row show an ambiguity between iterations.
            twice = _sequences(body + body, flags)
            return [[element]] + ([[*seq, element] for seq in twice] if op is not C.POSSESSIVE_REPEAT
                                  else [])
        if simple:
            return [[Element(c, f, low * m, False, False, low > 0)]]
        counts = range(low, min(high, low + 2) + 1)
        return [seq for n in counts for seq in _sequences(body * n, flags)]
    if op is C.AT:
        anchor = ""
        if av in (C.AT_BEGINNING_STRING,) or (av is C.AT_BEGINNING and not flags & re.MULTILINE):
            anchor = "start"
        elif av is C.AT_BEGINNING:
            anchor = "line"
        return [[Element(frozenset(), frozenset(), 0, False, False, True, anchor)]]
    if op in (C.ASSERT, C.ASSERT_NOT):
        direction, body = av  # type: ignore[misc]
        body = list(body)
        if direction == -1 and len(body) == 1 and body[0][0] in (C.LITERAL, C.NOT_LITERAL, C.IN):
            guard = _leaf_chars(body[0][0], body[0][1], flags)
            return [[Element(frozenset(), frozenset(), 0, False, False, True, behind=guard,
                             behind_negated=op is C.ASSERT_NOT)]]
        return [[Element(frozenset(), frozenset(), 0, False, False, True)]]
    if op in (C.GROUPREF, C.GROUPREF_EXISTS):
        return [[Element(_ALL, _ALL, 0, True, True, True)]]
    raise ValueError(f"unknown regular expression element {op}")


def _lookarounds(items: list) -> list[list]:
    """The bodies of the lookaheads and lookbehinds, anywhere in the pattern."""
    found: list[list] = []
    for op, av in items:
        if op in (C.ASSERT, C.ASSERT_NOT):
            found.append(list(av[1]))
            found.extend(_lookarounds(list(av[1])))
        elif op in _REPEATS:
            found.extend(_lookarounds(list(av[2])))
        elif op is C.SUBPATTERN:
            found.extend(_lookarounds(list(av[3])))
        elif op is C.ATOMIC_GROUP:
            found.extend(_lookarounds(list(av)))
        elif op is C.BRANCH:
            for branch in av[1]:
                found.extend(_lookarounds(list(branch)))
    return found


def _pair_in(sequence: list[Element], full: bool) -> str | None:
    """A description of the first exploitable ambiguous pair in a sequence, or None."""
    for i, left in enumerate(sequence):
        if not (left.unbounded and left.gives_back):
            continue
        shared = left.chars
        touching = True  # nothing consumed since the left quantifier
        for j in range(i + 1, len(sequence)):
            right = sequence[j]
            if right.behind is not None and touching:
                # A split inside a run of shared characters has one of them before it.
                shared = shared - right.behind if right.behind_negated else shared & right.behind
                continue
            if right.chars:
                touching = False
            if right.anchor == "start":
                break
            if right.anchor == "line":
                shared = shared & {"\n"}
                if not shared:
                    break
                continue
            if right.unbounded and right.first & shared:
                tail = sequence[j + 1:]
                if full or any(e.min > 0 or e.fails for e in tail):
                    sample = "".join(sorted(right.first & shared))[:12]
                    return (f"elements {i + 1} and {j + 1} of the sequence can share "
                            f"{sample!r}")
                break
            if right.min == 0:
                continue
            shared = shared & right.chars
            if not shared:
                break
    return None


#: Modes of use: ``full`` (fullmatch), ``match`` (anchored at the start, may end anywhere),
#: ``search`` (search, finditer, findall, sub, split: tried at every start).
MODES = ("full", "match", "search")


def audit(pattern: str | re.Pattern[str], mode: str, flags: int = 0) -> str | None:
    """Why ``pattern`` may backtrack super-linearly when used in ``mode``, or None."""
    if isinstance(pattern, re.Pattern):
        flags |= pattern.flags
        pattern = pattern.pattern
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    parsed = P.parse(pattern, flags)
    flags = parsed.state.flags
    items = list(parsed.data)
    sequences = _sequences(items, flags)
    for sequence in sequences:
        if mode == "search":
            sequence = [Element(_ALL, _ALL, 0, True, True, True, text="(start)"), *sequence]
        found = _pair_in(sequence, full=mode == "full")
        if found is not None:
            return found
    for body in _lookarounds(items):
        for sequence in _sequences(body, flags):
            found = _pair_in(sequence, full=True)
            if found is not None:
                return "in a lookaround: " + found
    return None


def examples() -> list[tuple[str, str, bool]]:
    """(pattern, mode, whether it is unsafe) for the audit's own tests."""
    return [
        (r"\s*(.+?)\s*:?\s+(-?\d{1,9})", "full", True),
        (r"(.+?)\s*:\s*(\d+)", "full", True),
        (r"(a+)+b", "full", True),
        (r"(?:([^:]+?)\s*:\s*)?(draw)", "full", True),
        (r",|;|\s+-\s+", "search", True),
        (r"a+b", "search", True),
        (r"(.+?) drew a card, (\d{1,9}) remaining", "full", False),
        (r"(.+?) drew a card, (\d{1,9}) remaining", "search", True),
        (r"[^\s,]+|,", "search", False),
        (r"\{\{[^{}]*\}\}", "search", False),
        (r"-?\d+(?::-?\d+)+", "full", False),
        (r'"([^"\\]*(?:\\.[^"\\]*)*)"', "full", False),
        (r"(?>\s*)(.+?)", "full", False),
        (r"\s*+(.+?)\s*+:", "full", True),
        (r"(?>[^:]*):", "search", True),
        (r"(?<![^:])(?>[^:]*):", "full", False),
        (r"(.+?)(?<!\s)\s++x", "full", False),
        (r"(.+?)(?<=\s)\s++x", "full", True),
        (r"(?<!\s)\s++-", "search", False),
        (r"^\s*lost_cities\s*\(", "search", False),
        (r"\s+\s+", "match", False),
        (r"\s+\s+x", "match", True),
    ]


__all__ = ["MODES", "audit", "examples"]


# -- Python-level loops ------------------------------------------------------------------------
#
# The regular expression engine is not the only place where work can grow with the square of
# the input: a Python loop that copies what it works on at each step does too (``words =
# words[:-1]`` while the last word is a comma copies the list once per comma). The shapes
# below are found in the source by its syntax tree; each is quadratic only when what is copied
# or searched grows with the input, which the syntax cannot tell, so a finding is either
# rewritten or listed, with the reason it is bounded, where the audit is run.

#: Methods that return a new string (or list) made from the one they are called on.
_COPYING_METHODS = {"strip", "lstrip", "rstrip", "replace", "removeprefix", "removesuffix",
                    "lower", "upper", "casefold", "expandtabs", "copy"}


@dataclass(frozen=True)
class LoopFinding:
    """A shape of code in a loop whose cost per step may grow with the input."""

    line: int
    rule: str
    code: str


def _names_in(node: object) -> set[str]:
    import ast

    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}  # type: ignore[arg-type]


def _target_key(node: object) -> str | None:
    """A name or ``self.attr`` target as text, for comparing a target with its own use."""
    import ast

    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _copy_of_itself(target: str, value: object) -> str | None:
    """Which copy ``target = value`` makes of ``target`` itself, or None."""
    import ast

    def same(node: object) -> bool:
        return _target_key(node) == target

    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice) and same(value.value):
        return "a slice of itself"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
            value.func.attr in _COPYING_METHODS and same(value.func.value):
        return f".{value.func.attr}() of itself"
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and \
            (same(value.left) or same(value.right)):
        other = value.right if same(value.left) else value.left
        if isinstance(other, (ast.JoinedStr, ast.List, ast.Tuple)) or (
                isinstance(other, ast.Constant) and isinstance(other.value, (str, bytes))):
            return "itself with more appended"
    return None


class _LoopShapes:
    """Walks one module's tree and collects the shapes, loop by loop."""

    def __init__(self, source: str) -> None:
        import ast

        self.tree = ast.parse(source)
        self.lines = source.splitlines()
        self.found: list[LoopFinding] = []

    def add(self, node: object, rule: str) -> None:
        line = getattr(node, "lineno", 0)
        self.found.append(LoopFinding(line, rule, self.lines[line - 1].strip() if line else ""))

    def run(self) -> list[LoopFinding]:
        import ast

        for node in ast.walk(self.tree):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
                self.loop(node)
        seen: set[tuple[int, str]] = set()
        unique = []
        for finding in sorted(self.found, key=lambda f: (f.line, f.rule)):
            if (finding.line, finding.rule) not in seen:
                seen.add((finding.line, finding.rule))
                unique.append(finding)
        return unique

    def body(self, loop: object) -> list[object]:
        """The nodes of a loop's body, without those of functions defined in it."""
        import ast

        out: list[object] = []
        todo: list[object] = list(getattr(loop, "body", []))
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            out.append(node)
            todo.extend(ast.iter_child_nodes(node))
        return out

    def loop(self, loop: object) -> None:
        import ast

        assert isinstance(loop, (ast.For, ast.AsyncFor, ast.While))
        fresh = _names_in(loop.target) if isinstance(loop, (ast.For, ast.AsyncFor)) else set()
        nodes = self.body(loop)
        # A name assigned in the body from something else (before it is cut) starts afresh
        # at each step: it is cut once a step, not once for each step so far.
        starts: dict[str, int] = {}
        for node in nodes:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    key = _target_key(target)
                    if key is not None and key not in _names_in(node.value) and \
                            key.split(".")[-1] not in _names_in(node.value):
                        starts[key] = min(starts.get(key, node.lineno), node.lineno)
        appended = {key for node in nodes if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "extend")
                    and (key := _target_key(node.func.value)) is not None}
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                key = _target_key(node.targets[0])
                copy = _copy_of_itself(key, node.value) if key else None
                if copy and key not in fresh and starts.get(key or "", node.lineno) >= node.lineno:
                    self.add(node, f"`{key}` is replaced by {copy} at each step")
            elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
                key = _target_key(node.target)
                value = node.value
                if key and key not in fresh and starts.get(key, node.lineno) >= node.lineno and (
                        isinstance(value, ast.JoinedStr) or (
                            isinstance(value, ast.Constant) and isinstance(value.value, (str, bytes)))):
                    self.add(node, f"`{key}` grows by `+=` of a string at each step")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                attr, args = node.func.attr, node.args
                first = args[0] if args else None
                zero = isinstance(first, ast.Constant) and first.value == 0
                if attr == "pop" and zero:
                    self.add(node, "`.pop(0)` shifts the whole list at each step")
                elif attr == "insert" and zero:
                    self.add(node, "`.insert(0, ...)` shifts the whole list at each step")
                elif attr in ("find", "index", "count") and len(args) == 1 and \
                        isinstance(loop, ast.While) and not node.keywords:
                    self.add(node, f"`.{attr}()` from the start at each step of a `while` loop")
            elif isinstance(node, ast.Delete):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) \
                            and target.slice.value == 0:
                        self.add(node, "`del x[0]` shifts the whole list at each step")
            elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn))
                                                       for op in node.ops):
                for container in node.comparators:
                    key = _target_key(container)
                    if key in appended:
                        self.add(node, f"`in` on the list `{key}`, which the same loop grows")


def loop_findings(source: str) -> list[LoopFinding]:
    """Every shape in ``source`` that may make a loop's cost grow with the square of its input."""
    return _LoopShapes(source).run()


def loop_examples() -> list[tuple[str, bool]]:
    """(code, whether the loop audit flags it) for the audit's own tests."""
    return [
        ("while words and words[-1] == ',':\n    words = words[:-1]\n", True),
        ("while text.endswith(' '):\n    text = text.rstrip(' ')\n", True),
        ("for c in data:\n    out += f'{c},'\n", True),
        ("for c in data:\n    out = out + 'x'\n", True),
        ("while queue:\n    item = queue.pop(0)\n", True),
        ("for x in data:\n    seen.insert(0, x)\n", True),
        ("while True:\n    i = text.find('}')\n", True),
        ("for x in data:\n    if x not in seen:\n        seen.append(x)\n", True),
        ("while todo:\n    del todo[0]\n", True),
        ("for line in lines:\n    line = line.strip()\n", False),
        ("for raw in lines:\n    text = raw\n    text = text[1:]\n", False),
        ("end = len(words)\nwhile end and words[end - 1] == ',':\n    end -= 1\n", False),
        ("while True:\n    i = text.find('}', i + 1)\n", False),
        ("for x in data:\n    total = total + 1\n", False),
        ("for x in data:\n    if x not in seen:\n        seen.add(x)\n", False),
        ("while queue:\n    item = queue.popleft()\n", False),
        ("def f(words):\n    words = words[1:]\n", False),
    ]


__all__ += ["LoopFinding", "loop_examples", "loop_findings"]
