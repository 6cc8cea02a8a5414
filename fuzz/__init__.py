"""Fuzzing LCN: the targets and strategies shared by the seeded tests and the long harness.

``python3 -m fuzz.run --help`` runs the coverage-guided harness; docs/reliability.md says how.
"""
