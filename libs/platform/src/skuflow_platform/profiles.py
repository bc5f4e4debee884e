"""Threshold profiles as a service reads them: a read model of every published version.

The gateway owns profiles (create, update, roll back); each version it publishes arrives here as
``profile.published`` and is kept in the service's own ``profiles`` table. A version never changes,
so once read it is cached for the life of the process. The built-in profiles (``PROFILES``, the
seeds' defaults) need no event.

An event naming a version this service has not heard of yet (its notice is still on the way, on a
topic of its own) waits for the notice up to ``NOTICE_WAIT``; then its attempt fails, the consumer
retries it, and dead-letters it after its retries, to be replayed.
"""

from __future__ import annotations

import asyncio
import time

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
# seconds an event waits for the notice of the version it names: a job created just after a profile was
# changed reached the evaluator 0.35 s before the new version's notice, longer than the consumer's three
# quick retries, and was dead-lettered (its job left evaluating for good)
NOTICE_WAIT = 10.0
NOTICE_POLL = 0.1


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

    async def get(self, conn: AsyncConnection, config_version: str, wait: float | None = None) -> ThresholdProfile:
        """The version's profile, waiting ``wait`` seconds (``NOTICE_WAIT`` unless given) for its notice."""
        found = self.known.get(config_version)
        if found is None:
            waited_until = time.monotonic() + (NOTICE_WAIT if wait is None else wait)
            while (row := await self._stored(conn, config_version)) is None:
                if time.monotonic() >= waited_until:
                    raise UnknownProfile(f"no threshold profile {config_version!r} published to this service yet")
                await asyncio.sleep(NOTICE_POLL)
            found = self.known[config_version] = ThresholdProfile.model_validate(row)
        return found

    async def _stored(self, conn: AsyncConnection, config_version: str) -> dict | None:
        """The version as its notice stored it; each read sees notices committed since the last one."""
        return (await conn.execute(sa.select(self.table.c.profile).where(
            self.table.c.config_version == config_version))).scalar_one_or_none()

    def subscription(self) -> tuple[Topic, Handler]:
        async def on_published(envelope: EventEnvelope[ProfilePublished], uow: UnitOfWork) -> None:
            published = envelope.payload
            await uow.conn.execute(pg_insert(self.table).values(
                config_version=published.config_version, profile=published.profile.model_dump(mode="json"),
            ).on_conflict_do_nothing())

        return PROFILE_PUBLISHED, on_published
