"""The specification and the rule digests agree with the code.

Rule IDs are a contract: diagnostics cite them, and users look them up. These tests make sure
that every ID the library cites is defined in a digest (``seeds/*.md``) or in the specification
(``docs/spec.md``), that the classic digest is well formed, that every LCN example, command
output and Python example in the specification is what the code really does, and that the
rulebook's scoring example, played out as a sample game, scores as the rulebook says.
"""

from __future__ import annotations

import doctest
import io
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec.md"
SEEDS = ROOT / "seeds"
CLASSIC_DIGEST = SEEDS / "classic.md"
SCORING_SAMPLE = ROOT / "samples" / "classic" / "rulebook-scoring.lcn"

#: Where the game rules of each prefix are defined. Notation rules (``LCN-``) are defined in
#: ``docs/spec.md``, and a variant's own notation rules in its ``docs/spec-<variant>.md``.
DIGESTS = {
    "C": SEEDS / "classic.md",
    "V": SEEDS / "rivals.md",
    "RW": SEEDS / "rollwrite.md",
}

RULE_HEADING = re.compile(r"^### ((?:C|V|RW|LCN)(?:-[A-Z0-9]+)+) — \S", re.MULTILINE)
#: A variant specification may also define a notation rule as a list entry: ``- **LCN-X**: ...``.
LIST_DEFINITION = re.compile(r"^- \*\*(LCN(?:-[A-Z0-9]+)+)\*\*:", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```$", re.MULTILINE | re.DOTALL)
CITED_ID = re.compile(r"""["']((?:C|V|RW|LCN)(?:-[A-Z0-9]+)+)["']""")
SOURCE_LINE = re.compile(r"^Source: (.+)$")
SOURCE_PART = re.compile(r"^(\d{3}_[0-9a-f]{16}\.txt|research/game-data\.md) §\S.*$")
CODE_SITE = re.compile(r"""(?:_diag|Diagnostic|Problem|warn)\(\s*"([a-z][a-z-]*)"|code="([a-z][a-z-]*)\"""")

#: Every classic rule ID defined so far. IDs are never renamed or dropped (seeds/README.md):
#: a rule may be added, but none of these may disappear.
CLASSIC_IDS = [
    "C-SETUP-CARDS", "C-SETUP-SIXTH", "C-SETUP-PLAYERS", "C-SETUP-DEAL", "C-CARD-UNIQUE",
    "C-TURN-ORDER", "C-TURN-PLACE-THEN-DRAW", "C-HAND-CARD", "C-HAND-COUNT", "C-PLACE-OWN-COLUMN",
    "C-PLACE-ASCENDING", "C-PLACE-WAGER-FIRST", "C-DISCARD-COLOUR", "C-DRAW-SOURCE", "C-DRAW-PILE",
    "C-DRAW-NOT-JUST-DISCARDED", "C-DRAW-DECK", "C-END-LAST-DRAW", "C-END-COUNT-PILE",
    "C-END-RESULT", "C-END-WINNER", "C-SCORE-SUM", "C-SCORE-COST", "C-SCORE-UNSTARTED",
    "C-SCORE-WAGERS", "C-SCORE-BONUS", "C-SCORE-TOTAL", "C-MATCH-THREE", "C-MATCH-FIRST-PLAYER",
    "C-MATCH-TIE",
]

LCN_IDS = [
    "LCN-ENCODING", "LCN-FILE", "LCN-TAG", "LCN-COMMENT", "LCN-GLYPH", "LCN-MOVE",
    "LCN-MOVE-NUMBER", "LCN-TERMINATION",
]


# -- helpers -------------------------------------------------------------------------------

def defined_ids(path: Path) -> list[str]:
    """Rule IDs defined by ``### ID — title`` headings outside code blocks, in order."""
    return RULE_HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8")))


def notation_ids() -> set[str]:
    """Notation rule IDs defined by the specification and the variants' specifications."""
    ids = set(defined_ids(SPEC))
    for path in sorted(SPEC.parent.glob("spec-*.md")):
        ids.update(defined_ids(path))
        ids.update(LIST_DEFINITION.findall(FENCE.sub("", path.read_text(encoding="utf-8"))))
    return ids


def not_written_yet(rule: str, places: list[str]) -> bool:
    """Whether the document that must define ``rule`` does not exist yet (variants land one by one)."""
    prefix = rule.split("-", 1)[0]
    if prefix in DIGESTS:
        return not DIGESTS[prefix].exists()
    files = [place.split(":", 1)[0] for place in places]
    if not all(f.startswith("lcn/variants/") for f in files):
        return False  # cited by the core: docs/spec.md must define it
    variants = {Path(f).stem.split("_", 1)[0] for f in files}
    return all(not (SPEC.parent / f"spec-{variant}.md").exists() for variant in variants)


def cited_ids() -> dict[str, list[str]]:
    """Quoted rule IDs in the library and the command, with where each is cited."""
    cited: dict[str, list[str]] = {}
    for folder in ("lcn", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for rule in CITED_ID.findall(line):
                    cited.setdefault(rule, []).append(f"{path.relative_to(ROOT)}:{number}")
    return cited


@dataclass
class Block:
    info: str
    text: str
    line: int


def fenced_blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file: info string, text, line of the opening fence."""
    blocks: list[Block] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            info, start = lines[i][3:].strip(), i
            body: list[str] = []
            i += 1
            while i < len(lines) and lines[i] != "```":
                body.append(lines[i])
                i += 1
            assert i < len(lines), f"{path.name}:{start + 1}: unclosed code fence"
            blocks.append(Block(info, "\n".join(body) + "\n", start + 1))
        i += 1
    return blocks


def matches(expected: Any, actual: Any) -> bool:
    """JSON equality where the string "…" in the expected value stands for anything."""
    if expected == "…":
        return True
    if isinstance(expected, dict):
        return (isinstance(actual, dict) and expected.keys() == actual.keys()
                and all(matches(expected[k], actual[k]) for k in expected))
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(expected) == len(actual)
                and all(matches(e, a) for e, a in zip(expected, actual, strict=True)))
    return bool(expected == actual) and type(expected) is type(actual)


# -- (a) every cited rule ID is defined -------------------------------------------------------

def test_every_cited_rule_id_is_defined() -> None:
    cited = cited_ids()
    assert any(rule.startswith("C-") for rule in cited), "no classic rule ID found in lcn/"
    assert any(rule.startswith("LCN-") for rule in cited), "no notation rule ID found in lcn/"
    notation = notation_ids()
    checked = 0
    missing = []
    for rule, places in sorted(cited.items()):
        if not_written_yet(rule, places):
            continue
        checked += 1
        prefix = rule.split("-", 1)[0]
        defined = rule in notation if prefix == "LCN" else rule in defined_ids(DIGESTS[prefix])
        if not defined:
            where = "docs/spec*.md" if prefix == "LCN" else str(DIGESTS[prefix].relative_to(ROOT))
            missing.append(f"{rule} (cited at {', '.join(places)}) is not defined in {where}")
    assert checked
    assert not missing, "\n".join(missing)


def test_rule_ids_are_defined_once_across_all_digests() -> None:
    seen: dict[str, str] = {}
    twice = []
    for path in [*sorted(SEEDS.glob("*.md")), SPEC]:
        for rule in defined_ids(path):
            if rule in seen:
                twice.append(f"{rule}: {seen[rule]} and {path.name}")
            seen[rule] = path.name
    assert not twice, twice


def test_notation_rules_are_defined_in_the_spec() -> None:
    assert set(LCN_IDS) <= set(defined_ids(SPEC))
    # A variant's own notation IDs (LCN-RIVALS-..., LCN-RW-...) are defined in its spec and
    # cited by its engine and its game package; every other place cites the core's.
    variant_places = ("lcn/variants/", "lcn/games/rivals/", "lcn/games/rollwrite/")
    core = {rule for rule, places in cited_ids().items() if rule.startswith("LCN-")
            and any(not place.startswith(variant_places) or place.startswith("lcn/variants/base.py")
                    or place.startswith("lcn/variants/classic") for place in places)}
    assert core <= set(LCN_IDS), sorted(core - set(LCN_IDS))


def test_every_diagnostic_code_of_the_core_and_classic_is_documented() -> None:
    spec = SPEC.read_text(encoding="utf-8")
    codes: set[str] = set()
    for name in ("lcn/reader.py", "lcn/validate.py", "lcn/variants/base.py",
                 "lcn/variants/classic.py"):
        for a, b in CODE_SITE.findall((ROOT / name).read_text(encoding="utf-8")):
            codes.add(a or b)
    assert {"encoding", "not-ascending", "missing-termination", "result-mismatch"} <= codes
    undocumented = sorted(code for code in codes if f"`{code}`" not in spec)
    assert not undocumented, f"diagnostic codes missing from docs/spec.md: {undocumented}"


# -- (b) the classic digest is well formed --------------------------------------------------

def test_classic_rule_ids_are_unique_and_stable() -> None:
    ids = defined_ids(CLASSIC_DIGEST)
    assert len(ids) == len(set(ids)), [rule for rule in ids if ids.count(rule) > 1]
    assert all(rule.startswith("C-") for rule in ids)
    assert set(CLASSIC_IDS) <= set(ids), sorted(set(CLASSIC_IDS) - set(ids))


def test_every_classic_rule_names_its_source() -> None:
    lines = CLASSIC_DIGEST.read_text(encoding="utf-8").splitlines()
    problems = []
    for number, line in enumerate(lines):
        heading = RULE_HEADING.match(line)
        if line.startswith("### ") and heading is None:
            problems.append(f"line {number + 1}: not a rule heading `### C-ID — title`: {line}")
            continue
        if heading is None:
            continue
        source = SOURCE_LINE.match(lines[number + 1]) if number + 1 < len(lines) else None
        if source is None:
            problems.append(f"{heading.group(1)}: the line after the heading is not `Source: ...`")
            continue
        for part in source.group(1).split("; "):
            if not SOURCE_PART.match(part):
                problems.append(f"{heading.group(1)}: source `{part}` is not `<file> §<section>`")
        text = []
        for following in lines[number + 2:]:
            if following.startswith("#"):
                break
            text.append(following)
        if len(" ".join(text).split()) < 12:
            problems.append(f"{heading.group(1)}: the rule has no text")
    assert not problems, "\n".join(problems)


# -- (c) the examples of the specification are what the code does ---------------------------

def test_lcn_examples_in_the_spec_are_valid() -> None:
    blocks = [b for b in fenced_blocks(SPEC) if b.info == "lcn"]
    assert len(blocks) >= 3
    for block in blocks:
        run = lcn.ValidationRun(block.text)
        reports = list(run)
        assert reports, f"spec.md:{block.line}: no game"
        errors = [d.format(f"spec.md:{block.line}") for r in reports for d in r.diagnostics
                  if d.is_error] + [d.format() for d in run.file_diagnostics]
        assert not errors, "\n".join(errors)


def test_invalid_lcn_examples_in_the_spec_have_errors() -> None:
    blocks = [b for b in fenced_blocks(SPEC) if b.info == "lcn-invalid"]
    assert blocks
    for block in blocks:
        reports = list(lcn.validate(block.text))
        assert reports and any(not r.valid for r in reports), f"spec.md:{block.line} is valid"


def _console_cases() -> list[tuple[Block, Block | None]]:
    """Each ```console block with the LCN block before it (the ``game.lcn`` of its command)."""
    cases = []
    last_game: Block | None = None
    for block in fenced_blocks(SPEC):
        if block.info in ("lcn", "lcn-invalid"):
            last_game = block
        elif block.info == "console":
            cases.append((block, last_game))
    return cases


@pytest.mark.parametrize(("block", "game"), _console_cases(),
                         ids=lambda value: f"line{value.line}" if isinstance(value, Block) else "")
def test_command_outputs_in_the_spec(block: Block, game: Block | None, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    command, _, expected = block.text.partition("\n")
    assert command.startswith("$ lcn "), f"spec.md:{block.line}: a console block starts `$ lcn`"
    args = shlex.split(command[len("$ lcn "):])
    if "game.lcn" in args:
        assert game is not None, f"spec.md:{block.line}: no LCN example before `game.lcn`"
        (tmp_path / "game.lcn").write_text(game.text, encoding="utf-8")
    (tmp_path / "samples").symlink_to(ROOT / "samples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if "json" in args:
        assert matches(json.loads(expected), json.loads(result.stdout)), result.stdout
    else:
        assert result.stdout.rstrip("\n") == expected.rstrip("\n")


def test_the_spec_shows_the_scoring_sample_as_it_is() -> None:
    text = SCORING_SAMPLE.read_text(encoding="utf-8")
    shown = [b.text for b in fenced_blocks(SPEC) if b.info == "lcn" and b.text.startswith(
        text.split("\n", 1)[0])]
    assert shown == [text]


def test_python_examples_in_the_spec() -> None:
    text = SPEC.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, "spec.md", str(SPEC), 0)
    assert len(test.examples) >= 5
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


# -- (d) the rulebook's scoring example -----------------------------------------------------

def test_rulebook_scoring_sample_scores_18_for_ada() -> None:
    reports = list(lcn.validate(SCORING_SAMPLE))
    assert len(reports) == 1
    report = reports[0]
    assert report.valid, [d.format() for d in report.diagnostics]
    assert report.diagnostics == []
    assert report.over and report.complete
    assert report.players == ["Ada", "Bo"]
    assert report.score is not None
    assert report.score.totals[0] == 18
    assert report.score.breakdown[0] == {"Y": 3, "B": 0, "W": -40, "G": -10, "R": 65}
    assert report.record.termination == f"{report.score.totals[0]}:{report.score.totals[1]}"
    assert report.record.tags["Result"] == report.record.termination


def test_rulebook_scoring_sample_has_the_rulebooks_columns() -> None:
    report = next(lcn.validate(SCORING_SAMPLE))
    ada = report.state.expeditions[0]
    assert ada == {
        "Y": ["Y6", "Y8", "Y9"],  # sum 23: 3 points
        "B": [],  # no column: 0 points
        "W": ["Ww"],  # a lone wager: -40
        "G": ["Gw", "G7", "G8"],  # one wager, sum 15: -10
        "R": ["Rw", "Rw", "R2", "R3", "R5", "R7", "R8", "R10"],  # sum 35, 8 cards: 45 + 20
    }
    details = {d["colour"]: d for d in report.score.details[0]}
    assert details["R"]["multiplier"] == 3 and details["R"]["bonus"] == 20
    assert details["W"]["multiplier"] == 2 and details["W"]["sum"] == 0
    assert details["B"]["started"] is False


def test_rulebook_scoring_sample_has_the_full_deal_and_is_canonical() -> None:
    report = next(lcn.validate(SCORING_SAMPLE))
    tags = report.record.tags
    assert all(name in tags for name in ("Hand1", "Hand2", "Deck"))
    # With the whole deal known, no card of either hand is ever unknown.
    assert report.state.unknown == [0, 0]
    assert report.state.cards_left == 0
    text = SCORING_SAMPLE.read_text(encoding="utf-8")
    assert lcn.write_games(lcn.read_games(text)) == text
