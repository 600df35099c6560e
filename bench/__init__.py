"""Benchmarks of Kilforth Online: load and latency over real daphne, render times, a browser.

The management commands `loadtest`, `bench_render` and `bench_browser` are thin wrappers around
this package; docs/benchmarks.md ("Load and latency") records their figures and how they were run.
"""
