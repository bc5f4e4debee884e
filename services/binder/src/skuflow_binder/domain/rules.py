"""Consistency rules (seed-000 §11.1) and a category's declarative rules (seed-001a §7.14).

A rule that fires is a finding with a severity: ``error`` marks the page as having errors,
``warning`` sends it to review when the profile says so (``review_on_warning``, default on: the
seed's ``validate`` means warnings to force review, and its own note says the coded PageResult
dropped that by mistake), ``info`` is only recorded. Category rules are data, dispatched by
``rule_type`` to a checker; nothing is ever ``eval``-ed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from skuflow_catalog.prices import parse_price

from skuflow_contracts.profile import CategorySchema, ThresholdProfile, ValidationRule
from skuflow_contracts.results import BindingRecord, ImageRecord, PageType, SkuRecord

MAX_PRICE = 999_999.0
DELIVERABLE = ("PRODUCT_MAIN", "DETAIL", "SCENE", "SIZE_CHART")


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: str
    sku_ids: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.rule}:{','.join(self.sku_ids)}" if self.sku_ids else self.rule


@dataclass(frozen=True)
class PageFacts:
    page_type: PageType | None
    skus: list[SkuRecord]
    images: list[ImageRecord]
    bindings: list[BindingRecord]


def _price_ok(price: str | None) -> bool:
    if price is None:
        return True
    number = parse_price(price)
    return number is not None and 0 < float(number) <= MAX_PRICE


def consistency(facts: PageFacts) -> list[Finding]:
    """seed-000 §11.1 RULES over the page's valid SKUs."""
    valid = [s for s in facts.skus if s.validity == "valid"]
    bound = {b.sku_id for b in facts.bindings if b.image_id}
    used = {b.image_id for b in facts.bindings if b.image_id}
    findings = []
    unbound = tuple(s.sku_id for s in valid if s.sku_id not in bound and s.origin != "table_row"
                    and facts.page_type != "A")
    if unbound and any(i.role == "PRODUCT_MAIN" and not i.is_duplicate for i in facts.images):
        findings.append(Finding("sku_without_image", "warning", unbound))
    orphans = tuple(i.image_id for i in facts.images
                    if i.role in DELIVERABLE and not i.is_duplicate and i.image_id not in used)
    if orphans and valid and facts.page_type != "A":
        findings.append(Finding("image_without_sku", "info", orphans))
    keys = Counter((s.attributes.model or s.attributes.product_name or "").upper() for s in valid)
    repeated = tuple(s.sku_id for s in valid
                     if keys[(s.attributes.model or s.attributes.product_name or "").upper()] > 1)
    if repeated:
        findings.append(Finding("duplicate_model_in_page", "warning", repeated))
    bad_price = tuple(s.sku_id for s in valid if not _price_ok(s.attributes.price))
    if bad_price:
        findings.append(Finding("price_format_invalid", "error", bad_price))
    if facts.skus and not valid:
        findings.append(Finding("all_skus_invalid", "error"))
    return findings


def _values(skus: list[SkuRecord], name: str) -> list[str | None]:
    return [getattr(s.attributes, name, None) or s.custom_attributes.get(name) for s in skus]


def _required_field(skus: list[SkuRecord], p: dict) -> bool:
    return not all(_values(skus, str(p["field"])))


def _range_check(skus: list[SkuRecord], p: dict) -> bool:
    low, high = float(p.get("min", 0)), float(p.get("max", MAX_PRICE))
    numbers = [parse_price(v) for v in _values(skus, str(p["field"])) if v]
    return any(n is None or not low <= float(n) <= high for n in numbers)


def _regex_match(skus: list[SkuRecord], p: dict) -> bool:
    pattern = re.compile(str(p["pattern"]))
    return any(v and not pattern.match(v) for v in _values(skus, str(p["field"])))


def _max_count(skus: list[SkuRecord], p: dict) -> bool:
    return len(skus) > int(p.get("max", 200))


CHECKERS: dict[str, Callable[[list[SkuRecord], dict], bool]] = {
    "required_field": _required_field, "range_check": _range_check, "regex_match": _regex_match,
    "max_count": _max_count,
}


def category_rules(skus: list[SkuRecord], rules: tuple[ValidationRule, ...]) -> list[Finding]:
    valid = [s for s in skus if s.validity == "valid"]
    return [Finding(rule.name, rule.severity) for rule in rules
            if valid and CHECKERS[rule.rule_type](valid, rule.params)]


def schema_rules(schema: CategorySchema | None) -> tuple[ValidationRule, ...]:
    """The category's rules, plus one ``required_field`` error per field the category requires."""
    if schema is None:
        return ()
    required = tuple(ValidationRule(name=f"required_{name}", rule_type="required_field", params={"field": name},
                                    severity="error") for name in schema.required_fields)
    return required + schema.validation_rules


def findings_for(facts: PageFacts, profile: ThresholdProfile) -> list[Finding]:
    return consistency(facts) + category_rules(facts.skus, schema_rules(profile.category_schema()))


def review_needed(findings: list[Finding], profile: ThresholdProfile) -> bool:
    severities = {f.severity for f in findings}
    return "error" in severities or (profile.review_on_warning and "warning" in severities)
