"""Four repair levels for a model's text (seed-002 §10): JSON → strip fences → json-repair → regex.

A regex "success" is never trusted (C2): it always needs review, and its anomalies are checked strictly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import json_repair
from pydantic import ValidationError

from skuflow_llm.context import Operation
from skuflow_llm.errors import LLMParseError
from skuflow_llm.observability import metrics
from skuflow_llm.repair.validation import AnswerValidator
from skuflow_llm.results import Answer

REGEX_FIELDS: dict[str, tuple[str, ...]] = {
    "classify_page": ("page_type", "confidence"),
    "classify_layout": ("layout_type", "confidence"),
    "extract_sku_attrs": ("sku_count",),
}
DEFAULT_REGEX_FIELDS = ("page_type", "confidence", "validity", "sku_count")
_FENCE_OPEN = re.compile(r"```(?:json)?\s*")
_FENCE_CLOSE = re.compile(r"```\s*$")


@dataclass(frozen=True)
class ParseResult:
    answer: Answer
    parse_method: str
    needs_review: bool = False
    anomaly_flags: list[str] = field(default_factory=list)


def _as_object(value: Any) -> tuple[dict, str] | None:
    if isinstance(value, dict) and value:
        return value, "json_repair"
    if isinstance(value, list) and value:
        return (value[0], "json_repair_list") if isinstance(value[0], dict) else ({"items": value}, "json_repair_list")
    return None


def strip_markdown(raw: str) -> str:
    return _FENCE_CLOSE.sub("", _FENCE_OPEN.sub("", raw)).strip()


def regex_extract(raw: str, operation: str) -> dict[str, str] | None:
    found = {}
    for name in REGEX_FIELDS.get(operation, DEFAULT_REGEX_FIELDS):
        match = re.search(rf'"{name}"\s*:\s*"?([^",\}}\]]+)"?', raw)
        if match:
            found[name] = match.group(1).strip()
    return found or None


def read_object(raw: str, operation: str) -> tuple[dict, str]:
    """The first level that yields a JSON object, and its name; ``LLMParseError`` when none does."""
    for method, text in (("json_direct", raw), ("strip_markdown", strip_markdown(raw))):
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value, method
    repaired = _as_object(json_repair.repair_json(raw, return_objects=True))
    if repaired:
        return repaired
    extracted = regex_extract(raw, operation)
    if extracted:
        return extracted, "regex_fallback"
    raise LLMParseError("Cannot parse LLM response after 4 attempts", "LLM_PARSE_FAILED", {"raw_preview": raw[:500]})


class ResponseParser:
    def __init__(self, validator: AnswerValidator | None = None) -> None:
        self.validator = validator or AnswerValidator()

    def parse(self, raw: str, model: str, operation: Operation, *, strict_anomaly: bool = False) -> ParseResult:
        metrics.RESPONSE_LENGTH.labels(model).observe(len(raw))
        try:
            data, method = read_object(raw, operation)
            answer = self._validated(data, operation, raw)
        except LLMParseError:
            metrics.PARSE_FAILURES.labels(model).inc()
            raise
        metrics.PARSE_METHOD.labels(model, method).inc()
        is_regex = method == "regex_fallback"
        flags = self.validator.check_anomalies(answer, operation, strict=strict_anomaly or is_regex)
        return ParseResult(answer, method, needs_review=is_regex or bool(flags), anomaly_flags=flags)

    def _validated(self, data: dict, operation: Operation, raw: str) -> Answer:
        try:
            return self.validator.validate(data, operation)
        except ValidationError as exc:
            raise LLMParseError(f"{operation} answer does not fit its schema ({exc.error_count()} errors)",
                                "LLM_PARSE_FAILED", {"raw_preview": raw[:500]}) from exc
