"""The LLM paths through the services, with the real ``google-genai`` and ``openai`` clients against a
local server speaking both protocols (recorded answers): a scanned page the rules misread is read
right by the model; an outage (5xx, timeouts) leaves the job complete with review flags; a merchant
over budget is downgraded from the primary model to the standard one; a page carrying a prompt
injection is forced to review; and with no key configured no call is made at all."""

import json

import pytest

from skuflow_llm.testing import FakeProviderServer, Reply
from tests.e2e.llm_catalog import catalog_with_scanned_page, oracle_answer, scanned_skus

pytestmark = pytest.mark.e2e
GEMINI, QWEN = "gemini-2.5-pro", "qwen-vl-max"
ASSISTED = ("evaluator", "classifier", "extractor", "binder")
BUDGET_USD = "0.003"  # one Gemini call of the fake's 1000 + 200 tokens costs 0.00325


@pytest.fixture(scope="module")
def models(pipeline):
    """Both providers configured against the local server, a small per-merchant budget, quick retries."""
    with FakeProviderServer() as server:
        env = {"SKUFLOW_LLM_GEMINI_API_KEY": "test-gemini", "SKUFLOW_LLM_GEMINI_BASE_URL": server.base_url,
               "SKUFLOW_LLM_QWEN_API_KEY": "test-qwen", "SKUFLOW_LLM_QWEN_BASE_URL": server.openai_base_url,
               "SKUFLOW_LLM_LANGFUSE_ENABLED": "false", "SKUFLOW_LLM_PER_MERCHANT_BUDGET_USD": BUDGET_USD,
               "SKUFLOW_LLM_API_RETRY_BASE_DELAY": "0.01", "SKUFLOW_LLM_API_RETRY_MAX_DELAY": "0.05",
               "SKUFLOW_LLM_PARSE_RETRY_BASE_DELAY": "0.01", "SKUFLOW_LLM_QWEN_TIMEOUT_SEC": "3",
               "SKUFLOW_LLM_GEMINI_TIMEOUT_SEC": "3", "SKUFLOW_LLM_CIRCUIT_FAILURE_THRESHOLD": "1000",
               # budgets, breakers and rate limits shared by every service, as in a deployment
               "SKUFLOW_LLM_STATE_DATABASE_URL": pipeline.database_url}
        with pipeline.restarted(ASSISTED, env):
            yield server


@pytest.fixture
def model_server(models):
    models.reset()
    yield models
    models.reset()


def answer_always(server: FakeProviderServer, reply: Reply) -> None:
    for model in (GEMINI, QWEN):
        server.default(model, reply)


def prompts(server: FakeProviderServer) -> str:
    return json.dumps([seen.body for model in (GEMINI, QWEN) for seen in server.seen(model)], ensure_ascii=False)


def last_page(pipeline, job_id: str, merchant: str = "merchant-a") -> dict:
    return pipeline.result(job_id, merchant)["pages"][-1]


def test_a_scanned_product_grid_the_rules_misread_is_read_right_by_the_model(pipeline, model_server, tmp_path):
    pdf = tmp_path / "scan.pdf"
    truth = scanned_skus(catalog_with_scanned_page(pdf, seed=1310, pages=2, dpi=60))  # rules: 0 of 4 codes right
    answer_always(model_server, Reply(text=oracle_answer(truth)))
    job_id = pipeline.upload(pdf, merchant="llm-read")
    job = pipeline.wait_finished(job_id, merchant="llm-read")
    page = last_page(pipeline, job_id, "llm-read")
    assert page["page_type"] in ("B", "C") and page["extraction_method"] == "two_stage"
    assert page["fallback_reason"].startswith("llm:")
    assert sorted(s["attributes"]["model"] for s in page["skus"]) == sorted(s["model"] for s in truth)
    assert "list every product" in prompts(model_server)
    assert job["llm_cost_usd"] > 0


@pytest.mark.parametrize("failure", [Reply(status=503), Reply(delay=6.0)], ids=["5xx", "timeout"])
def test_a_model_outage_leaves_the_job_complete_with_review_flags(pipeline, model_server, tmp_path, failure):
    pdf = tmp_path / "scan.pdf"
    catalog_with_scanned_page(pdf, seed=1320 + int(failure.delay), dpi=90)
    answer_always(model_server, failure)
    job_id = pipeline.upload(pdf, merchant="llm-down")
    job = pipeline.wait_finished(job_id, timeout=240, merchant="llm-down")
    assert job["user_status"] == "partial_success" and job["status"] == "PARTIAL_IMPORTED"
    page = last_page(pipeline, job_id, "llm-down")
    assert page["needs_review"] and any(r.startswith("llm unavailable") for r in page["review_reasons"])
    assert page["extraction_method"] == "table_rule" and page["skus"]


def test_a_merchant_over_budget_is_downgraded_to_the_standard_model(pipeline, model_server, tmp_path):
    answer_always(model_server, Reply(text=oracle_answer([])))
    jobs = []
    for seed in (1330, 1331):
        pdf = tmp_path / f"clean-{seed}.pdf"
        catalog_with_scanned_page(pdf, seed=seed)
        gemini_before = len(model_server.seen(GEMINI))
        job_id = pipeline.upload(pdf, merchant="llm-budget")
        job = pipeline.wait_finished(job_id, merchant="llm-budget")
        with pipeline.client("llm-budget") as client:
            report = client.get(f"/api/v1/jobs/{job_id}/evaluation").json()
        jobs.append((job, report, len(model_server.seen(GEMINI)) - gemini_before))
    (first, _, _), (_, report, gemini_calls) = jobs
    assert first["llm_cost_usd"] > float(BUDGET_USD)  # the first job spent the merchant's budget
    assert report["model_used"] == f"deterministic+{QWEN}" and gemini_calls == 0  # primary route downgraded


def test_a_page_with_a_prompt_injection_is_forced_to_review(pipeline, model_server, tmp_path):
    pdf = tmp_path / "injected.pdf"
    truth = scanned_skus(catalog_with_scanned_page(pdf, seed=1340, injection=True))
    answer_always(model_server, Reply(text=oracle_answer(truth)))
    job_id = pipeline.upload(pdf, merchant="llm-injected")
    pipeline.wait_finished(job_id, merchant="llm-injected")
    page = last_page(pipeline, job_id, "llm-injected")
    assert page["needs_review"] and any(r.startswith("llm_answer_flagged") for r in page["review_reasons"])


def test_no_call_is_made_without_a_key_even_with_the_endpoints_set(pipeline, tmp_path):
    with FakeProviderServer() as server:
        env = {"SKUFLOW_LLM_GEMINI_BASE_URL": server.base_url, "SKUFLOW_LLM_QWEN_BASE_URL": server.openai_base_url}
        with pipeline.restarted(ASSISTED, env):
            pdf = tmp_path / "scan.pdf"
            catalog_with_scanned_page(pdf, seed=1350, dpi=90)
            job_id = pipeline.upload(pdf, merchant="llm-none")
            job = pipeline.wait_finished(job_id, merchant="llm-none")
        assert server.requests == [] and job["llm_cost_usd"] == 0
    with pipeline.client("llm-none") as client:
        assert client.get(f"/api/v1/jobs/{job_id}/evaluation").json()["model_used"] == "deterministic"
