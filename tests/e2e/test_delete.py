"""Deleting a job through the running services: once the gateway answers 204, every service forgets
the job (no row of it left in any schema, no message of it in any outbox) and its files are gone."""

import time

import pytest
import sqlalchemy as sa

from skuflow_cli.catalog import generate_catalog

pytestmark = pytest.mark.e2e
SCHEMAS = ("gateway", "parser", "classifier", "extractor", "binder", "collab", "output")


def rows_of(pipeline, job_id: str) -> dict[str, int]:
    """Per table of every service, the rows that name the job (job_id column, outbox key, audit id)."""
    engine = sa.create_engine(pipeline.database_url)
    found: dict[str, int] = {}
    try:
        with engine.connect() as conn:
            tables = conn.execute(sa.text(
                "SELECT table_schema, table_name FROM information_schema.columns WHERE column_name = 'job_id' "
                "AND table_schema = ANY(:schemas)"), {"schemas": list(SCHEMAS)}).all()
            for schema, table in tables:
                found[f"{schema}.{table}"] = conn.execute(sa.text(
                    f'SELECT count(*) FROM "{schema}"."{table}" WHERE job_id = :job'), {"job": job_id}).scalar_one()
            for schema in SCHEMAS:
                found[f"{schema}.outbox"] = conn.execute(sa.text(
                    f'SELECT count(*) FROM "{schema}".outbox WHERE message_key = :job'), {"job": job_id}).scalar_one()
                found[f"{schema}.state_transitions"] = conn.execute(sa.text(
                    f'SELECT count(*) FROM "{schema}".state_transitions WHERE entity_id = :job '
                    "OR entity_id LIKE :child OR entity_id LIKE :inner"),
                    {"job": job_id, "child": f"{job_id}/%", "inner": f"%/{job_id}/%"}).scalar_one()
    finally:
        engine.dispose()
    return {table: count for table, count in found.items() if count}


def test_a_deleted_job_is_forgotten_by_every_service_and_its_files_are_gone(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=3, seed=9)
    job_id = pipeline.upload(pdf)
    pipeline.wait_finished(job_id)
    assert len(rows_of(pipeline, job_id)) >= 6  # every stage kept something of it
    with pipeline.client() as client:
        assert client.delete(f"/api/v1/jobs/{job_id}").status_code == 204
        assert client.get(f"/api/v1/jobs/{job_id}").status_code == 404
    assert not (pipeline.storage_root / "jobs" / job_id).exists()
    assert not (pipeline.storage_root / "results" / job_id).exists()
    deadline = time.monotonic() + 30
    while (left := rows_of(pipeline, job_id)) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert left == {}
