"""Stored files behind signed, expiring links (product images handed to downstream importers).

The link's signature is the credential: no token, no merchant lookup. It names one stored file and
an expiry, both covered by the signature (skuflow_platform.signed_urls)."""

import asyncio
import mimetypes
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import Response

from skuflow_platform.auth import AuthError
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.signed_urls import FILES_PATH, check_signature
from skuflow_platform.storage import SCHEME, StorageError


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(tags=["files"])

    @router.get(FILES_PATH.removeprefix("/api/v1"), response_class=Response,
                responses={200: {"content": {"image/*": {}}, "description": "the file, as stored"},
                           403: {"description": "bad or expired link"},
                           404: {"description": "no such file"}})
    async def get_file(uri: Annotated[str, Query(max_length=1000, examples=["local://jobs/j1/images/p1_0.png"])],
                       expires: Annotated[int, Query(examples=[1795000000])],
                       signature: Annotated[str, Query(max_length=128)]) -> Response:
        """The file a signed link names, while the link is valid."""
        try:
            check_signature(uri, expires, signature, ctx.settings.jwt_secret)
        except AuthError as exc:
            raise HTTPException(403, str(exc)) from exc
        try:
            data = await asyncio.to_thread(ctx.storage.get, uri)
        except StorageError as exc:
            raise HTTPException(404, "no such file") from exc
        media = mimetypes.guess_type(uri.removeprefix(SCHEME))[0] or "application/octet-stream"
        return Response(data, media_type=media, headers={"Cache-Control": "private, max-age=3600"})

    return router
