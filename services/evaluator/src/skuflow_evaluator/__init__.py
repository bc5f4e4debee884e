"""Evaluator service: security-checks and scores each document, then routes it (AUTO / HYBRID / HUMAN_ALL)."""
