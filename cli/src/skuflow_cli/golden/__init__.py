"""Golden sets: generated catalogs with exact truth (GOLDEN_FORMAT §2) for scoring the pipeline."""
