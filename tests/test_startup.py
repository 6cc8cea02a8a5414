"""What the ``lcn`` command and ``import lcn`` load at start-up, and what they load later.

``lcn validate`` is run once per file by scripts: the version (``importlib.metadata``), the
other variants' engines and the plugins' entry points are loaded only when asked for. These
tests check what is imported (not how long it takes) and that everything deferred is still
found when asked for.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import threading
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import lcn
import lcn.variants as variants
from lcn.variants.classic import ClassicVariant

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\n"
                           "print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_validate_over_classic_games_loads_no_other_engine_nor_the_metadata(tmp_path: Path) -> None:
    classic = sorted((SAMPLES / "classic").glob("*.lcn"))[0]
    code = ("import sys\nfrom lcn_cli.main import cli\n"
            f"sys.argv = ['lcn', 'validate', '-q', {str(classic)!r}]\n"
            "try:\n    cli.main(standalone_mode=False)\nexcept SystemExit:\n    pass")
    loaded = _modules_after(code)
    assert "lcn.variants.classic" in loaded
    assert not loaded & {"importlib.metadata", "lcn.variants.rivals", "lcn.variants.rollwrite",
                         "lcn.moves", "lcn.writer"}
    # Click's suggestions for a mistyped option, and what only workers need (waiting on
    # their pipes, stopping them, pickling their work), are not loaded by one job.
    assert not loaded & {"difflib", "select", "signal", "pickle", "concurrent.futures",
                         "multiprocessing"}


def test_the_version_is_read_when_asked_for() -> None:
    assert "importlib.metadata" not in _modules_after("import lcn")
    assert lcn.__version__ == metadata.version("lost-cities-notation")
    assert "__version__" in dir(lcn) and "legal_moves" in dir(lcn)
    done = subprocess.run([sys.executable, "-m", "lcn", "--version"], capture_output=True,
                          text=True, check=False)
    assert (done.returncode, done.stdout) == (0, f"lcn, version {lcn.__version__}\n")


def test_deferred_names_of_the_package_are_the_modules_own() -> None:
    from lcn import moves, writer

    assert lcn.legal_moves is moves.legal_moves and lcn.Position is moves.Position
    assert lcn.write_game is writer.write_game and lcn.write_games is writer.write_games
    with pytest.raises(AttributeError, match="no_such_name"):
        lcn.no_such_name  # noqa: B018


class _Plugin(ClassicVariant):
    def __init__(self, name: str) -> None:
        self.name = name


class _EntryPoint:
    def __init__(self, value: Any) -> None:
        self.value = value

    def load(self) -> Any:
        if isinstance(self.value, Exception):
            raise self.value
        return self.value


@pytest.fixture()
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """An empty registry, and entry points that count how often they are read."""
    monkeypatch.setattr(variants, "_REGISTRY", {})
    monkeypatch.setattr(variants, "_GIVEN", set())
    monkeypatch.setattr(variants, "_TRIED", set())
    monkeypatch.setattr(variants, "_DONE", set())
    monkeypatch.setattr(variants, "_PLUGINS_TRIED", False)
    reads: list[str] = []
    plugins = [_EntryPoint(_Plugin("pluggable")), _EntryPoint(_Plugin("classic")),
               _EntryPoint(ImportError("broken plugin"))]

    def entry_points(group: str) -> list[_EntryPoint]:
        reads.append(group)
        return plugins

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    return reads


def test_a_built_in_name_reads_no_entry_point(fresh_registry: list[str]) -> None:
    assert isinstance(variants.find_variant("classic"), ClassicVariant)
    assert variants.find_variant("rivals") is not None
    assert fresh_registry == []


def test_a_plugin_is_found_by_its_name(fresh_registry: list[str]) -> None:
    plugin = variants.find_variant("pluggable")
    assert isinstance(plugin, _Plugin) and plugin.name == "pluggable"
    assert fresh_registry == ["lcn.variants"]
    assert variants.find_variant("nothing") is None
    assert fresh_registry == ["lcn.variants"]  # read once


def test_every_name_is_listed(fresh_registry: list[str]) -> None:
    assert variants.variant_names() == ["classic", "pluggable", "rivals", "rollwrite"]


@pytest.mark.parametrize("first", ["classic", "pluggable", None])
def test_a_plugin_never_takes_a_built_in_name(fresh_registry: list[str], first: str | None) -> None:
    if first is None:
        variants.variant_names()
    else:
        variants.find_variant(first)
    classic = variants.find_variant("classic")
    assert isinstance(classic, ClassicVariant) and not isinstance(classic, _Plugin)
    variants.variant_names()
    assert variants.find_variant("classic") is classic


def test_a_registered_variant_keeps_its_name(fresh_registry: list[str]) -> None:
    mine = _Plugin("rivals")
    variants.register_variant(mine)
    assert variants.find_variant("rivals") is mine
    variants.variant_names()
    assert variants.find_variant("rivals") is mine


def test_a_thread_asking_while_another_imports_the_variant_waits_for_it(
        fresh_registry: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # A server's threads ask for a variant at the same moment: the second one must get the
    # engine, not "unknown variant" while the first is still importing it.
    importing = threading.Event()
    release = threading.Event()
    real_import = importlib.import_module

    def slow_import(name: str) -> Any:
        importing.set()
        assert release.wait(30)
        return real_import(name)

    monkeypatch.setattr(importlib, "import_module", slow_import)
    found: dict[str, Any] = {}
    first = threading.Thread(target=lambda: found.setdefault("first", variants.find_variant("rollwrite")))
    first.start()
    assert importing.wait(30)
    second = threading.Thread(target=lambda: found.setdefault("second", variants.find_variant("rollwrite")))
    second.start()
    second.join(0.3)  # with the registry read half-filled, the second thread is done by now
    release.set()
    first.join(30)
    second.join(30)
    assert found["first"] is not None and found["first"].name == "rollwrite"
    assert found["second"] is found["first"]
