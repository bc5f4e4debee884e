// The page as the annotator is leaving it: the machine's SKUs, edited, deleted or drawn anew, and the
// image bound to each. ``toCorrections`` is the body of POST /tasks/{id}/complete.
import type { Attributes, BBox, PageResult } from "./api";

export const FIELDS = ["model", "product_name", "price", "size", "color", "material"] as const;
export type Field = (typeof FIELDS)[number];

export type EditSku = {
  key: string; sku_id: string | null; attributes: Attributes; custom: string; bbox: BBox;
  image_id: string | null; candidates: string[];
};

export function fromResult(result: PageResult): EditSku[] {
  const bindings = new Map(result.bindings.map((b) => [b.sku_id, b]));
  return result.skus.map((sku) => {
    const binding = bindings.get(sku.sku_id);
    return {
      key: sku.sku_id, sku_id: sku.sku_id, attributes: { ...sku.attributes },
      custom: Object.entries(sku.custom_attributes).map(([k, v]) => `${k}=${v}`).join("; "),
      bbox: sku.source_bbox, image_id: binding?.image_id ?? null,
      candidates: (binding?.candidates ?? []).map((c) => c.image_id).slice(0, 3),
    };
  });
}

export function parseCustom(text: string): Record<string, string> {
  const pairs = text.split(";").map((part) => part.split("=")).filter((kv) => kv.length === 2 && kv[0].trim());
  return Object.fromEntries(pairs.map(([k, v]) => [k.trim(), v.trim()]));
}

export type DrawnImage = { key: string; bbox: BBox };

export function toCorrections(skus: EditSku[], newImages: DrawnImage[]) {
  return {
    new_images: newImages,
    skus: skus.map((s) => ({
      sku_id: s.sku_id, image_id: s.image_id, custom_attributes: parseCustom(s.custom),
      attributes: Object.fromEntries(FIELDS.map((f) => [f, s.attributes[f] ? s.attributes[f] : null])),
      bbox: s.sku_id === null ? s.bbox : null,
    })),
  };
}
