"""The extractor's record of a page for its trace bundle (``skuflow_contracts.traces``): what the page
was read with beyond its IR (the previous page's header, the lessons of an adapted reader), the
reader's stages and the reading sent."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from skuflow_contracts.events import PageWork
from skuflow_contracts.traces import ExtractionOutcome, ExtractionTrace, ModelUse, ReaderStages, StageTiming
from skuflow_extractor.domain.extraction import Extraction
from skuflow_extractor.domain.tables import TableHeader
from skuflow_llm.pages import Spent

if TYPE_CHECKING:
    from skuflow_extractor.lessons import Teacher


def extraction_trace(job_id: str, work: PageWork, extraction: Extraction, stages: ReaderStages | None,
                     previous: TableHeader | None, teacher: Teacher, *, reading: int, layout: str | None,
                     spent: Spent | None = None, timing: StageTiming | None = None) -> ExtractionTrace:
    spent = spent or Spent()
    return ExtractionTrace(
        job_id=job_id, page=work.page, generation=work.generation, reading=reading, layout=layout,
        evaluation_review=work.evaluation_review, previous_table=previous.to_json() if previous else None,
        adapted_from=teacher.source, lesson_ids=list(teacher.lesson_ids),
        lessons=[base64.b64encode(data).decode() for data in teacher.lessons], reader=stages,
        extraction=ExtractionOutcome(method=extraction.method, fallback_reason=extraction.fallback_reason,
                                     review_reasons=extraction.review_reasons,
                                     reader_version=extraction.reader_version, confidence=extraction.confidence,
                                     skus=extraction.skus),
        model=ModelUse(calls=spent.calls, cost_usd=spent.cost_usd), timing=timing)
