"""What an importer gets to fetch images with: signed links in ``sku.delivered`` (since 1.1, read by
1.0 consumers and readable from 1.0 producers) and the JSON schema of the HTTP import's body, committed
where receivers find it and equal to what the contract exports."""

import json
from pathlib import Path

from skuflow_contracts.__main__ import IMPORT_SCHEMA, export
from skuflow_contracts.codec import decode, encode, envelope_for
from skuflow_contracts.events import SkuDelivered
from skuflow_contracts.registry import spec_for_payload
from skuflow_contracts.results import ImageLink
from skuflow_contracts.topics import SKU_DELIVERED

COMMITTED = Path(__file__).parents[3] / "schemas" / IMPORT_SCHEMA
SKU = dict(sku_id="abababab_p01_001", validity="valid", attributes={"model": "X-1"}, source_bbox=[0, 0, 1, 1],
           confidence=0.9)


def test_sku_delivered_1_1_carries_image_links_and_a_1_0_event_still_reads():
    link = ImageLink(image_id="img_1", url="http://gw/api/v1/files?uri=local%3A%2F%2Fa.png&expires=9&signature=s",
                     expires_at="2026-12-01T00:00:00Z")
    delivered = SkuDelivered(page=1, file_hash="ab" * 32, sku=SKU, image_links=[link])
    spec, envelope = envelope_for(delivered, job_id="j1", merchant_id="m1", producer="test")
    assert spec.schema_version == "1.1"  # a field added: a minor version
    assert decode(SKU_DELIVERED.name, encode(envelope)).payload.image_links == [link]
    older = json.loads(encode(envelope))
    older["schema_version"] = "1.0"
    del older["payload"]["image_links"]
    assert decode(SKU_DELIVERED.name, json.dumps(older).encode()).payload.image_links == []
    assert spec_for_payload(delivered).event_type == "sku.delivered"


def test_the_committed_import_schema_is_the_one_the_contract_exports(tmp_path):
    export(tmp_path)
    assert COMMITTED.is_file(), "run `make schemas` and commit schemas/" + IMPORT_SCHEMA
    assert json.loads(COMMITTED.read_text()) == json.loads((tmp_path / IMPORT_SCHEMA).read_text())
