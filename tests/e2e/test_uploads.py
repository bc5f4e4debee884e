"""Bad uploads, bad tokens and other merchants' data each get a clear answer."""

import io

import pymupdf
import pytest

from skuflow_cli.catalog import generate_catalog
from tests.e2e.conftest import MAX_UPLOAD_MB

pytestmark = pytest.mark.e2e


def post(pipeline, data: bytes, name: str = "c.pdf", headers=None, merchant="merchant-a"):
    with pipeline.client(merchant) as client:
        if headers is not None:
            client.headers = headers
        return client.post("/api/v1/jobs", files={"file": (name, io.BytesIO(data), "application/pdf")})


@pytest.mark.parametrize("data, status, message", [
    (b"", 400, "empty"),
    (b"PK\x03\x04 this is a zip file", 415, "not a PDF"),
    (b"%PDF-1.7\n" + b"0" * (MAX_UPLOAD_MB * 1024 * 1024), 413, "larger than"),
])
def test_bad_uploads_get_a_4xx_with_a_clear_message(pipeline, data, status, message):
    response = post(pipeline, data)
    assert response.status_code == status
    assert message in response.json()["detail"]


@pytest.mark.parametrize("headers, message", [
    ({}, "missing Authorization"),
    ({"Authorization": "Bearer forged.token.value"}, "invalid token"),
    ({"Authorization": "Token abc"}, "Bearer <token>"),
])
def test_wrong_tokens_get_401(pipeline, headers, message):
    response = post(pipeline, b"%PDF-1.7", headers=headers)
    assert response.status_code == 401 and message in response.json()["detail"]


def test_another_merchants_job_is_not_found(pipeline, tmp_path):
    pdf = tmp_path / "c.pdf"
    generate_catalog(pdf, pages=2)
    job_id = pipeline.upload(pdf, merchant="merchant-a")
    with pipeline.client("merchant-b") as other:
        assert other.get(f"/api/v1/jobs/{job_id}").status_code == 404
        assert other.get(f"/api/v1/jobs/{job_id}/result").status_code == 404
        assert job_id not in {j["job_id"] for j in other.get("/api/v1/jobs").json()}
    pipeline.wait_finished(job_id)


def _encrypted_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret catalog")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="owner")


def _scripted_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "catalog with a script")
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", "<</S/JavaScript/JS(app.alert(1))>>")
    return doc.tobytes()


@pytest.mark.parametrize("data, reason_text", [
    (b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref", "no pages"),
    (_encrypted_pdf(), "encrypted"),
    (_scripted_pdf(), "unsafe script content"),
])
def test_unreadable_pdfs_fail_the_job_with_a_reason(pipeline, data, reason_text):
    response = post(pipeline, data)
    assert response.status_code == 201
    job_id = response.json()["job_id"]
    job = pipeline.wait_finished(job_id, timeout=60)
    assert job["status"] == "REJECTED" and job["user_status"] == "failed"
    assert reason_text in job["error_message"]
    assert job["action_hint"] == "please check and re-upload"
    with pipeline.client() as client:
        assert client.get(f"/api/v1/jobs/{job_id}/result").status_code == 409


def test_result_of_an_unknown_job_is_404(pipeline):
    with pipeline.client() as client:
        response = client.get("/api/v1/jobs/no-such-job/result")
    assert response.status_code == 404 and "not found" in response.json()["detail"]
