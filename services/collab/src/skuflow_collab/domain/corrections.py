"""An annotator's corrections applied to the machine's page result, and the annotations they make.

The workbench sends the page as the annotator leaves it: every SKU kept (edited or not), SKUs drawn
anew (no ``sku_id``), product pictures drawn anew (a region of the page the parser did not cut out),
the image bound to each SKU, and the page type or layout if they changed it.
A SKU the machine read that is not sent back was deleted. Each difference is one annotation of the
eight types of seed-001b §1.2.12, the material of the feedback loop.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from skuflow_contracts.ids import image_id as make_image_id
from skuflow_contracts.ids import sku_id as make_sku_id
from skuflow_contracts.ir import BBox
from skuflow_contracts.results import (
    BindingRecord,
    ImageRecord,
    Layout,
    PageResult,
    PageType,
    SkuAttributes,
    SkuRecord,
    Validation,
)

ANNOTATION_TYPES = ("PAGE_TYPE_CORRECTION", "TEXT_ROLE_CORRECTION", "IMAGE_ROLE_CORRECTION",
                    "SKU_ATTRIBUTE_CORRECTION", "BINDING_CORRECTION", "CUSTOM_ATTR_CONFIRM", "NEW_TYPE_REPORT",
                    "LAYOUT_CORRECTION")
HUMAN_CONFIDENCE = 1.0
NEW_SKU_SEQ = 900  # SKUs and pictures a person draws are numbered from here, apart from the machine's
RENDER_DPI = 150  # drawn pictures are cut from the page at this resolution


class SkuEdit(BaseModel):
    sku_id: str | None = Field(default=None, description="the machine's SKU, or null for one drawn anew")
    attributes: SkuAttributes
    custom_attributes: dict[str, str] = Field(default_factory=dict)
    bbox: BBox | None = Field(default=None, description="required for a new SKU: the box drawn on the page")
    image_id: str | None = Field(default=None, description="the image bound to this SKU (null: none)")

    @field_validator("custom_attributes")
    @classmethod
    def _named(cls, value: dict[str, str]) -> dict[str, str]:
        if any(not k.strip() for k in value):
            raise ValueError("custom attribute names must not be empty")
        return value


class DrawnImage(BaseModel):
    key: str = Field(min_length=1, max_length=64, description="how the SKUs of this body refer to it")
    bbox: BBox


class Corrections(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"skus": [{"sku_id": "ab12cd34_p01_001", "attributes": {"model": "TB 40/120", "price": "16700"},
                   "image_id": "p1_img2"}], "new_images": []}
    ]})

    skus: list[SkuEdit] = Field(max_length=5000)
    new_images: list[DrawnImage] = Field(default_factory=list, max_length=500)

    @model_validator(mode="after")
    def _no_nul(self) -> Corrections:
        """Postgres stores no NUL character in text or JSON: refuse it here (422), not there (500)."""
        if any("\x00" in text for text in _texts(self.model_dump())):
            raise ValueError("text must not contain NUL characters")
        return self
    page_type: PageType | None = None
    layout: Layout | None = None


def _texts(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


class InvalidCorrection(ValueError):
    """The corrections do not fit the page (an unknown SKU or image, a new SKU without a box)."""


class Annotation(BaseModel):
    type: str
    payload: dict


def apply(result: PageResult, corrections: Corrections, file_hash: str) -> tuple[PageResult, list[Annotation]]:
    """The reviewed page result and the annotations that record what the person changed."""
    machine = {sku.sku_id: sku for sku in result.skus}
    drawn_images = {d.key: ImageRecord(image_id=make_image_id(file_hash, result.page, NEW_SKU_SEQ + n),
                                       bbox=d.bbox, role="PRODUCT_MAIN",
                                       short_edge=round(min(d.bbox[2] - d.bbox[0], d.bbox[3] - d.bbox[1])
                                                        * RENDER_DPI / 72))
                    for n, d in enumerate(corrections.new_images, start=1)}
    images = {image.image_id for image in result.images}
    bound = {b.sku_id: b.image_id for b in result.bindings}
    notes: list[Annotation] = [Annotation(type="IMAGE_ROLE_CORRECTION", payload={
        "action": "added", "image_id": image.image_id, "bbox": list(image.bbox), "role": image.role})
        for image in drawn_images.values()]
    skus: list[SkuRecord] = []
    bindings: list[BindingRecord] = []
    drawn = 0
    for edit in corrections.skus:
        if edit.image_id in drawn_images:
            edit = edit.model_copy(update={"image_id": drawn_images[edit.image_id].image_id})
        elif edit.image_id is not None and edit.image_id not in images:
            raise InvalidCorrection(f"image {edit.image_id} is not on page {result.page}")
        if edit.sku_id is None:
            if edit.bbox is None:
                raise InvalidCorrection("a new SKU needs the box drawn for it")
            drawn += 1
            sku_id = make_sku_id(file_hash, result.page, NEW_SKU_SEQ + drawn)
            before = None
            notes.append(Annotation(type="SKU_ATTRIBUTE_CORRECTION", payload={
                "action": "added", "sku_id": sku_id, "attributes": edit.attributes.model_dump(exclude_none=True)}))
        elif edit.sku_id in machine:
            sku_id, before = edit.sku_id, machine[edit.sku_id]
            changed = _changes(before.attributes, edit.attributes)
            if changed:
                notes.append(Annotation(type="SKU_ATTRIBUTE_CORRECTION",
                                        payload={"action": "edited", "sku_id": sku_id, "changes": changed}))
        else:
            raise InvalidCorrection(f"SKU {edit.sku_id} is not on page {result.page}")
        if edit.custom_attributes and edit.custom_attributes != (before.custom_attributes if before else {}):
            notes.append(Annotation(type="CUSTOM_ATTR_CONFIRM",
                                    payload={"sku_id": sku_id, "custom_attributes": edit.custom_attributes}))
        if edit.image_id != bound.get(sku_id):
            notes.append(Annotation(type="BINDING_CORRECTION", payload={
                "sku_id": sku_id, "from": bound.get(sku_id), "to": edit.image_id}))
        skus.append(SkuRecord(
            sku_id=sku_id, validity="valid" if edit.attributes.model or edit.attributes.product_name else "invalid",
            attributes=edit.attributes, custom_attributes=edit.custom_attributes,
            source_bbox=edit.bbox or before.source_bbox, confidence=HUMAN_CONFIDENCE,
            raw_attributes=before.raw_attributes if before else {}, origin=before.origin if before else None,
            variant_group=before.variant_group if before else None))
        bindings.append(BindingRecord(sku_id=sku_id, image_id=edit.image_id, confidence=HUMAN_CONFIDENCE,
                                      method="human"))
    kept = {edit.sku_id for edit in corrections.skus}
    notes += [Annotation(type="SKU_ATTRIBUTE_CORRECTION", payload={"action": "deleted", "sku_id": s})
              for s in machine if s not in kept]
    page_type = corrections.page_type or result.page_type
    layout = corrections.layout or result.layout
    if page_type != result.page_type:
        notes.append(Annotation(type="PAGE_TYPE_CORRECTION", payload={"from": result.page_type, "to": page_type}))
    if layout != result.layout:
        notes.append(Annotation(type="LAYOUT_CORRECTION", payload={"from": result.layout, "to": layout}))
    reviewed = result.model_copy(update={
        "status": "HUMAN_COMPLETED", "page_type": page_type, "layout": layout, "needs_review": False,
        "review_reasons": [], "skus": skus, "bindings": bindings, "validation": Validation(),
        "images": [*result.images, *drawn_images.values()]})
    return reviewed, notes


def _changes(before: SkuAttributes, after: SkuAttributes) -> dict[str, list[str | None]]:
    old, new = before.model_dump(), after.model_dump()
    return {name: [old[name], new[name]] for name in old if old[name] != new[name]}
