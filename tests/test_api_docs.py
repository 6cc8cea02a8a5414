"""The API reference (MkDocs with mkdocstrings, from the docstrings) builds without a
warning and documents every public name; the wheel is what a Python user expects."""

from __future__ import annotations

import inspect
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import lcn

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_name_has_a_docstring() -> None:
    undocumented = [name for name in lcn.__all__ if not inspect.getdoc(getattr(lcn, name))]
    assert undocumented == []


def test_api_reference_builds_strictly_and_documents_every_public_name(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr  # pip install -e '.[docs]' if absent
    pages = "".join(page.read_text(encoding="utf-8") for page in site.rglob("*.html"))
    missing = [name for name in lcn.__all__ if f'id="lcn.{name}"' not in pages]
    assert missing == []


def test_the_wheel_ships_the_type_hints_the_license_and_a_core_without_the_site(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                           str(ROOT)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("lost_cities_notation-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(metadata_name).decode("utf-8"))
    assert "lcn/py.typed" in names and "lcn_cli/py.typed" in names
    # The build compiles the message catalogs (setup.py): gettext's .mo beside each .po.
    assert "lcn/locale/de/LC_MESSAGES/lcn.mo" in names
    assert "replay_server/translations/de/LC_MESSAGES/messages.mo" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE")
               for n in names)
    assert metadata["Name"] == "lost-cities-notation"
    assert metadata["Version"] == lcn.__version__
    core = [r for r in metadata.get_all("Requires-Dist") if "extra ==" not in r]
    assert sorted(r.split(">")[0].split("[")[0] for r in core) == ["babel", "click", "marshmallow",
                                                                  "pygments"]
    server = [r for r in metadata.get_all("Requires-Dist") if 'extra == "server"' in r]
    assert any(r.startswith("flask") for r in server)
    assert "Typing :: Typed" in metadata.get_all("Classifier")
