"""Parser metrics (C10: a backend failure is counted, never swallowed)."""

from prometheus_client import Counter

PARSER_USED = Counter("pipeline_parser_used_total", "Pages parsed, by the backend whose result was kept",
                      ["backend"])
PARSER_FAILURES = Counter("pipeline_parser_failure_total", "Backend failures on a page", ["backend"])
OCR_FALLBACKS = Counter("pipeline_parser_ocr_fallback_total", "Pages sent to OCR, by reason", ["reason"])
