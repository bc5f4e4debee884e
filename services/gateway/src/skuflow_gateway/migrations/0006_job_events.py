"""gateway: the job's timeline (the SSE stream, numbered per job, resumable by number) and each page's
latest reading."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "gateway_0006"
down_revision = "gateway_0005"
SCHEMA = "gateway"


def upgrade() -> None:
    op.create_table(
        "job_events",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("job_id", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("data", JSONB, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )
    op.create_unique_constraint("uq_job_events_seq", "job_events", ["job_id", "seq"], schema=SCHEMA)
    op.add_column("jobs", sa.Column("event_seq", sa.Integer, nullable=False, server_default="0"), schema=SCHEMA)
    op.add_column("job_pages", sa.Column("result", JSONB), schema=SCHEMA)
    op.add_column("job_pages", sa.Column("revision", sa.Integer, nullable=False, server_default="1"), schema=SCHEMA)
    op.add_column("job_pages", sa.Column("started_at", sa.DateTime(timezone=True)), schema=SCHEMA)


def downgrade() -> None:
    for column in ("started_at", "revision", "result"):
        op.drop_column("job_pages", column, schema=SCHEMA)
    op.drop_column("jobs", "event_seq", schema=SCHEMA)
    op.drop_table("job_events", schema=SCHEMA)
