"""Prompt-injection detection in document text, with a tiered response (seed-002 §9, C7).

The document is never blocked: a high risk forces human review of the answer, a medium risk turns on
strict anomaly checks. Each of the seven patterns also knows its Chinese phrasing (the catalogs are
mostly Chinese), and "ignore instructions" without "previous/above" counts as well: the seed's own
integration test used that phrase, which its regex did not match.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from skuflow_llm.observability import metrics

log = logging.getLogger(__name__)

INJECTION_PATTERNS: tuple[tuple[re.Pattern[str], str, float], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), label, score) for pattern, label, score in (
        (r"ignore\s+(all\s+)?((previous|above|prior)\s+)?(instructions?|rules?|prompts?)"
         r"|忽略(之前|以上|上面|上述|前面)?的?(所有|全部)?的?(指令|指示|规则|提示)", "ignore_instructions", 0.9),
        (r"system\s*prompt|system\s*message|system\s*instruction|系统(提示|指令|消息)", "system_prompt_ref", 0.7),
        (r"override\s+(all\s+)?(rules?|settings?|constraints?)|(覆盖|推翻|绕过)(所有|全部)?的?(规则|设置|限制)",
         "override_rules", 0.8),
        (r"you\s+are\s+(now|actually)\s+|你(现在|其实)是", "identity_override", 0.8),
        (r"(set|change|modify)\s+(all\s+)?(price|cost|confidence)\s*(to|=)\s*"
         r"|把?(价格|成本|置信度)(都)?(改为|改成|设为|设置为)", "value_manipulation", 0.9),
        (r"disregard|forget\s+(everything|all)|忘记(所有|一切|之前)", "disregard_context", 0.8),
        (r"output\s+(only|just)\s*(true|false|yes|no|1|0)|只(输出|回答)\s*(是|否|true|false|yes|no|1|0)",
         "force_output", 0.6),
    ))

_XML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"})


def escape_xml(text: str) -> str:
    """Document text goes inside XML-like tags in the prompt; escaping keeps it from closing them."""
    return text.translate(_XML_ESCAPES)


class RiskPolicy(StrEnum):
    NORMAL = "normal"
    STRICT_SCHEMA = "strict_schema"
    FORCE_REVIEW = "force_review"


@dataclass(frozen=True)
class InjectionResult:
    matched_patterns: list[str] = field(default_factory=list)
    risk_score: float = 0.0

    @property
    def is_suspicious(self) -> bool:
        return bool(self.matched_patterns)


@dataclass(frozen=True)
class SafeRequest:
    prompt: str
    images: list[bytes]
    injection_flags: list[str]
    risk_policy: RiskPolicy


def detect_injection(text: str) -> InjectionResult:
    found = [(label, score) for pattern, label, score in INJECTION_PATTERNS if pattern.search(text)]
    return InjectionResult([label for label, _ in found], max((score for _, score in found), default=0.0))


class InputGuard:
    def __init__(self, *, high_risk: float = 0.9, medium_risk: float = 0.7) -> None:
        self.high_risk = high_risk
        self.medium_risk = medium_risk

    def policy_for(self, risk_score: float) -> RiskPolicy:
        if risk_score >= self.high_risk:
            return RiskPolicy.FORCE_REVIEW
        return RiskPolicy.STRICT_SCHEMA if risk_score >= self.medium_risk else RiskPolicy.NORMAL

    def build_safe_request(self, prompt: str, user_content: str, images: Sequence[bytes]) -> SafeRequest:
        """Scan the document's own text (not our instructions) and decide the response tier."""
        result = detect_injection(user_content)
        policy = self.policy_for(result.risk_score)
        if result.is_suspicious:
            metrics.INJECTION_DETECTED.labels(policy.value).inc()
            log.warning("prompt_injection_detected", extra={"fields": {
                "patterns": result.matched_patterns, "risk_score": result.risk_score, "risk_policy": policy.value}})
        return SafeRequest(prompt, list(images), result.matched_patterns, policy)
