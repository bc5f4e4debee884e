"""A service's read model of published threshold profiles, on the real Postgres."""

import asyncio
import uuid

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from skuflow_contracts.profile import ThresholdProfile, UnknownProfile
from skuflow_platform import profiles
from skuflow_platform.profiles import ProfileBook, profiles_table


@pytest.fixture
async def book_and_engine(database_url):
    schema = f"profiles_{uuid.uuid4().hex[:8]}"
    metadata = sa.MetaData(schema=schema)
    table = profiles_table(metadata)
    engine = create_async_engine(database_url)
    async with engine.begin() as conn:
        await conn.execute(sa.schema.CreateSchema(schema))
        await conn.run_sync(metadata.create_all)
    yield ProfileBook(table), table, engine
    async with engine.begin() as conn:
        await conn.execute(sa.schema.DropSchema(schema, cascade=True))
    await engine.dispose()


async def test_an_event_waits_for_the_notice_of_the_version_it_names(book_and_engine):
    """A job created just after a profile changed can reach a service before the new version's notice."""
    book, table, engine = book_and_engine

    async def notice_arrives_later():
        await asyncio.sleep(0.5)
        async with engine.begin() as conn:
            await conn.execute(table.insert().values(config_version="m:strict:v2",
                                                     profile=ThresholdProfile(version="v2").model_dump(mode="json")))

    async with engine.connect() as conn:
        notice = asyncio.create_task(notice_arrives_later())
        profile = await book.get(conn, "m:strict:v2")
        await notice
    assert profile.version == "v2"


async def test_a_version_never_published_fails_after_the_wait(book_and_engine, monkeypatch):
    book, _, engine = book_and_engine
    monkeypatch.setattr(profiles, "NOTICE_WAIT", 0.3)
    async with engine.connect() as conn:
        with pytest.raises(UnknownProfile):
            await book.get(conn, "m:strict:v9")
