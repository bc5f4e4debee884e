"""Postgres access: one async engine per service, schema migrations with Alembic at start-up."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from skuflow_platform.metrics import counts_held

ALEMBIC_ENV = Path(__file__).parent / "alembic"


CONNECT_TIMEOUT_SECONDS = 5  # a black-holed database fails a probe in seconds instead of hanging it
MAX_OVERFLOW = 10  # connections beyond the pool's size it may open under load (SQLAlchemy's default)


class Database:
    def __init__(self, url: str, *, pool_size: int = 5) -> None:
        self.url = url
        self.capacity = pool_size + MAX_OVERFLOW
        self.engine: AsyncEngine = create_async_engine(url, pool_size=pool_size, max_overflow=MAX_OVERFLOW,
                                                       pool_pre_ping=True,
                                                       connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS})

    def pool_usage(self) -> float:
        """Connections checked out / what the pool may open: near 1, handlers wait for a connection."""
        return self.engine.pool.checkedout() / self.capacity

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """One transaction; the counts made in it (``once_committed``) are counted when it commits."""
        with counts_held() as counts:
            async with self.engine.begin() as conn:
                yield conn
        for count in counts:
            count()

    async def ping(self) -> bool:
        try:
            async with self.engine.connect() as conn:
                await conn.execute(sa.text("SELECT 1"))
            return True
        except Exception:
            return False

    async def close(self) -> None:
        await self.engine.dispose()


def from_now(seconds: float) -> sa.ColumnElement:
    """The database's now() moved by ``seconds`` (negative: that long ago), for due times and ages."""
    return sa.func.now() + sa.func.make_interval(0, 0, 0, 0, 0, 0, seconds)


def migrate(url: str, schema: str, versions_dir: Path) -> None:
    """Bring ``schema`` to the newest revision in ``versions_dir`` (idempotent; safe to race)."""
    config = Config()
    config.set_main_option("script_location", str(ALEMBIC_ENV))
    config.set_main_option("path_separator", "os")
    config.set_main_option("version_locations", str(versions_dir))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["schema"] = schema
    command.upgrade(config, "head")
