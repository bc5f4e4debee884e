"""The caller of a request, from its bearer token: checked before anything else is read."""

from skuflow_platform.access import UPLOADERS, caller
from skuflow_platform.runtime import ServiceContext


def caller_dependency(ctx: ServiceContext, *roles: str):
    return caller(ctx.settings.jwt_secret, *(roles or UPLOADERS))
