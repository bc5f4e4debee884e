// What a reworked task's annotator needs to know: who reverted it, when and why, and what the undone
// correction changed (the page they see is as that correction left it).
import type { PagePatch, Rework } from "./api";
import { t, type Lang } from "./i18n";

function shown(value: string | null): string {
  return value === null ? "—" : JSON.stringify(value);
}

export function changesOf(patch: PagePatch | null): string[] {
  if (!patch) return [];
  const lines: string[] = [];
  for (const edit of patch.edited ?? []) {
    for (const [name, change] of Object.entries({ ...edit.attributes, ...edit.custom_attributes })) {
      lines.push(`${edit.sku_id} ${name}: ${shown(change.before)} → ${shown(change.after)}`);
    }
    if (edit.image_id) lines.push(`${edit.sku_id} image: ${shown(edit.image_id.before)} → ${shown(edit.image_id.after)}`);
  }
  for (const sku of patch.added ?? []) lines.push(`+ ${sku.attributes.model ?? sku.attributes.product_name ?? "SKU"}`);
  for (const id of patch.deleted ?? []) lines.push(`− ${id}`);
  return lines;
}

export function ReworkNote({ lang, rework }: { lang: Lang; rework: Rework }) {
  const lines = changesOf(rework.previous_correction);
  return (
    <div className="rework" data-testid="rework">
      <p><b>{t(lang, "reworked")} ({rework.count})</b> · {t(lang, "revertedBy")} {rework.reverted_by}
        {" "}({new Date(rework.reverted_at).toLocaleString()}): <q data-testid="revert-reason">{rework.reason}</q></p>
      <p>{t(lang, "previousCorrection")}{rework.previous_annotator ? ` (${rework.previous_annotator})` : ""}:</p>
      <ul data-testid="previous-correction">
        {lines.length ? lines.map((line, i) => <li key={i}>{line}</li>) : <li>{t(lang, "noChanges")}</li>}
      </ul>
    </div>
  );
}
