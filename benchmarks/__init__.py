"""Speed and strength measurements, each run as ``python -m benchmarks.<name>`` from the
checkout's root; their latest figures, with the commands, are in docs/benchmarks.md."""
