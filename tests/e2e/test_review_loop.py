"""The human review loop end to end, on the real Kafka, Postgres and the eight services: doubted pages
become tasks, their SKUs wait, an annotator's corrections come back as page.reviewed and are
delivered as a new revision, a team lead's revert and a redo from the reverted correction supersedes
what the redo changed, and only that; the job completes."""

import json

import pytest

from skuflow_contracts.topics import SKU_DELIVERED, SKU_SUPERSEDED
from tests.e2e.review_catalog import review_catalog
from tests.e2e.stack import offsets, records_of, tasks_of

pytestmark = pytest.mark.e2e


def payloads(records) -> list[dict]:
    return [json.loads(r.value)["payload"] for r in records]


def test_corrections_are_delivered_as_new_revisions_and_the_job_completes(pipeline, tmp_path):
    start = offsets(pipeline, SKU_DELIVERED.name, SKU_SUPERSEDED.name)
    job_id = pipeline.upload(review_catalog(tmp_path / "review.pdf"))
    pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_IMPORTED")
    binding, page_review = tasks_of(pipeline, job_id, 2)
    assert (binding["task_type"], binding["page"], page_review["task_type"], page_review["page"]) == (
        "BINDING_REVIEW", 2, "SKU_REVIEW", 3)

    first = pipeline.result(job_id)["pages"][0]
    automatic = [s["sku_id"] for s in first["skus"] if s["validity"] == "valid"]
    held = payloads(records_of(pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id, len(automatic)))
    assert sorted(p["sku"]["sku_id"] for p in held) == sorted(automatic)  # pages 2 and 3 wait (INV-04)

    with pipeline.tasks("ann") as ann:
        assert ann.post(f"/api/v1/tasks/{binding['task_id']}/lock").status_code == 200
        detail = ann.get(f"/api/v1/tasks/{binding['task_id']}").json()
        [ambiguous] = [b for b in detail["result"]["bindings"] if b["is_ambiguous"]]
        second_candidate = ambiguous["candidates"][1]["image_id"]
        first_sku = detail["result"]["skus"][0]
        edits = {first_sku["sku_id"]: {"sku_id": first_sku["sku_id"], "attributes": {
            "price": {"before": first_sku["attributes"]["price"], "after": "123.45"}}}}
        edits.setdefault(ambiguous["sku_id"], {"sku_id": ambiguous["sku_id"]})["image_id"] = {
            "before": None, "after": second_candidate}
        assert ann.post(f"/api/v1/tasks/{binding['task_id']}/complete",
                        json={"edited": list(edits.values())}).status_code == 200

        assert ann.post(f"/api/v1/tasks/{page_review['task_id']}/lock").status_code == 200
        page3 = ann.get(f"/api/v1/tasks/{page_review['task_id']}").json()["result"]
        patch = {"deleted": [page3["skus"][0]["sku_id"]],
                 "added": [{"attributes": {"model": "HUMAN-1", "price": "9.99"}, "bbox": [40, 700, 300, 720]}]}
        assert ann.post(f"/api/v1/tasks/{page_review['task_id']}/complete", json=patch).status_code == 200

    pipeline.wait(job_id, lambda j: j["status"] == "FULL_IMPORTED")
    pages = pipeline.result(job_id)["pages"]
    assert [p["status"] for p in pages[1:]] == ["HUMAN_COMPLETED", "HUMAN_COMPLETED"]
    assert pages[1]["skus"][0]["attributes"]["price"] == "123.45"
    assert {b["image_id"] for b in pages[1]["bindings"] if b["sku_id"] == ambiguous["sku_id"]} == {second_candidate}
    assert "HUMAN-1" in {s["attributes"]["model"] for s in pages[2]["skus"]}
    assert page3["skus"][0]["sku_id"] not in {s["sku_id"] for s in pages[2]["skus"]}

    reviewed = len(pages[1]["skus"]) + len(pages[2]["skus"])
    delivered = payloads(records_of(pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id,
                                    len(automatic) + reviewed))
    assert len(delivered) == len({d["delivery_key"] for d in delivered}) == len(automatic) + reviewed
    assert sorted({d["revision"] for d in delivered if d["page"] > 1}) == [2]

    with pipeline.tasks("lea", roles=("team_lead",)) as lead:
        assert lead.post(f"/api/v1/tasks/{page_review['task_id']}/revert",
                         json={"reason": "HUMAN-1 is a typo"}).status_code == 200
        assert lead.post(f"/api/v1/tasks/{page_review['task_id']}/lock").status_code == 200
        redo = lead.get(f"/api/v1/tasks/{page_review['task_id']}").json()
        assert redo["rework"]["reason"] == "HUMAN-1 is a typo"
        [typo] = [s for s in redo["result"]["skus"] if s["attributes"]["model"] == "HUMAN-1"]  # the correction
        fix = {"edited": [{"sku_id": typo["sku_id"], "attributes": {"model": {"before": "HUMAN-1",
                                                                              "after": "HUMAN-2"}}}]}
        assert lead.post(f"/api/v1/tasks/{page_review['task_id']}/complete", json=fix).status_code == 200

    superseded = payloads(records_of(pipeline, SKU_SUPERSEDED, start[SKU_SUPERSEDED.name], job_id, 1))
    assert [(s["sku_id"], s["page"], s["revision"], s["superseded_by"]) for s in superseded] == [
        (typo["sku_id"], 3, 2, 3)]  # only what the redo changed
    again = payloads(records_of(pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id, len(delivered) + 1))
    assert len(again) == len({d["delivery_key"] for d in again}) == len(delivered) + 1
    assert [d["sku"]["attributes"]["model"] for d in again if d["revision"] == 3] == ["HUMAN-2"]
    final = pipeline.wait(job_id, lambda j: "HUMAN-2" in json.dumps(pipeline.result(job_id)["pages"][2]))
    assert final["status"] == "FULL_IMPORTED"
