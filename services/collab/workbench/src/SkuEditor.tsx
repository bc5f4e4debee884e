// The selected SKU's fields, each attribute its own field: the six standard ones, then every other
// attribute as a name and a value (add, remove), and its candidate images. A value spanning lines is
// edited in a text area (a one-line field would drop its line breaks).
import { forwardRef } from "react";
import type { CustomRow, EditSku, Field } from "./edits";
import { FIELDS } from "./edits";
import { t, type Lang } from "./i18n";

type Props = { lang: Lang; sku: EditSku; onChange: (change: Partial<EditSku>) => void };

function Text({ name, value, multiline, onChange }:
               { name: string; value: string; multiline: boolean; onChange: (value: string) => void }) {
  return multiline
    ? <textarea name={name} value={value} rows={Math.min(6, value.split("\n").length)}
                onChange={(e) => onChange(e.target.value)} />
    : <input name={name} value={value} onChange={(e) => onChange(e.target.value)} />;
}

export const SkuEditor = forwardRef<HTMLDivElement, Props>(function SkuEditor({ lang, sku, onChange }, ref) {
  const setRow = (index: number, row: CustomRow | null) =>
    onChange({ custom: row === null ? sku.custom.filter((_, i) => i !== index)
                                    : sku.custom.map((r, i) => (i === index ? row : r)) });
  return (
    <div className="editor" ref={ref} data-testid="editor">
      {FIELDS.map((field: Field) => {
        const value = sku.attributes[field] ?? "";
        return (
          <label key={field}>{t(lang, field)}
            <Text name={field} value={value} multiline={value.includes("\n")}
                  onChange={(v) => onChange({ attributes: { ...sku.attributes, [field]: v } })} />
          </label>);
      })}
      <fieldset className="custom" data-testid="custom-attributes">
        <legend>{t(lang, "custom")}</legend>
        {sku.custom.map((row, i) => (
          <div className="custom-row" key={i} data-testid="custom-row">
            <input name={`custom-key-${i}`} aria-label={t(lang, "attributeName")} value={row.key}
                   placeholder={t(lang, "attributeName")} onChange={(e) => setRow(i, { ...row, key: e.target.value })} />
            <textarea name={`custom-value-${i}`} aria-label={t(lang, "attributeValue")} value={row.value}
                      rows={Math.min(6, Math.max(1, row.value.split("\n").length))}
                      onChange={(e) => setRow(i, { ...row, value: e.target.value })} />
            <button type="button" title={t(lang, "removeAttribute")} onClick={() => setRow(i, null)}>×</button>
          </div>))}
        <button type="button" data-testid="add-attribute"
                onClick={() => onChange({ custom: [...sku.custom, { key: "", value: "" }] })}>
          + {t(lang, "addAttribute")}</button>
      </fieldset>
      <div className="candidates" data-testid="candidates">
        <span>{t(lang, "candidates")}</span>
        {sku.candidates.map((id, i) => (
          <button key={id} className={sku.image_id === id ? "bound" : ""}
                  onClick={() => onChange({ image_id: id })}>{i + 1}: {id}</button>))}
        <span data-testid="bound-image">{t(lang, "image")}: {sku.image_id ?? "—"}</span>
      </div>
    </div>
  );
});
