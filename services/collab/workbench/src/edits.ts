// The page as the annotator edits it, and the patch it makes: exactly what they changed, each value
// with the one it replaces, so that nothing they did not touch can change (the server refuses a change
// whose "before" the page does not hold). ``toPatch`` is the body of POST /tasks/{id}/complete;
// approving a page nobody edited sends {}.
import type { Attributes, BBox, PagePatch, PageResult, SkuPatch, TableLayout, ValueChange } from "./api";

export const FIELDS = ["model", "product_name", "price", "size", "color", "material"] as const;
export type Field = (typeof FIELDS)[number];

/** One custom attribute as the editor shows it: its name and value, each its own field. */
export type CustomRow = { key: string; value: string };

export type EditSku = {
  key: string; sku_id: string | null; attributes: Attributes; custom: CustomRow[]; bbox: BBox;
  image_id: string | null; candidates: string[];
};

export type DrawnImage = { key: string; bbox: BBox };

export function fromResult(result: PageResult): EditSku[] {
  const bindings = new Map(result.bindings.map((b) => [b.sku_id, b]));
  return result.skus.map((sku) => {
    const binding = bindings.get(sku.sku_id);
    return {
      key: sku.sku_id, sku_id: sku.sku_id, attributes: { ...sku.attributes },
      custom: Object.entries(sku.custom_attributes).map(([key, value]) => ({ key, value })),
      bbox: sku.source_bbox, image_id: binding?.image_id ?? null,
      candidates: (binding?.candidates ?? []).map((c) => c.image_id).slice(0, 3),
    };
  });
}

/** Why the page cannot be sent as it is (a custom attribute without a name, or a name twice), or null. */
export function problem(skus: EditSku[]): string | null {
  for (const sku of skus) {
    const names = sku.custom.filter((row) => row.key.trim() || row.value).map((row) => row.key);
    if (names.some((name) => !name.trim())) return `${label(sku)}: an attribute needs a name`;
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) return `${label(sku)}: "${twice}" is named twice`;
  }
  return null;
}

function label(sku: EditSku): string {
  return sku.attributes.model || sku.attributes.product_name || sku.sku_id || "new SKU";
}

function customOf(rows: CustomRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => row.key.trim()).map((row) => [row.key, row.value]));
}

/** The value an edited field stands for: an emptied field is no value. */
function typed(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}

function changes(before: Record<string, string | null | undefined>, after: Record<string, string | null | undefined>,
                 names: readonly string[]): Record<string, ValueChange> {
  const found: Record<string, ValueChange> = {};
  for (const name of names) {
    const was = before[name] ?? null;
    if (after[name] === was || (after[name] === undefined && was === null)) continue;  // untouched
    const now = typed(after[name]);
    if (now !== was) found[name] = { before: was, after: now };
  }
  return found;
}

export function toPatch(base: PageResult, skus: EditSku[], newImages: DrawnImage[],
                        tables: TableLayout[] = []): PagePatch {
  const originals = new Map(base.skus.map((sku) => [sku.sku_id, sku]));
  const bound = new Map(base.bindings.map((b) => [b.sku_id, b.image_id]));
  const kept = new Set(skus.map((s) => s.sku_id).filter((id): id is string => id !== null));
  const patch: PagePatch = {};
  const edited: SkuPatch[] = [];
  for (const sku of skus) {
    const original = sku.sku_id === null ? undefined : originals.get(sku.sku_id);
    if (!original) continue;
    const entry: SkuPatch = { sku_id: original.sku_id };
    const attributes = changes(original.attributes, sku.attributes, FIELDS);
    const wasCustom = original.custom_attributes;
    const nowCustom = customOf(sku.custom);
    const custom = changes(wasCustom, nowCustom, [...new Set([...Object.keys(wasCustom), ...Object.keys(nowCustom)])]);
    if (Object.keys(attributes).length) entry.attributes = attributes;
    if (Object.keys(custom).length) entry.custom_attributes = custom;
    const wasImage = bound.get(original.sku_id) ?? null;
    if (sku.image_id !== wasImage) entry.image_id = { before: wasImage, after: sku.image_id };
    if (Object.keys(entry).length > 1) edited.push(entry);
  }
  const deleted = base.skus.map((s) => s.sku_id).filter((id) => !kept.has(id));
  const added = skus.filter((s) => s.sku_id === null).map((s) => ({
    attributes: Object.fromEntries(FIELDS.map((f) => [f, typed(s.attributes[f])])),
    custom_attributes: customOf(s.custom), bbox: s.bbox, image_id: s.image_id,
  }));
  if (edited.length) patch.edited = edited;
  if (deleted.length) patch.deleted = deleted;
  if (added.length) patch.added = added;
  if (newImages.length) patch.new_images = newImages;
  if (tables.length) patch.tables = tables;
  return patch;
}
