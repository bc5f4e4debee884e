"""The feedback loop's adapters: daily suggestions written for a person to accept (never applied
here), and the few-shot examples that ``skuflow_llm``'s prompt engine reads (``FewShotSource``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_collab.domain.feedback import (
    CALIBRATION_DAYS,
    CALIBRATION_HOUR,
    PROMOTION_HOUR,
    Reviewed,
    calibration,
    promotions,
)
from skuflow_collab.tables import annotation_examples, annotations, feedback_suggestions, human_tasks
from skuflow_platform.db import Database


async def _record(conn: AsyncConnection, kind: str, merchant: str, now: datetime, payload: dict) -> int:
    done = await conn.execute(pg_insert(feedback_suggestions).values(
        kind=kind, merchant_id=merchant, day=now.date(), payload=payload,
    ).on_conflict_do_nothing().returning(feedback_suggestions.c.id))
    return int(done.first() is not None)


async def suggest(conn: AsyncConnection, now: datetime) -> int:
    """Write today's suggestions that are due and not yet written (once per kind, merchant and day)."""
    written = 0
    merchants = (await conn.execute(sa.select(annotations.c.merchant_id).distinct())).scalars().all()
    for merchant in merchants:
        if now.hour >= PROMOTION_HOUR:
            confirmed = (await conn.execute(sa.select(annotations.c.payload).where(
                annotations.c.merchant_id == merchant, annotations.c.type == "CUSTOM_ATTR_CONFIRM"))).scalars().all()
            found = promotions([p.get("custom_attributes", {}) for p in confirmed])
            if found:
                written += await _record(conn, "attribute_promotion", merchant, now, {"attributes": found})
        if now.hour >= CALIBRATION_HOUR:
            found = calibration(await _reviewed(conn, merchant, now - timedelta(days=CALIBRATION_DAYS)))
            if found:
                written += await _record(conn, "calibration", merchant, now, found)
    return written


async def _reviewed(conn: AsyncConnection, merchant: str, since: datetime) -> list[Reviewed]:
    t = human_tasks.c
    tasks = (await conn.execute(sa.select(t.task_id, t.context).where(
        t.merchant_id == merchant, t.status == "COMPLETED", t.completed_at >= since))).all()
    notes = (await conn.execute(sa.select(annotations.c.task_id, annotations.c.payload).where(
        annotations.c.type == "SKU_ATTRIBUTE_CORRECTION", annotations.c.merchant_id == merchant,
        annotations.c.task_id.in_([task.task_id for task in tasks])))).all()
    actions = Counter((n.task_id, n.payload.get("action")) for n in notes)
    return [Reviewed(machine=len(((task.context or {}).get("result") or {}).get("skus") or []),
                     edited=actions[task.task_id, "edited"], deleted=actions[task.task_id, "deleted"],
                     added=actions[task.task_id, "added"]) for task in tasks]


class AnnotationExamples:
    """Few-shot examples from annotations by accurate annotators (quality ≥ 0.85, C13): the
    ``FewShotSource`` a service hands to ``skuflow_llm``'s prompt engine (so collab itself does not
    install the LLM clients: the example type is imported where it is asked for)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def examples(self, task_type: str, category: str | None, *, min_quality: float,
                       limit: int) -> Sequence:
        from skuflow_llm.prompts.fewshot import FewShotExample

        e = annotation_examples.c
        async with self.db.transaction() as conn:
            rows = (await conn.execute(sa.select(e.input_context, e.output_json, e.quality_score).where(
                e.task_type == task_type, e.is_confirmed, e.quality_score >= min_quality,
            ).order_by(e.quality_score.desc(), e.created_at.desc()).limit(limit))).all()
        return [FewShotExample(input=r.input_context, output=r.output_json, quality_score=r.quality_score)
                for r in rows]
