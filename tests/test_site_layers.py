"""The site's modules import one another in one direction only: blueprints → services → the rest.

An import circle in ``replay_server`` (the pages importing the API importing the pages) can be
kept from failing only by imports inside functions, and then every module depends on every
other: nothing can be read, tested or moved alone. So every module of the package is given a
layer, and these tests read every module with ``ast`` (imports at module level and inside
functions alike, which are circles all the same) and check that the graph of the package's
own imports has no circle and that no module imports one of a higher layer.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = "replay_server"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

#: The layers, lowest first; a module imports only modules of its own layer or of lower ones.
#: Names are relative to the package ("" is the package itself, its application factory); a
#: name ending in ".*" covers a subpackage's modules.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundation", frozenset({"config", "i18n", "caches", "samples", "schemas", "forms",
                              "migrations", "migrations.*"})),
    ("errors", frozenset({"errors"})),
    ("storage and security", frozenset({"storage", "security", "queue"})),
    ("services", frozenset({"services", "services.*"})),
    ("blueprints", frozenset({"pages", "api", "sharing", "record", "moves_api", "ops", "preview"})),
    ("application", frozenset({""})),
)
BLUEPRINTS = LAYERS[4][1]
#: The one import between blueprints: the legal-moves route is a route of the API's blueprint.
BLUEPRINT_IMPORTS = frozenset({("moves_api", "api")})


def module_name(path: Path) -> str:
    """A file's module name relative to the package: ``services.games``; "" for the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _absolute(name: str) -> str | None:
    """A dotted name of the package relative to it (None for a name outside the package)."""
    if name == PACKAGE:
        return ""
    if name.startswith(PACKAGE + "."):
        return name[len(PACKAGE) + 1:]
    return None


def _known(name: str, known: dict[str, Path]) -> str | None:
    """The module ``name`` is, or the nearest package above it that is a module of the package."""
    while True:
        if name in known:
            return name
        if not name:
            return None
        name = name.rpartition(".")[0]


def imports_of(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The package's modules that ``name`` imports (anywhere in the file), with the line."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _absolute(alias.name)
                found = None if target is None else _known(target, known)
                if found is not None:
                    yield found, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = name.split(".") if name else []
                base_parts = parts if is_package else parts[:-1]
                up = node.level - 1
                if up > len(base_parts):
                    continue
                base = ".".join(base_parts[:len(base_parts) - up])
                target = ".".join(p for p in (base, node.module or "") if p)
            else:
                absolute = _absolute(node.module or "")
                if absolute is None:
                    continue
                target = absolute
            submodules = [".".join(p for p in (target, alias.name) if p) for alias in node.names]
            submodules = [submodule for submodule in submodules if submodule in known]
            if submodules:  # ``from . import api, pages``: the submodules themselves
                yield from ((submodule, node.lineno) for submodule in submodules)
                continue
            found = _known(target, known)
            if found is not None:
                yield found, node.lineno


def lines_in_functions(path: Path) -> set[int]:
    """The lines of the imports made inside functions (or methods) of a file."""
    lines = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines.update(inner.lineno for inner in ast.walk(node)
                         if isinstance(inner, ast.Import | ast.ImportFrom))
    return lines


def graph() -> dict[str, dict[str, int]]:
    """Every module's imports of the package's modules (each with the line of its first)."""
    known = modules()
    edges: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        targets = edges.setdefault(name, {})
        for target, line in imports_of(name, path, known):
            if target != name:
                targets.setdefault(target, line)
    return edges


def find_circle(edges: dict[str, dict[str, int]]) -> list[str] | None:
    """One circle of imports (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: being walked, 2: done
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, {})):
            if state.get(target) == 1:
                return [*stack[stack.index(target):], target]
            if target not in state:
                found = walk(target)
                if found is not None:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = walk(node)
            if found is not None:
                return found
    return None


def layer_of(name: str) -> int | None:
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if name == member or (member.endswith(".*") and name.startswith(member[:-1])):
                return index
    return None


def _shown(name: str) -> str:
    return f"{PACKAGE}.{name}" if name else PACKAGE


def test_the_package_is_read() -> None:
    """The walk finds the modules it is about, and their imports (else the tests below are
    vacuous)."""
    edges = graph()
    assert {"", "pages", "api", "errors", "storage", "services"} <= set(edges)
    assert "config" in edges[""], "the application factory reads the configuration"
    assert sum(len(targets) for targets in edges.values()) > 20


def test_the_walk_sees_imports_inside_functions(tmp_path: Path) -> None:
    """An import inside a function is an edge: a circle hidden in one is still a circle."""
    known = {"a": tmp_path / "a.py", "b": tmp_path / "b.py"}
    known["a"].write_text("from .b import x\n", encoding="utf-8")
    known["b"].write_text("def f():\n    from . import a, c\n    return a\n", encoding="utf-8")
    known["c"] = tmp_path / "c.py"
    known["c"].write_text("import os\n", encoding="utf-8")
    edges = {name: dict(imports_of(name, path, known)) for name, path in known.items()}
    assert edges == {"a": {"b": 1}, "b": {"a": 2, "c": 2}, "c": {}}
    assert find_circle(edges) == ["a", "b", "a"]


def test_no_import_circle() -> None:
    edges = graph()
    circle = find_circle(edges)
    if circle is not None:
        steps = [f"{_shown(a)} imports {_shown(b)} (line {edges[a][b]})"
                 for a, b in itertools.pairwise(circle)]
        pytest.fail("an import circle in the site: " + "; ".join(steps))


def test_every_module_has_a_layer() -> None:
    unplaced = [_shown(name) for name in modules() if layer_of(name) is None]
    assert not unplaced, f"give these modules a layer in LAYERS: {unplaced}"


def test_imports_go_down_the_layers() -> None:
    """No module imports one of a higher layer; a blueprint imports no other blueprint but the
    one it adds a route to."""
    wrong = []
    for name, targets in graph().items():
        layer = layer_of(name)
        for target, line in targets.items():
            target_layer = layer_of(target)
            if layer is None or target_layer is None:
                continue  # test_every_module_has_a_layer names them
            if target_layer > layer:
                wrong.append(f"{_shown(name)} ({LAYERS[layer][0]}) imports {_shown(target)} "
                             f"({LAYERS[target_layer][0]}) at line {line}")
            elif name in BLUEPRINTS and target in BLUEPRINTS and (name, target) not in BLUEPRINT_IMPORTS:
                wrong.append(f"blueprint {_shown(name)} imports blueprint {_shown(target)} at line {line}")
    assert not wrong, "\n".join(wrong)



def test_modules_import_each_other_at_module_level() -> None:
    """An import of the package's own modules inside a function is how a circle is hidden;
    only the application factory imports there (the package is imported by the command for
    its configuration and store alone, without the blueprints and what they load)."""
    known = modules()
    hidden = [f"{_shown(name)} imports {_shown(target)} inside a function, at line {line}"
              for name, path in known.items() if name
              for target, line in imports_of(name, path, known)
              if line in lines_in_functions(path) and target != name]
    assert not hidden, "\n".join(hidden)


def test_imports_inside_functions_are_found(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("import os\n\n\ndef f():\n    from . import a\n    return a\n", encoding="utf-8")
    assert lines_in_functions(path) == {5}
