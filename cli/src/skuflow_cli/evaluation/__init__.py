"""Offline evaluation: score results against golden truth (GOLDEN_FORMAT §3) and report."""
