"""sku_field_fill_rate (seed-001b §3.1 #35): each attribute's share of the SKUs output delivered, by the
category of the profile their job is frozen to, as running counts; on the real Postgres, a delivered
page counts under its published profile's category, or "unknown" before that profile is heard of."""

import asyncio
import uuid
from types import SimpleNamespace

from prometheus_client import REGISTRY

from skuflow_contracts.codec import envelope_for
from skuflow_contracts.events import PageBound, ProfilePublished
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import ATTRIBUTE_NAMES, PageResult, SkuAttributes, SkuRecord
from skuflow_output.metrics import DELIVERED, count_delivered
from skuflow_output.service import definition, subscriptions
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import Database, migrate
from skuflow_platform.storage import LocalStorage


def fill_rates(category: str) -> dict[str, float | None]:
    return {name: REGISTRY.get_sample_value("sku_field_fill_rate", {"field": name, "category": category})
            for name in ATTRIBUTE_NAMES}


def sku(n: int, **attributes: str) -> SkuRecord:
    return SkuRecord(sku_id=f"s_p01_{n:03d}", validity="valid", attributes=SkuAttributes(**attributes),
                     source_bbox=(0, 0, 1, 1), confidence=0.9)


def test_each_attributes_fill_rate_is_its_share_of_the_skus_delivered_so_far():
    category = f"lamps-{uuid.uuid4().hex[:6]}"
    count_delivered(category, [sku(1, model="A", price="9.90"), sku(2, model="B")])
    assert fill_rates(category) == {"model": 1.0, "product_name": 0.0, "size": 0.0, "material": 0.0,
                                    "color": 0.0, "price": 0.5}
    count_delivered(category, [sku(3, product_name="lamp", price="5.00", color="red", size="", material="")])
    assert fill_rates(category) == {"model": 2 / 3, "product_name": 1 / 3, "size": 1 / 3, "material": 1 / 3,
                                    "color": 1 / 3, "price": 2 / 3}  # running counts; an empty text is a value


def test_a_page_with_nothing_delivered_sets_no_rate():
    category = f"rugs-{uuid.uuid4().hex[:6]}"
    count_delivered(category, [])
    assert set(fill_rates(category).values()) == {None}


async def test_a_delivered_page_counts_under_its_profiles_category_or_unknown_before_it_is_heard_of(
        database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    ctx = SimpleNamespace(storage=LocalStorage(tmp_path), settings=SimpleNamespace(jwt_secret="s" * 40))
    handlers = {topic.name: handler for topic, handler in subscriptions(ctx)}
    category, version = f"sofas-{uuid.uuid4().hex[:6]}", f"m:sofas-{uuid.uuid4().hex[:6]}:v1"

    async def handle(payload) -> None:
        spec, envelope = envelope_for(payload, job_id=f"job-{uuid.uuid4().hex[:8]}", merchant_id="m", producer="test")
        async with db.transaction() as conn:
            await run_handler(handlers[spec.topic.name], envelope, conn, definition.tables, "output")

    def page(config_version: str) -> PageBound:
        result = PageResult(page=1, status="AI_COMPLETED", page_type="A", layout="L1", needs_review=False,
                            parser_backend="pymupdf", extraction_method="table_rule",
                            skus=[sku(1, model="S-1", price="99"), sku(2, model="S-2")])
        return PageBound(page=1, total_pages=1, file_hash="5f" * 32, route="AUTO", config_version=config_version,
                         ir_uri="local://ir.json", result=result)

    unknown = DELIVERED["unknown"]
    await handle(page(version))  # its profile.published is still on the way
    assert DELIVERED["unknown"] == unknown + 2 and fill_rates(category)["model"] is None
    await handle(ProfilePublished(config_version=version, profile=ThresholdProfile(version=version, category=category)))
    await handle(page(version))
    await db.close()
    assert (fill_rates(category)["model"], fill_rates(category)["price"]) == (1.0, 0.5)
