"""Extractor service: SKUs and their attributes from classified pages."""
