"""Versioned prompt templates, A/B buckets, few-shot examples and document anchoring (seed-002 §8)."""
