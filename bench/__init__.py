"""Micro-benchmarks of API operations against moto, in process (see bench/README.md)."""
