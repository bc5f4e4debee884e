"""An annotator's review of a page, sent as a patch of exactly what they changed, applied to the page
they were shown; and the annotations it makes.

The workbench sends only its changes: each changed value with the value it replaces (``before``),
SKUs drawn anew, SKUs deleted, product pictures drawn anew, and the page type or layout if they
changed. A change whose ``before`` is not the value on the page is refused (``StaleValue``, HTTP
409): a client that re-serialises a page, or edits a page that changed meanwhile, cannot change a
value the annotator never touched. What the patch does not name stays exactly as it was, so
approving a page unchanged (an empty patch) keeps every SKU, value and binding as they were read.
Each change is one annotation of the eight types of seed-001b §1.2.12, the feedback loop's material.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from skuflow_contracts.ids import image_id as make_image_id
from skuflow_contracts.ids import sku_id as make_sku_id
from skuflow_contracts.ir import BBox
from skuflow_contracts.results import (
    AttributeName,
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
MAX_SKUS = 5000
_SEQ = re.compile(r"_(\d{3,})$")


class ValueChange(BaseModel):
    """One value the annotator changed: what the page showed (null or left out: none) and what they
    left (null: none)."""

    model_config = ConfigDict(extra="forbid")
    before: str | None = None
    after: str | None


class SkuPatch(BaseModel):
    """The changes to one SKU of the page; fields not named are not touched."""

    model_config = ConfigDict(extra="forbid")
    sku_id: str
    attributes: dict[AttributeName, ValueChange] = Field(default_factory=dict)
    custom_attributes: dict[str, ValueChange] = Field(
        default_factory=dict, description="by name; before null: added, after null: removed")
    image_id: ValueChange | None = Field(default=None, description="the bound image (null: none, or a drawn "
                                                                   "picture's key)")

    @field_validator("custom_attributes")
    @classmethod
    def _named(cls, value: dict[str, ValueChange]) -> dict[str, ValueChange]:
        if any(not k.strip() for k in value):
            raise ValueError("custom attribute names must not be empty")
        return value


class NewSku(BaseModel):
    """A SKU the annotator drew on the page."""

    model_config = ConfigDict(extra="forbid")
    attributes: SkuAttributes
    custom_attributes: dict[str, str] = Field(default_factory=dict)
    bbox: BBox = Field(description="the box drawn on the page")
    image_id: str | None = Field(default=None, description="an image of the page or a drawn picture's key")

    @field_validator("custom_attributes")
    @classmethod
    def _named(cls, value: dict[str, str]) -> dict[str, str]:
        if any(not k.strip() for k in value):
            raise ValueError("custom attribute names must not be empty")
        return value


class DrawnImage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str = Field(min_length=1, max_length=64, description="how the SKUs of this body refer to it")
    bbox: BBox


class PageTypeChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    before: PageType | None = None
    after: PageType


class LayoutChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    before: Layout | None = None
    after: Layout


ColumnRole = Literal[AttributeName, "other", "ignore"]


class TableColumn(BaseModel):
    """One column of a table an annotator laid out: its span across the page and what it holds."""

    model_config = ConfigDict(extra="forbid")
    x0: float
    x1: float
    role: ColumnRole
    name: str | None = Field(default=None, max_length=200, description="an 'other' column's attribute name")


class TableLayout(BaseModel):
    """A table region the annotator drew with the table tool, its column boundaries and roles: each of
    its rows became a SKU. Kept as a text-role annotation, the material that teaches a reader this
    document's layout."""

    model_config = ConfigDict(extra="forbid")
    bbox: BBox
    columns: list[TableColumn] = Field(min_length=1, max_length=60)
    header: bool = Field(default=False, description="its first row names the columns and is no product")
    rows: int = Field(ge=0, le=MAX_SKUS, description="the SKUs its rows made")


class PagePatch(BaseModel):
    """POST /tasks/{id}/complete: what the annotator changed on the page ({} approves it as shown)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"edited": [{"sku_id": "ab12cd34_p01_001", "attributes": {"price": {"before": "9.90", "after": "16700"}},
                     "custom_attributes": {"功率": {"before": None, "after": "5W"}},
                     "image_id": {"before": None, "after": "img_ab12cd34_p01_002"}}],
         "added": [{"attributes": {"model": "TB 40/120"}, "bbox": [40, 700, 300, 720], "image_id": "picture-1"}],
         "deleted": ["ab12cd34_p01_004"], "new_images": [{"key": "picture-1", "bbox": [320, 690, 400, 760]}]},
        {},
    ]})

    edited: list[SkuPatch] = Field(default_factory=list, max_length=MAX_SKUS)
    added: list[NewSku] = Field(default_factory=list, max_length=MAX_SKUS)
    deleted: list[str] = Field(default_factory=list, max_length=MAX_SKUS)
    new_images: list[DrawnImage] = Field(default_factory=list, max_length=500)
    page_type: PageTypeChange | None = None
    layout: LayoutChange | None = None
    tables: list[TableLayout] = Field(default_factory=list, max_length=20)

    @model_validator(mode="after")
    def _consistent(self) -> PagePatch:
        """Postgres stores no NUL character in text or JSON: refuse it here (422), not there (500); a SKU
        is edited once, and never both edited and deleted."""
        if any("\x00" in text for text in _texts(self.model_dump())):
            raise ValueError("text must not contain NUL characters")
        named = [e.sku_id for e in self.edited]
        if len(set(named)) != len(named) or len(set(self.deleted)) != len(self.deleted):
            raise ValueError("a SKU is named at most once in 'edited' and once in 'deleted'")
        if set(named) & set(self.deleted):
            raise ValueError("a SKU cannot be both edited and deleted")
        return self

    @property
    def is_empty(self) -> bool:
        return self == PagePatch()


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
    """The patch does not fit the page (an unknown SKU or image)."""


class StaleValue(ValueError):
    """A change names a value the page does not hold: it was made from another reading of the page
    (a re-serialised or stale copy), so applying it would change what the annotator did not see."""

    def __init__(self, where: str, expected: object, sent: object):
        super().__init__(f"{where}: the page holds {expected!r}, the change replaces {sent!r}")
        self.where, self.expected, self.sent = where, expected, sent


class Annotation(BaseModel):
    type: str
    payload: dict


def _check(where: str, held: object, change: ValueChange | PageTypeChange | LayoutChange) -> None:
    if change.before != held:
        raise StaleValue(where, held, change.before)


def _next_seq(ids: list[str]) -> int:
    """The first free number for what a person draws: above the machine's, and above what earlier
    reviews of the page drew (a rework's base holds them)."""
    drawn = [int(m.group(1)) for i in ids if (m := _SEQ.search(i)) and int(m.group(1)) > NEW_SKU_SEQ]
    return max(drawn, default=NEW_SKU_SEQ) + 1


def apply(base: PageResult, patch: PagePatch, file_hash: str) -> tuple[PageResult, list[Annotation]]:
    """The reviewed page: ``base`` (the page the annotator was shown) with ``patch`` applied, and the
    annotations recording each change. A SKU the patch does not name keeps its record as it was,
    but for a status waiting for confirmation, which the person's approval confirms."""
    skus = {sku.sku_id: sku for sku in base.skus}
    bound = {b.sku_id: b for b in reversed(base.bindings)}  # a SKU's (first) binding
    rebound: dict[str, BindingRecord] = {}
    image_seq = _next_seq([i.image_id for i in base.images])
    drawn_images = {d.key: ImageRecord(image_id=make_image_id(file_hash, base.page, image_seq + n),
                                       bbox=d.bbox, role="PRODUCT_MAIN",
                                       short_edge=round(min(d.bbox[2] - d.bbox[0], d.bbox[3] - d.bbox[1])
                                                        * RENDER_DPI / 72))
                    for n, d in enumerate(patch.new_images)}
    images = {image.image_id for image in base.images}

    def image_of(value: str | None) -> str | None:
        if value in drawn_images:
            return drawn_images[value].image_id
        if value is not None and value not in images:
            raise InvalidCorrection(f"image {value} is not on page {base.page}")
        return value

    notes = [Annotation(type="IMAGE_ROLE_CORRECTION", payload={
        "action": "added", "image_id": image.image_id, "bbox": list(image.bbox), "role": image.role})
        for image in drawn_images.values()]
    for sku_id in [*patch.deleted, *(e.sku_id for e in patch.edited)]:
        if sku_id not in skus:
            raise InvalidCorrection(f"SKU {sku_id} is not on page {base.page}")
    for edit in patch.edited:
        skus[edit.sku_id], binding, more = _edited(skus[edit.sku_id], bound.get(edit.sku_id), edit, image_of)
        if binding is not None:
            rebound[edit.sku_id] = binding
        notes += more
    for sku_id in patch.deleted:
        del skus[sku_id]
        notes.append(Annotation(type="SKU_ATTRIBUTE_CORRECTION", payload={"action": "deleted", "sku_id": sku_id}))
    sku_seq = _next_seq([s.sku_id for s in base.skus])
    for n, new in enumerate(patch.added):
        sku_id = make_sku_id(file_hash, base.page, sku_seq + n)
        skus[sku_id] = SkuRecord(sku_id=sku_id, validity=_validity(new.attributes), attributes=new.attributes,
                                 custom_attributes=new.custom_attributes, source_bbox=new.bbox,
                                 confidence=HUMAN_CONFIDENCE)
        rebound[sku_id] = BindingRecord(sku_id=sku_id, image_id=image_of(new.image_id),
                                        confidence=HUMAN_CONFIDENCE, method="human")
        notes.append(Annotation(type="SKU_ATTRIBUTE_CORRECTION", payload={
            "action": "added", "sku_id": sku_id, "attributes": new.attributes.model_dump(exclude_none=True)}))
        if new.custom_attributes:
            notes.append(Annotation(type="CUSTOM_ATTR_CONFIRM",
                                    payload={"sku_id": sku_id, "custom_attributes": new.custom_attributes}))
        if new.image_id is not None:
            notes.append(Annotation(type="BINDING_CORRECTION", payload={
                "sku_id": sku_id, "from": None, "to": rebound[sku_id].image_id}))
    page_type, layout = base.page_type, base.layout
    if patch.page_type is not None and patch.page_type.after != base.page_type:
        _check("page_type", base.page_type, patch.page_type)
        page_type = patch.page_type.after
        notes.append(Annotation(type="PAGE_TYPE_CORRECTION", payload={"from": base.page_type, "to": page_type}))
    if patch.layout is not None and patch.layout.after != base.layout:
        _check("layout", base.layout, patch.layout)
        layout = patch.layout.after
        notes.append(Annotation(type="LAYOUT_CORRECTION", payload={"from": base.layout, "to": layout}))
    notes += [Annotation(type="TEXT_ROLE_CORRECTION", payload={"action": "table", **table.model_dump()})
              for table in patch.tables]
    confirmed = [sku if sku.status != "PENDING_CONFIRMATION" else sku.model_copy(update={"status": "IMPORT_READY"})
                 for sku in skus.values()]
    reviewed = base.model_copy(update={
        "status": "HUMAN_COMPLETED", "page_type": page_type, "layout": layout, "needs_review": False,
        "review_reasons": [], "skus": confirmed, "validation": Validation(),
        "bindings": _in_order(base.bindings, rebound, set(patch.deleted)),
        "images": [*base.images, *drawn_images.values()]})
    return reviewed, notes


def _in_order(before: list[BindingRecord], rebound: dict[str, BindingRecord],
              deleted: set[str]) -> list[BindingRecord]:
    """The page's bindings as they were and in their order, but those a person changed (in place) or
    made (after), and none of a deleted SKU."""
    seen = {b.sku_id for b in before}
    return [rebound.get(b.sku_id, b) for b in before if b.sku_id not in deleted] + [
        binding for sku_id, binding in rebound.items() if sku_id not in seen]


def _validity(attributes: SkuAttributes) -> Literal["valid", "invalid"]:
    return "valid" if attributes.model or attributes.product_name else "invalid"


def _edited(sku: SkuRecord, binding: BindingRecord | None, edit: SkuPatch,
            image_of) -> tuple[SkuRecord, BindingRecord | None, list[Annotation]]:
    """One SKU with its changes applied (each checked against the value it replaces), its new
    binding if the image changed, and the annotations. A value a person typed is no longer as printed
    or inherited: its raw text and source go."""
    notes: list[Annotation] = []
    attributes = sku.attributes.model_dump()
    changed: dict[str, list[str | None]] = {}
    for name, change in edit.attributes.items():
        _check(f"{sku.sku_id}.{name}", attributes[name], change)
        if change.after != change.before:
            changed[name] = [change.before, change.after]
            attributes[name] = change.after
    custom = dict(sku.custom_attributes)
    custom_changed = False
    for name, change in edit.custom_attributes.items():
        _check(f"{sku.sku_id}.custom_attributes[{name!r}]", custom.get(name), change)
        if change.after != change.before:
            custom_changed = True
            if change.after is None:
                del custom[name]
            else:
                custom[name] = change.after
    new_binding = None
    if edit.image_id is not None:
        held = binding.image_id if binding else None
        _check(f"{sku.sku_id}.image_id", held, edit.image_id)
        if edit.image_id.after != edit.image_id.before:
            to = image_of(edit.image_id.after)
            new_binding = BindingRecord(sku_id=sku.sku_id, image_id=to, confidence=HUMAN_CONFIDENCE, method="human")
            notes.append(Annotation(type="BINDING_CORRECTION", payload={"sku_id": sku.sku_id, "from": held,
                                                                        "to": to}))
    if changed:
        notes.append(Annotation(type="SKU_ATTRIBUTE_CORRECTION",
                                payload={"action": "edited", "sku_id": sku.sku_id, "changes": changed}))
    if custom_changed:
        notes.append(Annotation(type="CUSTOM_ATTR_CONFIRM", payload={"sku_id": sku.sku_id,
                                                                     "custom_attributes": custom}))
    if not changed and not custom_changed:
        return sku, new_binding, notes
    typed = SkuAttributes.model_validate(attributes)
    return sku.model_copy(update={
        "attributes": typed, "custom_attributes": custom, "validity": _validity(typed),
        "confidence": HUMAN_CONFIDENCE,
        "raw_attributes": {k: v for k, v in sku.raw_attributes.items() if k not in changed},
        "attribute_source": {k: v for k, v in sku.attribute_source.items() if k not in changed}}), new_binding, notes

