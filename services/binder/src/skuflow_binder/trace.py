"""The binder's record of a page for its trace bundle (``skuflow_contracts.traces``): the job's images
seen before the page (its dedup state, to bind it again offline) and the page's result: image roles,
binding candidates and the bindings chosen, validation."""

from __future__ import annotations

from skuflow_binder.domain.dedup import SeenImages
from skuflow_contracts.events import PageWork
from skuflow_contracts.results import PageResult
from skuflow_contracts.traces import BindingTrace, ModelUse, StageTiming
from skuflow_llm.pages import Spent


def binding_trace(job_id: str, work: PageWork, seen_before: SeenImages, result: PageResult, spent: Spent,
                  timing: StageTiming) -> BindingTrace:
    return BindingTrace(job_id=job_id, page=work.page, generation=work.generation, reading=work.reading,
                        seen_images=sorted(seen_before.hashes), seen_perceptual=sorted(seen_before.perceptual),
                        result=result, model=ModelUse(calls=spent.calls, cost_usd=spent.cost_usd), timing=timing)
