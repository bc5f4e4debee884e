"""Threshold profiles of the caller's merchant (seed-001a §7.29, seed-001b §2.1 "Config management"):
read them, create one, update it against the version you read, roll it back, read its audit log.

Every new version is published (``profile.published``) to the services that judge pages, in the
same transaction that stores it; a job is frozen at upload to the version active then, so a later
update or rollback never changes a running job.
"""

from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Path
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.events import ProfilePublished
from skuflow_contracts.profile import ThresholdProfile
from skuflow_gateway.api import examples
from skuflow_gateway.api.auth import caller_dependency
from skuflow_gateway.domain.profiles import (
    CATEGORY,
    FIRST_VERSION,
    PROFILE_ID,
    ProfileConflict,
    ProfileInvalid,
    built,
    changes_nothing,
    check_expected,
    config_version,
    next_version,
    rollback_target,
)
from skuflow_gateway.tables import platform, profile_versions, profiles
from skuflow_platform.access import OPERATORS
from skuflow_platform.auth import Principal
from skuflow_platform.metrics import INVARIANT_VIOLATIONS
from skuflow_platform.openapi import answer
from skuflow_platform.outbox import add_to_outbox
from skuflow_platform.runtime import ServiceContext

ProfileId = Annotated[str, Path(pattern=PROFILE_ID, examples=["furniture"])]
EXAMPLE_SETTINGS = {"classification": {"b_threshold": 0.4, "pv_threshold": 0.6, "a_threshold": 0.85},
                    "extraction": {"sku_min_confidence": 0.7}, "binding": {"ambiguity_gap": 0.25}}


class NewProfile(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"profile_id": "furniture", "category": "furniture", "is_default": True, "settings": EXAMPLE_SETTINGS}
    ]})

    profile_id: Annotated[str, Field(pattern=PROFILE_ID, examples=["furniture"])]
    category: Annotated[str, Field(min_length=1, max_length=64)] = "general"
    is_default: bool = Field(False, description="new uploads without ?profile= use it")
    settings: dict = Field(default_factory=dict, examples=[EXAMPLE_SETTINGS],
                           description="ThresholdProfile fields; those left out take the seeds' defaults")
    change_reason: Annotated[str | None, Field(max_length=500)] = None


class ProfileUpdate(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"expected_version": "v1", "settings": EXAMPLE_SETTINGS, "change_reason": "fewer wrong images"}
    ]})

    expected_version: Annotated[str, Field(examples=["v1"], description="the active version you read")]
    settings: dict = Field(examples=[EXAMPLE_SETTINGS], description="the whole new settings")
    is_default: bool | None = None
    change_reason: Annotated[str | None, Field(max_length=500)] = None


CategoryName = Annotated[str, Path(min_length=1, max_length=64, pattern=CATEGORY, examples=["furniture"])]


class CategorySchemaUpdate(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"expected_version": "v2", "required_fields": ["model", "price"], "optional_fields": ["material"],
         "validation_rules": [{"name": "price_range", "rule_type": "range_check",
                               "params": {"field": "price", "min": 1, "max": 100000}, "severity": "warning"}],
         "change_reason": "furniture needs a price"}
    ]})

    expected_version: Annotated[str, Field(examples=["v2"], description="the active version you read")]
    required_fields: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(default_factory=list)
    optional_fields: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(default_factory=list)
    validation_rules: list[dict] = Field(default_factory=list, description="ValidationRule: name, rule_type, "
                                                                           "params, severity")
    change_reason: Annotated[str | None, Field(max_length=500)] = None


class Rollback(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"change_reason": "v2 sent too many pages to review"}]})

    change_reason: Annotated[str | None, Field(max_length=500)] = None


def profile_entity_of(entity_id: sa.ColumnElement, merchant_id: str) -> tuple[sa.ColumnElement, ...]:
    """The conditions on an audit row's ``entity_id`` (``merchant:profile``) that it is one of this merchant's
    profiles. A profile id holds no ':' (``PROFILE_ID``) but a merchant id may: the prefix alone would give
    merchant 'acme' the rows of merchant 'acme:eu'."""
    prefix = f"{merchant_id}:"
    profile = sa.func.substr(entity_id, len(prefix) + 1)
    return entity_id.startswith(prefix, autoescape=True), sa.func.strpos(profile, ":") == 0


def change_of(audit_row: sa.Row) -> dict:
    """One change of a profile's active version, from its audit row (the merchant's id may hold a ':')."""
    return {"profile_id": audit_row.entity_id.rsplit(":", 1)[1], "action": audit_row.detail["action"],
            "by": audit_row.detail["by"], "from_version": audit_row.from_status, "to_version": audit_row.to_status,
            "reason": audit_row.reason, "at": audit_row.at.isoformat()}


async def frozen_version(conn: AsyncConnection, merchant_id: str, profile_id: str | None, category: str | None,
                         builtin: str) -> str:
    """The config_version a new job is frozen to: the named profile, else the merchant's profile of
    that category, else its default profile, else the built-in one. 422 for a name it does not have."""
    query = sa.select(profiles).where(profiles.c.merchant_id == merchant_id)
    if profile_id is not None:
        query = query.where(profiles.c.profile_id == profile_id)
    elif category is not None:
        query = query.where(profiles.c.category == category).order_by(profiles.c.updated_at.desc())
    else:
        query = query.where(profiles.c.is_default)
    head = (await conn.execute(query.limit(1))).first()
    if head is None and (profile_id or category):
        raise HTTPException(422, f"no profile {profile_id or 'of category ' + repr(category)} for your merchant")
    return config_version(merchant_id, head.profile_id, head.active_version) if head else builtin


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/config/profiles", tags=["profiles"])
    Reader = caller_dependency(ctx)
    Editor = caller_dependency(ctx, *OPERATORS)

    async def head_of(conn: AsyncConnection, merchant_id: str, profile_id: str, lock: bool = False) -> sa.Row:
        query = sa.select(profiles).where(profiles.c.merchant_id == merchant_id, profiles.c.profile_id == profile_id)
        row = (await conn.execute(query.with_for_update() if lock else query)).first()
        if row is None:
            raise HTTPException(404, f"profile {profile_id} not found")
        return row

    async def versions_of(conn: AsyncConnection, merchant_id: str, profile_id: str) -> list[sa.Row]:
        return (await conn.execute(sa.select(profile_versions).where(
            profile_versions.c.merchant_id == merchant_id, profile_versions.c.profile_id == profile_id)
            .order_by(profile_versions.c.created_at))).all()

    def proposed(who: Principal, profile_id: str, version: str, category: str, settings: dict) -> ThresholdProfile:
        """The profile ``settings`` would make as ``version``; 422 when they are not a valid one."""
        try:
            return built(config_version(who.merchant_id, profile_id, version), category, settings)
        except ProfileInvalid as exc:
            for invariant_id in exc.invariants:
                INVARIANT_VIOLATIONS.labels(invariant_id).inc()
            raise HTTPException(422, str(exc)) from exc

    async def store(conn: AsyncConnection, who: Principal, profile_id: str, version: str, previous: str | None,
                    profile: ThresholdProfile, reason: str | None) -> str:
        """Store and publish a new version; returns its config_version."""
        name = profile.version
        await conn.execute(profile_versions.insert().values(
            merchant_id=who.merchant_id, profile_id=profile_id, version=version, config_version=name,
            previous_version=previous, settings=profile.model_dump(mode="json"), created_by=who.user_id,
            change_reason=reason))
        await add_to_outbox(conn, ctx.tables.outbox, ProfilePublished(config_version=name, profile=profile),
                            job_id=name, merchant_id=who.merchant_id, producer="gateway", traceparent=None)
        return name

    async def audit(conn: AsyncConnection, who: Principal, profile_id: str, before: str | None, after: str,
                    action: str, reason: str | None) -> None:
        await conn.execute(platform.state_transitions.insert().values(
            entity="profile", entity_id=f"{who.merchant_id}:{profile_id}", from_status=before, to_status=after,
            reason=reason, detail={"action": action, "by": who.user_id}))

    async def make_default(conn: AsyncConnection, merchant_id: str, profile_id: str) -> None:
        await conn.execute(profiles.update().where(profiles.c.merchant_id == merchant_id, profiles.c.is_default)
                           .values(is_default=False))
        await conn.execute(profiles.update().where(profiles.c.merchant_id == merchant_id,
                                                   profiles.c.profile_id == profile_id).values(is_default=True))

    def summary(head: sa.Row) -> dict:
        return {"profile_id": head.profile_id, "category": head.category, "active_version": head.active_version,
                "expected_version": head.active_version, "is_default": head.is_default,
                "config_version": config_version(head.merchant_id, head.profile_id, head.active_version)}

    @router.get("", responses=answer(examples.PROFILES))
    async def list_profiles(who: Reader) -> dict:
        async with ctx.db.transaction() as conn:
            heads = (await conn.execute(sa.select(profiles).where(profiles.c.merchant_id == who.merchant_id)
                                        .order_by(profiles.c.profile_id))).all()
        return {"profiles": [summary(head) for head in heads], "builtin": ctx.settings.config_version}

    @router.post("", status_code=201, responses=answer(examples.PROFILE_CREATED, status=201))
    async def create_profile(body: NewProfile, who: Editor) -> dict:
        async with ctx.db.transaction() as conn:
            taken = await conn.execute(sa.select(profiles.c.profile_id).where(
                profiles.c.merchant_id == who.merchant_id, profiles.c.profile_id == body.profile_id).with_for_update())
            if taken.first() is not None:
                raise HTTPException(409, f"profile {body.profile_id} exists; update it instead")
            name = await store(conn, who, body.profile_id, FIRST_VERSION, None,
                               proposed(who, body.profile_id, FIRST_VERSION, body.category, body.settings),
                               body.change_reason)
            await conn.execute(profiles.insert().values(merchant_id=who.merchant_id, profile_id=body.profile_id,
                                                        category=body.category, active_version=FIRST_VERSION))
            if body.is_default:
                await make_default(conn, who.merchant_id, body.profile_id)
            await audit(conn, who, body.profile_id, None, FIRST_VERSION, "create", body.change_reason)
        ctx.relay.wake()
        return {"profile_id": body.profile_id, "version": FIRST_VERSION, "config_version": name}

    @router.get("/{profile_id}", responses=answer(examples.PROFILE))
    async def get_profile(profile_id: ProfileId, who: Reader) -> dict:
        """The active version's settings, ``expected_version`` to send with an update, and every version."""
        async with ctx.db.transaction() as conn:
            head = await head_of(conn, who.merchant_id, profile_id)
            versions = await versions_of(conn, who.merchant_id, profile_id)
        active = next(v for v in versions if v.version == head.active_version)
        return {**summary(head), "settings": active.settings,
                "versions": [{"version": v.version, "previous_version": v.previous_version,
                              "config_version": v.config_version, "created_by": v.created_by,
                              "change_reason": v.change_reason, "created_at": v.created_at.isoformat()}
                             for v in versions]}

    async def new_version(who: Principal, profile_id: str, expected_version: str, settings_of, reason: str | None,
                          is_default: bool | None = None) -> dict:
        """A new version replacing the active one, if ``expected_version`` is still the active one;
        ``settings_of`` makes its settings from the active version's. Settings that change nothing
        make no version (``changed``: false, the active version named)."""
        async with ctx.db.transaction() as conn:
            head = await head_of(conn, who.merchant_id, profile_id, lock=True)
            try:
                check_expected(head.active_version, expected_version)
            except ProfileConflict as exc:
                raise HTTPException(409, {"code": exc.code, "message": str(exc)}) from exc
            versions = await versions_of(conn, who.merchant_id, profile_id)
            active = next(v for v in versions if v.version == head.active_version)
            version = next_version(max((v.version for v in versions), key=lambda v: int(v[1:])))
            profile = proposed(who, profile_id, version, head.category, settings_of(active.settings))
            if is_default:
                await make_default(conn, who.merchant_id, profile_id)
            if changes_nothing(active.settings, profile):
                return {"profile_id": profile_id, "version": head.active_version, "changed": False,
                        "previous_version": active.previous_version, "config_version": active.config_version}
            name = await store(conn, who, profile_id, version, head.active_version, profile, reason)
            await conn.execute(profiles.update().where(profiles.c.merchant_id == who.merchant_id,
                                                       profiles.c.profile_id == profile_id)
                               .values(active_version=version, updated_at=sa.func.now()))
            await audit(conn, who, profile_id, head.active_version, version, "update", reason)
        ctx.relay.wake()
        return {"profile_id": profile_id, "version": version, "changed": True,
                "previous_version": head.active_version, "config_version": name}

    @router.put("/{profile_id}", responses={**answer(examples.NEW_VERSION),
                                            409: {"description": "CONFIG_CONFLICT: a stale expected_version"},
                                            422: {"description": "settings break INV-01 or INV-02, or name "
                                                                  "a setting the profile does not have"}})
    async def update_profile(profile_id: ProfileId, body: ProfileUpdate, who: Editor) -> dict:
        """A new version replacing the active one, if ``expected_version`` is still the active one."""
        return await new_version(who, profile_id, body.expected_version, lambda _: body.settings, body.change_reason,
                                 body.is_default)

    @router.get("/{profile_id}/categories", responses=answer(examples.CATEGORIES))
    async def list_category_schemas(profile_id: ProfileId, who: Reader) -> dict:
        """The category schemas of the active version (required and optional fields, validation rules)."""
        async with ctx.db.transaction() as conn:
            head = await head_of(conn, who.merchant_id, profile_id)
            active = next(v for v in await versions_of(conn, who.merchant_id, profile_id)
                          if v.version == head.active_version)
        return {"profile_id": profile_id, "category": head.category, "expected_version": head.active_version,
                "categories": active.settings.get("category_schemas", [])}

    @router.put("/{profile_id}/categories/{category}", responses={
        **answer(examples.NEW_VERSION),
        409: {"description": "CONFIG_CONFLICT: a stale expected_version"}, 422: {"description": "an invalid schema"}})
    async def put_category_schema(profile_id: ProfileId, category: CategoryName, body: CategorySchemaUpdate,
                                  who: Editor) -> dict:
        """Add or replace one category's schema: a new version of the profile, like any other update."""
        schema = {"category": category, **body.model_dump(exclude={"expected_version", "change_reason"})}

        def with_schema(settings: dict) -> dict:
            others = [s for s in settings.get("category_schemas", []) if s.get("category") != category]
            return {**settings, "category_schemas": [*others, schema]}

        return await new_version(who, profile_id, body.expected_version, with_schema,
                                 body.change_reason or f"category schema {category}")

    @router.post("/{profile_id}/rollback", responses={**answer(examples.ROLLED_BACK),
                                                      409: {"description": "NO_ROLLBACK_TARGET"}})
    async def rollback_profile(profile_id: ProfileId, who: Editor, body: Rollback | None = None) -> dict:
        """Make the version the active one replaced active again; no version is deleted."""
        reason = body.change_reason if body else None
        async with ctx.db.transaction() as conn:
            head = await head_of(conn, who.merchant_id, profile_id, lock=True)
            active = next(v for v in await versions_of(conn, who.merchant_id, profile_id)
                          if v.version == head.active_version)
            try:
                target = rollback_target(active.previous_version)
            except ProfileConflict as exc:
                raise HTTPException(409, {"code": exc.code, "message": str(exc)}) from exc
            await conn.execute(profiles.update().where(profiles.c.merchant_id == who.merchant_id,
                                                       profiles.c.profile_id == profile_id)
                               .values(active_version=target, updated_at=sa.func.now()))
            await audit(conn, who, profile_id, head.active_version, target, "rollback", reason)
        return {"profile_id": profile_id, "active_version": target, "rolled_back": head.active_version,
                "config_version": config_version(who.merchant_id, profile_id, target)}

    @router.get("/{profile_id}/audit", responses=answer(examples.PROFILE_AUDIT))
    async def profile_audit(profile_id: ProfileId, who: Reader) -> dict:
        """Every change of the active version: who, when, why (seed-001b §2.5 config audit log)."""
        transitions = platform.state_transitions
        async with ctx.db.transaction() as conn:
            await head_of(conn, who.merchant_id, profile_id)
            rows = (await conn.execute(sa.select(transitions).where(
                transitions.c.entity == "profile", transitions.c.entity_id == f"{who.merchant_id}:{profile_id}")
                .order_by(transitions.c.id))).all()
        return {"profile_id": profile_id, "changes": [change_of(row) for row in rows]}

    return router
