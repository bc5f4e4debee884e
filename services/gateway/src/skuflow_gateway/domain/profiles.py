"""Threshold profile versions (seed-001a §7.29, seed-001b §1.2.13): each update is a new version
that names the one it replaced, guarded by the version the editor last read (optimistic lock); a
rollback makes the replaced version active again and deletes nothing, so the chain stays whole.

A version's global name, its ``config_version``, is what a job is frozen to and what every page
event carries: merchant, profile and version, so two merchants' "furniture v2" never collide.
"""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Iterator

from pydantic import BaseModel, ValidationError

from skuflow_contracts.profile import InvariantViolation, ThresholdProfile

FIRST_VERSION = "v1"
PROFILE_ID = r"^[a-z0-9][a-z0-9_-]{0,63}$"
CATEGORY = r"^[^/\x00]+$"  # a category name: any text but a slash (it is a path segment) or a NUL (Postgres refuses it)


class ProfileConflict(Exception):
    """The request is refused as the profile stands now (409)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ProfileInvalid(ValueError):
    """The settings break the profile's invariants (INV-01 B < PV < A, INV-02 weights sum to 1, named in
    ``invariants``), its types, or name a setting it does not have."""

    def __init__(self, problems: str, invariants: tuple[str, ...] = ()) -> None:
        super().__init__(problems)
        self.invariants = invariants


def config_version(merchant_id: str, profile_id: str, version: str) -> str:
    return f"{merchant_id}:{profile_id}:{version}"


def next_version(version: str) -> str:
    number = re.fullmatch(r"v(\d+)", version)
    if number is None:
        raise ValueError(f"not a profile version: {version!r}")
    return f"v{int(number.group(1)) + 1}"


def check_expected(active_version: str, expected_version: str) -> None:
    if active_version != expected_version:
        raise ProfileConflict("CONFIG_CONFLICT", f"the profile is at {active_version}, not {expected_version}: "
                                                 "read it again and apply your change to that version")


def rollback_target(previous_version: str | None) -> str:
    if previous_version is None:
        raise ProfileConflict("NO_ROLLBACK_TARGET", "the active version replaced no other")
    return previous_version


def _nested_model(annotation: object) -> type[BaseModel] | None:
    """The model a setting holds, alone or as the items of a tuple or list."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def unknown_settings(settings: object, model: type[BaseModel] = ThresholdProfile, at: str = "") -> Iterator[str]:
    """Each key of ``settings`` the profile does not have, with the key closest to it. The contracts
    ignore unknown fields (a newer producer's), so a misspelt key would otherwise be dropped and
    make a version that changes nothing."""
    if not isinstance(settings, dict):
        return
    for key, value in settings.items():
        field = model.model_fields.get(key)
        if field is None:
            meant = difflib.get_close_matches(str(key), list(model.model_fields), n=1)
            yield f"unknown setting '{at}{key}'" + (f" (did you mean '{at}{meant[0]}'?)" if meant else "")
            continue
        inner = _nested_model(field.annotation)
        if inner is None:
            continue
        items = enumerate(value) if isinstance(value, list | tuple) else [(None, value)]
        for index, item in items:
            yield from unknown_settings(item, inner, f"{at}{key}{'' if index is None else f'[{index}]'}.")


def built(name: str, category: str, settings: dict) -> ThresholdProfile:
    """The profile a version's settings make; fields left out take the seeds' defaults."""
    unknown = list(unknown_settings(settings))
    if unknown:
        raise ProfileInvalid("; ".join(unknown))
    try:
        return ThresholdProfile.model_validate({**settings, "version": name, "category": category})
    except ValidationError as exc:
        errors = exc.errors()
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'profile'}: {e['msg']}" for e in errors)
        broken = tuple(e["ctx"]["error"].invariant_id for e in errors
                       if isinstance(e.get("ctx", {}).get("error"), InvariantViolation))
        raise ProfileInvalid(problems, broken) from None


def changes_nothing(active_settings: dict, proposed: ThresholdProfile) -> bool:
    """Would ``proposed`` be the active version again, but for its name? Then no version is made: one
    that changes nothing would only lengthen the chain a rollback walks."""
    return proposed.model_dump(mode="json", exclude={"version"}) == {
        key: value for key, value in active_settings.items() if key != "version"}
