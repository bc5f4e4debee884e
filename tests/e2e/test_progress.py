"""A job as its uploader watches it: the SSE timeline from upload to completion (resumed after a
reconnect with Last-Event-ID), progress, pages with screenshots and SKUs as JSON and CSV."""

import csv
import io
import json

import pytest

from skuflow_cli.catalog import generate_catalog

pytestmark = pytest.mark.e2e
PAGES = 30


def sse_events(client, job_id: str, last_event_id: int | None = None, stop_after: int | None = None):
    """(id, event, data) of the stream until it ends, or until ``stop_after`` events (a disconnect)."""
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {}
    events, frame = [], {}
    with client.stream("GET", f"/api/v1/jobs/{job_id}/events", headers=headers, timeout=180) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith(("id:", "event:", "data:")):
                key, _, value = line.partition(":")
                frame[key] = value.strip()
            elif not line and "id" in frame:
                events.append((int(frame["id"]), frame["event"], json.loads(frame["data"])))
                frame = {}
                if stop_after is not None and len(events) >= stop_after:
                    break
    return events


def test_a_30_page_job_watched_over_sse_with_a_reconnect(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=PAGES, seed=11)
    job_id = pipeline.upload(pdf)
    with pipeline.client() as client:
        first = sse_events(client, job_id, stop_after=12)  # the connection drops here
        running = client.get(f"/api/v1/jobs/{job_id}/progress").json()
        rest = sse_events(client, job_id, last_event_id=first[-1][0])
        replay = sse_events(client, job_id, last_event_id=0)  # everything, from the start

        seen = first + rest
        assert [e[0] for e in seen] == list(range(1, len(seen) + 1))  # in order, none missing, none twice
        assert seen == replay
        statuses = [data["status"] for _, kind, data in seen if kind == "status"]
        assert statuses == ["UPLOADED", "EVALUATING", "EVALUATED", "PROCESSING", "FULL_IMPORTED"]
        started = sorted(data["page_no"] for _, kind, data in seen if kind == "page_started")
        done = sorted(data["page_no"] for _, kind, data in seen if kind == "page_completed")
        assert started == done == list(range(1, PAGES + 1))
        assert seen[-1][1] == "job_completed" and seen[-1][2]["status"] == "FULL_IMPORTED"
        assert running["total_pages"] in (None, PAGES) and running["current_phase"] in (
            "evaluating", "processing", "importing", "done")

        finished = client.get(f"/api/v1/jobs/{job_id}/progress").json()
        assert (finished["current_phase"], finished["completed_pages"]) == ("done", PAGES)
        assert finished["page_breakdown"] == {"ai_completed": PAGES}

        pages = client.get(f"/api/v1/jobs/{job_id}/pages").json()["pages"]
        assert [p["page"] for p in pages] == list(range(1, PAGES + 1))
        page = client.get(f"/api/v1/jobs/{job_id}/pages/2").json()
        assert page["result"]["page"] == 2 and page["sku_count"] == len(page["result"]["skus"])
        shot = client.get(page["screenshot_url"])
        assert shot.status_code == 200 and shot.content.startswith(b"\x89PNG")

        job = client.get(f"/api/v1/jobs/{job_id}").json()
        valid = client.get(f"/api/v1/jobs/{job_id}/skus", params={"validity": "valid", "limit": 1000}).json()
        assert valid["total"] == job["sku_count"] == seen[-1][2]["total_skus"]
        second = client.get(f"/api/v1/jobs/{job_id}/skus", params={"validity": "valid", "offset": 5, "limit": 5})
        assert second.json()["skus"] == valid["skus"][5:10]
        exported = client.get(f"/api/v1/jobs/{job_id}/skus", params={"validity": "valid", "format": "csv"})
        assert exported.headers["content-type"].startswith("text/csv")
        assert len(list(csv.DictReader(io.StringIO(exported.text)))) == job["sku_count"]

    with pipeline.client("merchant-b") as other:  # another merchant's job does not exist for them
        for path in ("progress", "events", "pages", "pages/2", "pages/2/screenshot", "skus"):
            assert other.get(f"/api/v1/jobs/{job_id}/{path}").status_code == 404, path
