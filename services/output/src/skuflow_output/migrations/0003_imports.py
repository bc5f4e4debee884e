"""output: the HTTP import of each page and revision (seed-001a §7.26), due calls indexed."""

import sqlalchemy as sa
from alembic import op

revision = "output_0003"
down_revision = "output_0002"
SCHEMA = "output"


def upgrade() -> None:
    op.create_table(
        "imports",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("revision", sa.Integer, primary_key=True),
        sa.Column("merchant_id", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("sku_count", sa.Integer, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True)),
        sa.Column("failing_since", sa.DateTime(timezone=True)),
        sa.Column("last_error", sa.Text),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )
    op.create_index("imports_due", "imports", ["next_attempt_at"], schema=SCHEMA,
                    postgresql_where=sa.text("status IN ('PENDING', 'IMPORT_FAILED')"))
    op.create_index("imports_status", "imports", ["status"], schema=SCHEMA)


def downgrade() -> None:
    op.drop_table("imports", schema=SCHEMA)
