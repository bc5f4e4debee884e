"""Metrics, spans, Langfuse traces and the redaction applied to whatever leaves the process."""
