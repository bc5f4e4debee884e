"""The evaluator's LLM path through the services, with the real ``openai`` client against a local
server speaking its protocol: the model's scores are blended into the route; an outage of the
model leaves the deterministic route and says so. The usual stack has no provider configured, so
every other end-to-end test runs without a single provider call."""

import json

import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_llm.testing import FakeProviderServer, Reply

pytestmark = pytest.mark.e2e
MODEL = "qwen-vl-max"
HOPELESS = json.dumps({"scores": [{"dimension": d, "score": 0.0, "overall": 0.0, "evidence": "unreadable"}
                                  for d in ("layout_quality", "text_readability", "image_quality")]})


@pytest.fixture
def model_server():
    with FakeProviderServer() as server:
        yield server


@pytest.fixture
def evaluator_with_llm(pipeline, model_server):
    env = {"SKUFLOW_LLM_QWEN_API_KEY": "test-key", "SKUFLOW_LLM_QWEN_BASE_URL": model_server.openai_base_url,
           "SKUFLOW_LLM_QWEN_MODEL": MODEL, "SKUFLOW_LLM_LANGFUSE_ENABLED": "false",
           "SKUFLOW_LLM_API_RETRY_BASE_DELAY": "0.01", "SKUFLOW_LLM_API_RETRY_MAX_DELAY": "0.05"}
    with pipeline.restarted(("evaluator",), env):
        yield model_server


def evaluation(pipeline, job_id: str) -> dict:
    with pipeline.client() as client:
        return client.get(f"/api/v1/jobs/{job_id}/evaluation").json()


def test_the_models_doubt_turns_a_clean_catalog_hybrid(pipeline, evaluator_with_llm, tmp_path):
    evaluator_with_llm.default(MODEL, Reply(text=HOPELESS))
    pdf = tmp_path / "clean.pdf"
    generate_catalog(pdf, pages=3, seed=1301)
    job_id = pipeline.upload(pdf)
    pipeline.wait_finished(job_id)
    report = evaluation(pipeline, job_id)
    assert report["model_used"] == f"deterministic+{MODEL}" and f"blended with {MODEL}" in report["route_reason"]
    assert report["route"] == "HYBRID" and report["c_doc"] < report["thresholds"]["A"]
    seen = evaluator_with_llm.seen(MODEL)
    assert len(seen) == 1 and "image_url" in json.dumps(seen[0].body)


def test_a_model_outage_keeps_the_deterministic_route_and_says_so(pipeline, evaluator_with_llm, tmp_path):
    evaluator_with_llm.default(MODEL, Reply(status=503))
    pdf = tmp_path / "clean.pdf"
    generate_catalog(pdf, pages=3, seed=1302)
    job_id = pipeline.upload(pdf)
    job = pipeline.wait_finished(job_id)
    assert job["status"] == "FULL_IMPORTED"
    report = evaluation(pipeline, job_id)
    assert report["route"] == "AUTO" and report["model_used"] == "deterministic"
    assert "[LLM evaluation unavailable" in report["route_reason"]
