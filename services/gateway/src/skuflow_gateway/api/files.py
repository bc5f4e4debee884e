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
from skuflow_platform.signed_urls import FILES_PATH, FileLinks, check_signature
from skuflow_platform.storage import SCHEME, StorageError


def with_image_links(result: dict, result_uri: str, links: FileLinks) -> dict:
    """result.json as stored, with a link to each exported image (its ``path`` is relative to the
    result's folder). Signed when served, so downloading the result again renews every link."""
    folder = result_uri.rsplit("/", 1)[0]
    exported = [image for page in result.get("pages", []) for image in page.get("images", []) if image.get("path")]
    return {**result, "image_links": [
        links.image(image["image_id"], f"{folder}/{image['path']}").model_dump(mode="json") for image in exported]}


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
