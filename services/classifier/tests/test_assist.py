"""A model's page type is adopted only when it is sure, valid and unflagged."""

from skuflow_classifier.domain.assist import adopt, unavailable
from skuflow_contracts.results import PageClassification
from skuflow_llm import ClassifyResult, LLMUnavailableError

UNSURE = PageClassification(page_type="C", page_type_confidence=0.55, layout=None, needs_review=True,
                            reason="few product signals")


def test_a_sure_answer_settles_the_page_and_keeps_the_classifiers_reading_in_the_reason():
    settled = adopt(UNSURE, ClassifyResult(page_type="B", confidence=0.9, layout_type="L2", evidence="grid"),
                    "qwen", 0.7, flagged=False)
    assert (settled.page_type, settled.layout, settled.needs_review) == ("B", "L2", False)
    assert "llm qwen: grid" in settled.reason and "classifier: C" in settled.reason
    assert settled.detail["llm"]["confidence"] == 0.9


def test_an_unsure_flagged_or_invalid_answer_leaves_the_page_in_review():
    for answer, flagged in ((ClassifyResult(page_type="B", confidence=0.5), False),
                            (ClassifyResult(page_type="B", confidence=0.95), True),
                            (ClassifyResult(page_type="Z", confidence=0.95), False), (None, False)):
        kept = adopt(UNSURE, answer, "qwen", 0.7, flagged)
        assert (kept.page_type, kept.needs_review) == ("C", True) and "llm qwen" in kept.reason
    down = unavailable(UNSURE, LLMUnavailableError("down", "LLM_CALL_FAILED"))
    assert down.needs_review and "llm unavailable (LLMUnavailableError)" in down.reason
