"""The evaluator's schema: evaluations cached by (file_hash, config_version)."""

import sqlalchemy as sa

from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="evaluator")
platform = platform_tables(metadata)

evaluations = sa.Table(
    "evaluations", metadata,
    sa.Column("file_hash", sa.Text, primary_key=True),
    sa.Column("config_version", sa.Text, primary_key=True),
    sa.Column("route", sa.Text, nullable=False),
    sa.Column("c_doc", sa.Float),
    sa.Column("reason", sa.Text, nullable=False),
)
