"""Keeping reports of runs against the services in ``evaluation.eval_reports`` (seed §3.3)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.db import migrate

metadata = sa.MetaData(schema="evaluation")
eval_reports = sa.Table(
    "eval_reports", metadata,
    sa.Column("id", sa.Integer, sa.Identity(), primary_key=True),
    sa.Column("golden_set_id", sa.Text, nullable=False),
    sa.Column("config_version", sa.Text, nullable=False),
    sa.Column("via", sa.Text, nullable=False),
    sa.Column("sku_precision", sa.Float),
    sa.Column("sku_recall", sa.Float),
    sa.Column("sku_f1", sa.Float),
    sa.Column("binding_accuracy", sa.Float),
    sa.Column("human_intervention_rate", sa.Float),
    sa.Column("report_data", JSONB, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)


def store_report(database_url: str, report: dict, *, config_version: str) -> int:
    """Insert the report and return its id."""
    migrate(database_url, "evaluation", Path(__file__).parent / "migrations")
    overall = report["overall"]
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as conn:
            return conn.execute(eval_reports.insert().values(
                golden_set_id=report["golden_dir"], config_version=config_version, via=report["via"],
                sku_precision=overall["sku"]["precision"], sku_recall=overall["sku"]["recall"],
                sku_f1=overall["sku"]["f1"], binding_accuracy=overall["binding"]["precision"],
                human_intervention_rate=overall["human_intervention_rate"], report_data=report,
            ).returning(eval_reports.c.id)).scalar_one()
    finally:
        engine.dispose()
