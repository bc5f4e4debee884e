"""The routing table, complexity score and downgrade order (seed-002 §5)."""

from __future__ import annotations

import pytest

from skuflow_llm.context import LLMCallContext
from skuflow_llm.routing import PRIMARY, RULE_ENGINE, SKIP, STANDARD, LLMRouter, ModelConfig, assess_complexity

ROUTER = LLMRouter({PRIMARY: ModelConfig("gemini-x", 8192, 0.2), STANDARD: ModelConfig("qwen-x", 4096, 0.1)})
COMPLEX = {"has_fragmented_images": True, "multi_column": True}


@pytest.mark.parametrize("features, complexity", [
    ({}, "simple"),
    ({"has_fragmented_images": True}, "simple"),
    ({"has_fragmented_images": True, "multi_column": True}, "complex"),
    ({"ocr_ratio": 0.31, "text_block_count": 21}, "complex"),
    ({"ocr_ratio": 0.3, "text_block_count": 21, "multi_column": True}, "simple"),
])
def test_complexity_score(features, complexity):
    assert assess_complexity(features) == complexity


@pytest.mark.parametrize("operation, page_type, features, route", [
    ("classify_page", "A", COMPLEX, RULE_ENGINE),
    ("classify_page", "B", {}, STANDARD),
    ("classify_page", "C", COMPLEX, PRIMARY),
    ("classify_page", "D", {}, SKIP),
    ("extract_sku_attrs", "A", {}, STANDARD),
    ("extract_sku_attrs", "A", COMPLEX, PRIMARY),
    ("extract_sku_attrs", "D", COMPLEX, SKIP),
    ("eval_document", "C", {}, PRIMARY),
    ("resolve_binding", "B", COMPLEX, STANDARD),
    ("classify_layout", "B", COMPLEX, PRIMARY),
    ("classify_text", "A", {}, STANDARD),
])
def test_routing_table(operation, page_type, features, route):
    decision = ROUTER.select(LLMCallContext(operation, page_type=page_type, features=features), budget_ok=True)
    assert (decision.route, decision.downgrade_reason) == (route, None)


def test_downgrades_in_order_semantic_then_force_model_then_budget():
    complex_page = LLMCallContext("classify_page", page_type="C", features=COMPLEX)
    assert ROUTER.select(complex_page, budget_ok=False).downgrade_reason == "budget"
    semantic = complex_page.clone("classify_page", semantic_failure_count=5, force_model="gemini-x")
    assert (ROUTER.select(semantic, budget_ok=True).route, ROUTER.select(semantic, budget_ok=True).downgrade_reason) \
        == (STANDARD, "semantic")
    forced = LLMCallContext("classify_page", page_type="B", force_model="gemini-x")
    assert ROUTER.select(forced, budget_ok=True).route == PRIMARY
    assert ROUTER.select(forced, budget_ok=False).route == STANDARD
    assert ROUTER.select(forced.clone("classify_page", force_model="GEMINI_PRO"), budget_ok=True).route == PRIMARY
    assert ROUTER.select(forced.clone("classify_page", force_model="qwen-x"), budget_ok=True).route == STANDARD
    untyped = LLMCallContext("classify_page")  # no page type: treated as C
    assert ROUTER.select(untyped, budget_ok=True).route == STANDARD


def test_the_context_is_immutable_and_cloned_per_operation():
    ctx = LLMCallContext("classify_text", job_id="j")
    with pytest.raises(AttributeError):
        ctx.operation = "classify_images"  # type: ignore[misc]
    other = ctx.clone("classify_images")
    assert (ctx.operation, other.operation, other.job_id) == ("classify_text", "classify_images", "j")
    with pytest.raises(ValueError, match="unknown LLM operation"):
        LLMCallContext("summarise")  # type: ignore[arg-type]
