"""What a plain (non-editable) install ships: every Python package of the project is listed
in pyproject.toml, since the tests run on an editable install that would find a package
left out there all the same."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Folders with an ``__init__.py`` shipped as another package's data, not imported as packages:
#: Alembic's migration scripts, which the site hands to Alembic by their path.
AS_DATA = {"replay_server.migrations"}


def test_every_package_directory_is_listed_for_the_install() -> None:
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(setup["packages"])
    found = set()
    for name, folder in setup["package-dir"].items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            parts = init.parent.relative_to(base).parts
            if "__pycache__" in parts or any(part.startswith(".") for part in parts):
                continue
            found.add(".".join((name, *parts)))
    found |= {name for name in setup["package-dir"] if (ROOT / setup["package-dir"][name]).is_dir()
              and not (ROOT / setup["package-dir"][name] / "__init__.py").exists()}
    found -= AS_DATA
    assert found - listed == set(), f"packages missing from pyproject.toml: {sorted(found - listed)}"
    assert listed - found == set(), f"listed packages with no folder: {sorted(listed - found)}"
