"""The gateway's schema: jobs as users see them, per-page progress rows, the job timeline, users, and
threshold profiles with every version."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="gateway")
platform = platform_tables(metadata)

jobs = sa.Table(
    "jobs", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("merchant_id", sa.Text, nullable=False, index=True),
    sa.Column("uploaded_by", sa.Text, nullable=False),
    sa.Column("filename", sa.Text, nullable=False),
    sa.Column("file_hash", sa.Text, nullable=False),
    sa.Column("file_uri", sa.Text, nullable=False),
    sa.Column("size_bytes", sa.BigInteger, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("route", sa.Text),
    sa.Column("degrade_reason", sa.Text),
    sa.Column("total_pages", sa.Integer),
    sa.Column("result_uri", sa.Text),
    sa.Column("sku_count", sa.Integer),
    sa.Column("warnings", JSONB),  # e.g. the PDF was damaged and repaired when opened
    sa.Column("evaluation", JSONB),  # the evaluator's report (EvaluationReport), from job.routed
    sa.Column("event_seq", sa.Integer, nullable=False, server_default="0"),  # the timeline's last number
    sa.Column("delivery_stopped_at", sa.DateTime(timezone=True)),  # a cancel the output service confirmed
    sa.Column("config_version", sa.Text),  # the profile version frozen at upload (INV-09)
    sa.Column("files_purged_at", sa.DateTime(timezone=True)),  # the retention cleanup removed its files
    sa.Column("pending_completion", JSONB),  # a job.completed waiting for its pages' events (completion.py)
    sa.Column("completion_pending_since", sa.DateTime(timezone=True)),
    sa.Column("generation", sa.Integer, nullable=False, server_default="0"),  # full reprocesses so far
    sa.Column("completed_at", sa.DateTime(timezone=True)),  # its latest completion (job_states.settled)
    sa.Column("failure_detail", sa.Text),  # the failing stage's own words (job.failed), e.g. the page count
    sa.Column("traceparent", sa.Text),  # of the upload span, where the job's trace starts (tracing.py)
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)

job_pages = sa.Table(
    "job_pages", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("error", sa.Text),  # why the page failed, for the job's error_message
    sa.Column("llm_cost_usd", sa.Float, nullable=False, server_default="0"),  # the page's model calls
    sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Column("result", JSONB),  # the page's latest reading (PageResult): the machine's, then a person's
    sa.Column("revision", sa.Integer, nullable=False, server_default="1"),
    sa.Column("started_at", sa.DateTime(timezone=True)),  # when the parser had read it (page.parsed)
    sa.Column("import_status", sa.Text),  # its downstream HTTP import (page.imported), when there is one
)

job_events = sa.Table(
    "job_events", metadata,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("job_id", sa.Text, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),  # the SSE event id: numbered per job in commit order
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("data", JSONB, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.UniqueConstraint("job_id", "seq", name="uq_job_events_seq"),
)

users = sa.Table(
    "users", metadata,
    sa.Column("user_id", sa.Text, primary_key=True),
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("username", sa.Text, nullable=False, unique=True),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("roles", JSONB, nullable=False),
    sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Column("invite_hash", sa.Text, unique=True),  # an invitation not yet accepted (sha256 of its token)
    sa.Column("invite_expires_at", sa.DateTime(timezone=True)),
    sa.Column("created_by", sa.Text),
)

refresh_tokens = sa.Table(
    "refresh_tokens", metadata,
    sa.Column("token_hash", sa.Text, primary_key=True),
    sa.Column("user_id", sa.Text, nullable=False, index=True),
    sa.Column("family_id", sa.Text, nullable=False, index=True),  # one login and its rotations
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("revoked_at", sa.DateTime(timezone=True)),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)

profiles = sa.Table(
    "profiles", metadata,
    sa.Column("merchant_id", sa.Text, primary_key=True),
    sa.Column("profile_id", sa.Text, primary_key=True),
    sa.Column("category", sa.Text, nullable=False),
    sa.Column("active_version", sa.Text, nullable=False),
    sa.Column("is_default", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Index("profiles_one_default", "merchant_id", unique=True, postgresql_where=sa.text("is_default")),
)

profile_versions = sa.Table(
    "profile_versions", metadata,
    sa.Column("merchant_id", sa.Text, primary_key=True),
    sa.Column("profile_id", sa.Text, primary_key=True),
    sa.Column("version", sa.Text, primary_key=True),
    sa.Column("config_version", sa.Text, nullable=False, unique=True),
    sa.Column("previous_version", sa.Text),
    sa.Column("settings", JSONB, nullable=False),  # the ThresholdProfile, as published
    sa.Column("created_by", sa.Text, nullable=False),
    sa.Column("change_reason", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)
