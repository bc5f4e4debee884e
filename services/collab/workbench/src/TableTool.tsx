// The table tool's side panel: each column's role (and an 'other' column's attribute name), whether the
// first line is a header, the rows it reads; Apply turns every row into a SKU.
import { t, type Lang } from "./i18n";
import { ROLES, type Role, type TableDraft } from "./table";

type Props = {
  lang: Lang; table: TableDraft; rows: number; onChange: (table: TableDraft) => void;
  onApply: () => void; onCancel: () => void;
};

export function TableTool({ lang, table, rows, onChange, onApply, onCancel }: Props) {
  const set = (i: number, role: Role) => onChange({ ...table, roles: table.roles.map((r, j) => (j === i ? role : r)) });
  const name = (i: number, value: string) =>
    onChange({ ...table, names: table.roles.map((_, j) => (j === i ? value : table.names[j] ?? "")) });
  return (
    <div className="table-tool" data-testid="table-tool" data-cuts={JSON.stringify(table.cuts)}>
      <h2>{t(lang, "tableTool")}</h2>
      <p className="hint-inline">{t(lang, "tableHelp")}</p>
      <ol className="columns">
        {table.roles.map((role, i) => (
          <li key={i}>
            <select data-testid={`column-role-${i}`} value={role} onChange={(e) => set(i, e.target.value as Role)}>
              {ROLES.map((r) => <option key={r} value={r}>{t(lang, r)}</option>)}
            </select>
            {role === "other" && <input data-testid={`column-name-${i}`} placeholder={t(lang, "attributeName")}
                                        value={table.names[i] ?? ""} onChange={(e) => name(i, e.target.value)} />}
          </li>))}
      </ol>
      <label><input type="checkbox" data-testid="table-header" checked={table.header}
                    onChange={(e) => onChange({ ...table, header: e.target.checked })} /> {t(lang, "tableHeader")}</label>
      <p data-testid="table-rows">{t(lang, "tableRows")}: {rows}</p>
      <div className="actions">
        <button data-testid="table-apply" onClick={onApply}>{t(lang, "tableApply")} (Enter)</button>
        <button onClick={onCancel}>{t(lang, "cancel")} (Esc)</button>
      </div>
    </div>
  );
}
