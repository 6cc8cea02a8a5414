"""Coverage-guided fuzzing of LCN with atheris (libFuzzer for Python), for runs of hours.

    python3 -m pip install atheris            # or: pip install -e '.[fuzz]'
    python3 -m fuzz.run seed fuzz/corpus      # write a starting corpus (valid games of every kind)
    python3 -m fuzz.run all fuzz/corpus -max_total_time=3600 -timeout=30 -rss_limit_mb=2048 \\
        -print_final_stats=1 -artifact_prefix=fuzz/crashes/

The first argument names the target (``reader``, ``engines``, ``json``, ``importers``, ``cli``,
``long``, whose inputs are long runs, repeated tokens and every character class built from the
fuzzer's bytes (``fuzz/long_inputs.py``), or ``all``, which spreads inputs over the first four
and ``long`` by their first byte); the rest is passed
to libFuzzer. libFuzzer itself turns the three failures of the property into crashes: an
uncaught exception (or a broken property, ``FuzzFailure``), an input running longer than
``-timeout`` seconds (a hang), and memory above ``-rss_limit_mb`` (growth without bound).
Each crash is written as a file under ``-artifact_prefix``; run the target on it with
``python3 -m fuzz.run replay TARGET FILE...`` and keep it as a regression test in
``tests/test_fuzz_regressions.py``.

This is not run in CI: CI runs the seeded Hypothesis tests in ``tests/test_fuzz_library.py``
against the same targets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def _load_targets(instrument: bool) -> dict[str, Callable[[bytes], None]]:
    """The targets, with the library instrumented for coverage when atheris runs them."""
    if instrument:
        import atheris

        with atheris.instrument_imports(include=["lcn", "lcn_cli", "fuzz"]):
            from fuzz import targets
    else:
        from fuzz import targets
    table = dict(targets.TARGETS)
    spread = [table["reader"], table["engines"], table["json"], table["importers"], table["long"]]

    def everything(data: bytes) -> None:
        if data:
            spread[data[0] % len(spread)](data[1:])

    table["all"] = everything
    return table


def write_seed_corpus(folder: Path) -> int:
    """Valid games of every variant and every importer format, and the samples, as files."""
    from lcn import jsonform, write_game
    from lcn.importers import export_records, output_formats
    from lcn.variants import classic_play, rivals_play, rollwrite_play

    folder.mkdir(parents=True, exist_ok=True)
    inputs: list[bytes] = []
    for seed in range(12):
        classic = classic_play.random_game(seed, expeditions=6 if seed % 4 == 3 else 5,
                                           reveal_draws=seed % 2 == 0)
        inputs.append(write_game(classic).encode())
        if seed % 4 != 3:
            inputs.append(write_game(classic_play.strip_deal(classic, seed % 2)).encode())
        inputs.append(write_game(rivals_play.random_game(seed, players=2 + seed % 3)).encode())
        inputs.append(write_game(rollwrite_play.random_game(seed, players=2 + seed % 4,
                                                            sheet_tag=seed % 2 == 0)).encode())
        inputs.append(jsonform.dumps([classic]).encode())
        for fmt, _title in output_formats():
            inputs.append(export_records([classic], fmt).text.encode())
    root = Path(__file__).resolve().parent.parent
    for pattern in ("samples/**/*.lcn", "tests/data/imports/*"):
        inputs.extend(path.read_bytes() for path in sorted(root.glob(pattern)) if path.is_file())
    for index, data in enumerate(inputs):
        (folder / f"seed-{index:04d}").write_bytes(data)
    return len(inputs)


def replay(name: str, files: list[str]) -> int:
    """Run a target on saved inputs (crash files), without atheris; 1 if one still fails."""
    import traceback

    target = _load_targets(instrument=False)[name]
    failed = 0
    for file in files:
        try:
            target(Path(file).read_bytes())
        except Exception:
            failed += 1
            print(f"{file}: still fails", file=sys.stderr)
            traceback.print_exc()
        else:
            print(f"{file}: ok")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    command = argv[1]
    if command == "seed":
        folder = Path(argv[2] if len(argv) > 2 else "fuzz/corpus")
        count = write_seed_corpus(folder)
        print(f"{count} inputs written to {folder}")
        return 0
    if command == "replay":
        return replay(argv[2], argv[3:])
    try:
        import atheris
    except ImportError:
        print("atheris is not installed: python3 -m pip install atheris", file=sys.stderr)
        return 2
    table = _load_targets(instrument=True)
    if command not in table:
        print(f"unknown target {command!r}: the targets are {', '.join(table)}", file=sys.stderr)
        return 2
    target = table[command]
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
