"""Collab service: human tasks for pages that need review."""
