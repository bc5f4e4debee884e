"""Threshold profiles as a service reads them: a read model of every published version.

The gateway owns profiles (create, update, roll back); each version it publishes arrives here as
``profile.published`` and is kept in the service's own ``profiles`` table. A version never changes,
so once read it is cached for the life of the process. The built-in profiles (``PROFILES``, the
seeds' defaults) need no event.

A page naming a version this service has not heard of yet (its notice is still on the way) fails
its attempt; the consumer retries it, and dead-letters it after its retries, to be replayed.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import ProfilePublished
from skuflow_contracts.profile import PROFILES, ThresholdProfile, UnknownProfile
from skuflow_contracts.topics import PROFILE_PUBLISHED, Topic
from skuflow_platform.consumer import Handler, UnitOfWork

TABLE = "profiles"


def _columns() -> list[sa.Column]:
    return [sa.Column("config_version", sa.Text, primary_key=True),
            sa.Column("profile", JSONB, nullable=False),
            sa.Column("received_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False)]


def profiles_table(metadata: sa.MetaData) -> sa.Table:
    return sa.Table(TABLE, metadata, *_columns())


def create_profiles_table(op, schema: str) -> None:
    """For a service's Alembic migration."""
    op.create_table(TABLE, *_columns(), schema=schema)


class ProfileBook:
    def __init__(self, table: sa.Table) -> None:
        self.table = table
        self.known: dict[str, ThresholdProfile] = dict(PROFILES)

    async def get(self, conn: AsyncConnection, config_version: str) -> ThresholdProfile:
        found = self.known.get(config_version)
        if found is None:
            row = (await conn.execute(sa.select(self.table.c.profile).where(
                self.table.c.config_version == config_version))).scalar_one_or_none()
            if row is None:
                raise UnknownProfile(f"no threshold profile {config_version!r} published to this service yet")
            found = self.known[config_version] = ThresholdProfile.model_validate(row)
        return found

    def subscription(self) -> tuple[Topic, Handler]:
        async def on_published(envelope: EventEnvelope[ProfilePublished], uow: UnitOfWork) -> None:
            published = envelope.payload
            await uow.conn.execute(pg_insert(self.table).values(
                config_version=published.config_version, profile=published.profile.model_dump(mode="json"),
            ).on_conflict_do_nothing())

        return PROFILE_PUBLISHED, on_published
