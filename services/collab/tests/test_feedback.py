"""The feedback loop: calibration and attribute promotion suggestions, and few-shot examples."""

import asyncio
from datetime import UTC, datetime

import sqlalchemy as sa

from skuflow_collab.domain.feedback import Reviewed, calibration, promotions
from skuflow_collab.feedback import AnnotationExamples, suggest
from skuflow_collab.service import definition
from skuflow_collab.tables import annotation_examples, annotations, feedback_suggestions, human_tasks
from skuflow_llm.prompts.fewshot import best_examples
from skuflow_platform.db import Database, migrate


def test_calibration_needs_more_than_fifty_tasks_and_says_which_way_to_move():
    assert calibration([Reviewed(10, 0, 0, 0)] * 50) is None
    careless = calibration([Reviewed(10, 3, 1, 2)] * 51)
    assert (careless["precision"], careless["recall"]) == (0.6, 0.8182)
    assert careless["suggested_threshold_change"] == {"A": 0.02, "PV": 0.02}
    assert calibration([Reviewed(10, 0, 0, 0)] * 51)["suggested_threshold_change"] == {"A": -0.02, "PV": -0.02}


def test_only_attributes_confirmed_twenty_times_are_promoted():
    confirmed = [{"Voltage": "12V"}] * 20 + [{"voltage ": "24V", "Finish": "matte"}] + [{"Finish": "gloss"}] * 18
    assert promotions(confirmed) == [{"attribute": "voltage", "confirmations": 21}]


async def test_suggestions_are_written_once_a_day_and_examples_feed_the_prompt_engine(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    try:
        async with db.transaction() as conn:
            await conn.execute(sa.text("TRUNCATE collab.annotations, collab.feedback_suggestions, "
                                       "collab.annotation_examples, collab.human_tasks"))
            await conn.execute(annotations.insert(), [
                {"task_id": f"t{n}", "job_id": "j", "merchant_id": "m1", "page": 1, "annotator": "ann",
                 "type": "CUSTOM_ATTR_CONFIRM", "payload": {"sku_id": "s", "custom_attributes": {"功率": "5W"}}}
                for n in range(20)])
            await conn.execute(human_tasks.insert(), [
                {"task_id": f"c{n}", "job_id": "j", "merchant_id": "m1", "page": n + 1, "task_type": "SKU_REVIEW",
                 "priority": 2, "status": "COMPLETED", "reason": "r", "completed_at": datetime.now(UTC),
                 "context": {"result": {"skus": [{}] * 4}}} for n in range(51)])
            await conn.execute(annotation_examples.insert(), [
                {"task_id": f"e{q}", "task_type": "SKU_REVIEW", "merchant_id": "m1", "input_context": f"q{q}",
                 "output_json": {"q": q}, "quality_score": q / 100, "is_confirmed": True} for q in (70, 86, 95)])
        early = datetime(2026, 11, 24, 1, 0, tzinfo=UTC)
        late = datetime(2026, 11, 24, 4, 0, tzinfo=UTC)
        async with db.transaction() as conn:
            assert await suggest(conn, early) == 0
            assert await suggest(conn, late) == 2
            assert await suggest(conn, late) == 0
            kinds = (await conn.execute(sa.select(feedback_suggestions.c.kind, feedback_suggestions.c.status)
                                        .order_by(feedback_suggestions.c.kind))).all()
        assert kinds == [("attribute_promotion", "SUGGESTED"), ("calibration", "SUGGESTED")]
        found = await AnnotationExamples(db).examples("SKU_REVIEW", None, min_quality=0.85, limit=3)
        assert [e.input for e in best_examples(found, min_quality=0.85, limit=3)] == ["q95", "q86"]
    finally:
        await db.close()
