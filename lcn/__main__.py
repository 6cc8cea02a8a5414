"""``python -m lcn``: the ``lcn`` command, for when its script is not on the PATH.

The command line is imported here, not by ``import lcn``: the library does not pay for
Click.
"""

from __future__ import annotations


def main() -> None:
    """Run the ``lcn`` command (``python -m lcn --help``)."""
    import importlib

    # Imported by name: the command's package is installed as lcn_cli from cli/.
    importlib.import_module("lcn_cli.main").main()


if __name__ == "__main__":
    main()
