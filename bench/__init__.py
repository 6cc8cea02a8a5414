"""Benchmarks for LCN: ``python -m bench`` prints the table of docs/performance.md."""
