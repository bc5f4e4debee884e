// Several SKUs picked at once (Ctrl+click, Shift+click, Shift+J/K in the list, Shift+drag on the page):
// set one field on all of them, replace a piece of text in it, delete them, or keep only them.
import { useState } from "react";
import { FIELDS, type EditSku, type Field } from "./edits";
import { t, type Lang } from "./i18n";

type Props = {
  lang: Lang; count: number; onChange: (change: (sku: EditSku) => EditSku) => void;
  onDelete: () => void; onKeepOnly: () => void; onClear: () => void;
};

/** ``sku`` with ``field`` (a standard field, or an attribute of another name) given by ``value(old)``. */
export function withField(sku: EditSku, field: string, value: (old: string) => string): EditSku {
  if ((FIELDS as readonly string[]).includes(field)) {
    const old = sku.attributes[field as Field] ?? "";
    return { ...sku, attributes: { ...sku.attributes, [field]: value(old) } };
  }
  const row = sku.custom.find((r) => r.key === field);
  return row ? { ...sku, custom: sku.custom.map((r) => (r === row ? { ...r, value: value(r.value) } : r)) }
    : { ...sku, custom: [...sku.custom, { key: field, value: value("") }] };
}

export function BulkEditor({ lang, count, onChange, onDelete, onKeepOnly, onClear }: Props) {
  const [field, setField] = useState<string>("product_name");
  const [other, setOther] = useState("");
  const [value, setValue] = useState("");
  const [find, setFind] = useState("");
  const name = field === "other" ? other.trim() : field;
  return (
    <div className="bulk" data-testid="bulk-editor">
      <h2>{t(lang, "picked")}: <span data-testid="picked-count">{count}</span></h2>
      <div className="bulk-row">
        <select data-testid="bulk-field" value={field} onChange={(e) => setField(e.target.value)}>
          {FIELDS.map((f) => <option key={f} value={f}>{t(lang, f)}</option>)}
          <option value="other">{t(lang, "other")}</option>
        </select>
        {field === "other" && <input data-testid="bulk-other" placeholder={t(lang, "attributeName")} value={other}
                                     onChange={(e) => setOther(e.target.value)} />}
      </div>
      <div className="bulk-row">
        <input data-testid="bulk-find" placeholder={t(lang, "bulkFind")} value={find} onChange={(e) => setFind(e.target.value)} />
        <input data-testid="bulk-value" placeholder={t(lang, find ? "bulkReplace" : "bulkValue")} value={value}
               onChange={(e) => setValue(e.target.value)} />
        <button data-testid="bulk-apply" disabled={!name}
                onClick={() => onChange((sku) => withField(sku, name, (old) => (find ? old.split(find).join(value) : value)))}>
          {t(lang, find ? "bulkReplaceAll" : "bulkSet")}</button>
      </div>
      <div className="actions">
        <button data-testid="bulk-delete" onClick={onDelete}>{t(lang, "bulkDelete")}</button>
        <button data-testid="bulk-keep" onClick={onKeepOnly}>{t(lang, "bulkKeep")}</button>
        <button onClick={onClear}>{t(lang, "bulkClear")}</button>
      </div>
    </div>
  );
}
