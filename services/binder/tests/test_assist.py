"""A model settles an ambiguous binding only with one of its candidates, surely and unflagged."""

from skuflow_binder.domain.assist import ambiguous_candidates, resolve
from skuflow_contracts.results import BindingCandidate, BindingRecord, PageResult
from skuflow_llm import BindingHints

CANDIDATES = [BindingCandidate(image_id="img-1", confidence=0.6), BindingCandidate(image_id="img-2", confidence=0.55)]
PAGE = PageResult(page=2, status="HUMAN_QUEUED", page_type="C", layout="L2", needs_review=True,
                  parser_backend="pymupdf", extraction_method="two_stage", review_reasons=["ambiguous_binding"],
                  bindings=[BindingRecord(sku_id="s1", image_id=None, confidence=0.6, is_ambiguous=True,
                                          method="grid_alignment", candidates=CANDIDATES)])


def test_a_sure_pick_among_the_candidates_binds_and_clears_the_review():
    assert ambiguous_candidates(PAGE)[0]["candidates"][1]["image_id"] == "img-2"
    settled = resolve(PAGE, BindingHints(bindings=[{"sku_id": "s1", "image_id": "img-2", "confidence": 0.85}]), False)
    binding = settled.bindings[0]
    assert (binding.image_id, binding.is_ambiguous, binding.method) == ("img-2", False, "llm")
    assert (settled.needs_review, settled.status, settled.review_reasons) == (False, "AI_COMPLETED", [])


def test_other_picks_settle_nothing():
    for hints, flagged in ((BindingHints(bindings=[{"sku_id": "s1", "image_id": "img-9", "confidence": 0.9}]), False),
                           (BindingHints(bindings=[{"sku_id": "s1", "image_id": "img-1", "confidence": 0.4}]), False),
                           (BindingHints(bindings=[{"sku_id": "s1", "image_id": "img-1", "confidence": 0.9}]), True),
                           (BindingHints(bindings=[{"image_id": "img-1"}]), False)):
        assert resolve(PAGE, hints, flagged) == PAGE
