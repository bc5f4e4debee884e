"""Evaluator service wiring: job.created → job.routed (cached per file_hash + config_version)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import JobCreated, JobRouted
from skuflow_contracts.topics import JOB_CREATED
from skuflow_evaluator.domain.routing import RoutingDecision, decide_route
from skuflow_evaluator.tables import evaluations, metadata, platform
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions


def subscriptions(_: ServiceContext) -> Subscriptions:
    async def on_job_created(envelope: EventEnvelope[JobCreated], uow: UnitOfWork) -> None:
        job = envelope.payload
        key = (evaluations.c.file_hash == job.file_hash) & (evaluations.c.config_version == job.config_version)
        cached = (await uow.conn.execute(sa.select(evaluations).where(key))).first()
        if cached:
            decision = RoutingDecision(route=cached.route, c_doc=cached.c_doc, reason=cached.reason)
        else:
            decision = decide_route()
            await uow.conn.execute(pg_insert(evaluations).values(
                file_hash=job.file_hash, config_version=job.config_version, route=decision.route,
                c_doc=decision.c_doc, reason=decision.reason,
            ).on_conflict_do_nothing())
        await uow.transition("job", envelope.job_id, "EVALUATING", "EVALUATED", decision.reason)
        await uow.emit(JobRouted(route=decision.route, c_doc=decision.c_doc, reason=decision.reason,
                                 file_uri=job.file_uri, file_hash=job.file_hash,
                                 config_version=job.config_version))

    return [(JOB_CREATED, on_job_created)]


definition = ServiceDefinition(
    name="evaluator", default_port=8001, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
