"""The evaluator's schema: evaluations cached by (file_hash, config_version) (seed-001b §1.2.2)."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.profiles import profiles_table
from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="evaluator")
platform = platform_tables(metadata)
profiles = profiles_table(metadata)

evaluations = sa.Table(
    "evaluations", metadata,
    sa.Column("file_hash", sa.Text, primary_key=True),
    sa.Column("config_version", sa.Text, primary_key=True),
    sa.Column("route", sa.Text, nullable=False),
    sa.Column("c_doc", sa.Float),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("degrade_reason", sa.Text),
    sa.Column("report", JSONB, nullable=False),
    sa.Column("model_used", sa.Text, nullable=False, server_default="deterministic"),
    sa.Column("evaluated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
)
