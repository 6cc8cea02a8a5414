"""The build's one step beyond pyproject.toml: the message catalogs are compiled.

Each ``.po`` catalog (the library's ``lcn/locale/<lang>/LC_MESSAGES/lcn.po``, the site's
``replay_server/translations/<lang>/LC_MESSAGES/messages.po``) is compiled with Babel to the
``.mo`` file gettext reads, beside it in the built package, so that an installed copy never
compiles anything at run time. An editable install reads the source tree, where
:func:`lcn.messages.compiled_catalog` compiles a ``.po`` in memory when no newer ``.mo`` is
there, so a translator's change shows at once without a build.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: (package, folder of its catalogs relative to the package)
CATALOGS = (("lcn", "locale"), ("replay_server", "translations"))
#: Where each package's source is (pyproject.toml's package-dir).
SOURCES = {"lcn": Path("lcn"), "replay_server": Path("replay_server")}


def compile_catalogs(build_lib: Path) -> list[Path]:
    """Compile every ``.po`` of :data:`CATALOGS` to a ``.mo`` under ``build_lib``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for package, folder in CATALOGS:
        root = SOURCES[package] / folder
        for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
            language = po.parent.parent.name
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=language, domain=po.stem)
            target = build_lib / package / po.relative_to(SOURCES[package]).with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as out:
                write_mo(out, catalog)
            written.append(target)
    return written


class BuildWithCatalogs(build_py):
    """``build_py`` that also compiles the catalogs into the built packages."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            compile_catalogs(Path(self.build_lib))


setup(cmdclass={"build_py": BuildWithCatalogs})
