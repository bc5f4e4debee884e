// The table tool's reading of a region the annotator drew: the page's words sorted into lines, the lines
// into rows (a row starts at each line with a word in the key column, so a name wrapped over two
// lines stays one product), the rows' words into the columns the annotator laid out, and each row into
// a SKU. Pure functions over the task's words, so what a layout gives is the same in the browser and
// in the test that drives it.
import type { BBox } from "./api";
import type { CustomRow, EditSku, Field } from "./edits";
import { FIELDS } from "./edits";

export type Word = { bbox: BBox; text: string };
export type Role = Field | "other" | "ignore";
export const ROLES: readonly Role[] = [...FIELDS, "other", "ignore"];

/** A table as laid out: its region, the x of each boundary between columns, each column's role and,
 *  for an 'other' column, its attribute name; whether its first line is a header. */
export type TableDraft = { bbox: BBox; cuts: number[]; roles: Role[]; names: string[]; header: boolean };
export type Column = { x0: number; x1: number; role: Role; name: string | null };
export type TableRow = { bbox: BBox; cells: string[] };

const centre = (b: BBox): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const inside = (b: BBox, region: BBox) => {
  const [x, y] = centre(b);
  return x >= region[0] && x <= region[2] && y >= region[1] && y <= region[3];
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const union = (boxes: BBox[]): BBox => [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])),
                                        Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
const CJK = /[\u3000-\u9fff\uff00-\uffef]/;

export function wordsIn(words: Word[], region: BBox): Word[] {
  return words.filter((w) => w.text.trim() && inside(w.bbox, region));
}

export function columns(table: TableDraft): Column[] {
  const edges = [table.bbox[0], ...table.cuts, table.bbox[2]];
  return table.roles.map((role, i) => ({ x0: edges[i], x1: edges[i + 1], role,
                                         name: role === "other" ? table.names[i] || null : null }));
}

/** The words in lines, top to bottom, each line left to right: a word joins the line whose middle is
 *  within half a word's height of its own. */
export function lines(words: Word[]): Word[][] {
  const height = median(words.map((w) => w.bbox[3] - w.bbox[1])) || 1;
  const found: { y: number; words: Word[] }[] = [];
  for (const word of [...words].sort((a, b) => centre(a.bbox)[1] - centre(b.bbox)[1])) {
    const y = centre(word.bbox)[1];
    const last = found[found.length - 1];
    if (last && Math.abs(y - last.y) <= height / 2) {
      last.words.push(word);
      last.y = (last.y * (last.words.length - 1) + y) / last.words.length;
    } else found.push({ y, words: [word] });
  }
  return found.map((line) => line.words.sort((a, b) => a.bbox[0] - b.bbox[0]));
}

/** Boundaries between columns where no word of the region crosses: gaps in the words' spread across the
 *  page wider than a word's height (wider than the space between words of one cell). */
export function guessCuts(words: Word[], region: BBox): number[] {
  const height = median(words.map((w) => w.bbox[3] - w.bbox[1])) || 8;
  const spans = words.map((w) => [w.bbox[0], w.bbox[2]] as const).sort((a, b) => a[0] - b[0]);
  const cuts: number[] = [];
  let reach = region[0];
  for (const [x0, x1] of spans) {
    if (reach > region[0] && x0 - reach > height) cuts.push((reach + x0) / 2);
    reach = Math.max(reach, x1);
  }
  return cuts;
}

function joined(words: Word[]): string {
  return words.reduce((text, w) => {
    const glue = text && !CJK.test(text[text.length - 1]) && !CJK.test(w.text[0]) ? " " : "";
    return text + glue + w.text;
  }, "").trim();
}

function columnOf(word: Word, cols: Column[]): number {
  const x = centre(word.bbox)[0];
  const i = cols.findIndex((c) => x >= c.x0 && x < c.x1);
  return i < 0 ? cols.length - 1 : i;
}

/** The table's blocks: a table printed twice side by side (name | price | name | price) repeats its key
 *  column (the code, else the name), and each repetition starts a block whose rows are products of
 *  their own. Each block is its columns' indexes and its key column (-1: none). */
function blocksOf(cols: Column[]): { columns: number[]; key: number }[] {
  const role = cols.some((c) => c.role === "model") ? "model" : "product_name";
  const keys = cols.flatMap((c, i) => (c.role === role ? [i] : []));
  if (keys.length <= 1) return [{ columns: cols.map((_, i) => i), key: keys[0] ?? -1 }];
  return keys.map((key, n) => ({ key, columns: cols.map((_, i) => i).filter(
    (i) => (n === 0 || i >= key) && (n === keys.length - 1 || i < keys[n + 1])) }));
}

/** The table's header (the names of its columns, when its first line is one) and its rows, block by
 *  block: a row starts at each line with a word in the block's key column, so a name wrapped over two
 *  lines stays one product. */
export function readTable(table: TableDraft, words: Word[]): { header: string[] | null; rows: TableRow[] } {
  const cols = columns(table);
  let body = lines(wordsIn(words, table.bbox));
  const cellsOf = (ws: Word[]) => cols.map((_, i) => joined(ws.filter((w) => columnOf(w, cols) === i)));
  const header = table.header && body.length ? cellsOf(body[0]) : null;
  if (table.header) body = body.slice(1);
  const rows: TableRow[] = [];
  for (const block of blocksOf(cols)) {
    const grouped: Word[][] = [];
    for (const line of body) {
      const mine = line.filter((w) => block.columns.includes(columnOf(w, cols)));
      if (!mine.length) continue;
      const starts = block.key < 0 || mine.some((w) => columnOf(w, cols) === block.key) || !grouped.length;
      if (starts) grouped.push([...mine]);
      else grouped[grouped.length - 1].push(...mine);
    }
    rows.push(...grouped.map((ws) => ({ bbox: union(ws.map((w) => w.bbox)), cells: cellsOf(ws) })));
  }
  return { header, rows };
}

/** First guesses at the columns' roles, for the annotator to correct: a column of codes (letters with
 *  digits) is the model, the last column of amounts the price, the widest column of words the name; the
 *  rest are ignored until the annotator names them (nothing goes downstream they did not ask for). */
export function guessRoles(table: TableDraft, words: Word[]): Role[] {
  const { rows } = readTable({ ...table, roles: table.roles.map(() => "other"), header: false }, words);
  const share = (i: number, test: RegExp) =>
    rows.filter((r) => test.test(r.cells[i])).length / Math.max(1, rows.filter((r) => r.cells[i]).length);
  const roles: Role[] = table.roles.map(() => "ignore");
  const n = roles.length;
  const code = [...Array(n).keys()].find((i) => share(i, /^(?=.*\d)(?=.*[A-Za-z])[\w./-]+$/) >= 0.6);
  if (code !== undefined) roles[code] = "model";
  const price = [...Array(n).keys()].reverse().find((i) => roles[i] === "ignore"
    && share(i, /^[¥$€£₽]?\s*\d[\d,. ]*\d?([.,]\d{1,2})?\s*(元|¥|€|руб\.?)?$/) >= 0.6);
  if (price !== undefined) roles[price] = "price";
  const length = (i: number) => rows.reduce((sum, r) => sum + r.cells[i].length, 0);
  const name = [...Array(n).keys()].filter((i) => roles[i] === "ignore" && share(i, /[^\d\s.,-]/) >= 0.6)
    .sort((a, b) => length(b) - length(a))[0];
  if (name !== undefined) roles[name] = "product_name";
  return roles;
}

/** A new table over ``region``: boundaries where the words leave gaps, roles guessed. */
export function newTable(region: BBox, words: Word[]): TableDraft {
  const cuts = guessCuts(wordsIn(words, region), region);
  const draft: TableDraft = { bbox: region, cuts, roles: [...cuts, 0].map(() => "other"), names: [], header: false };
  return { ...draft, roles: guessRoles(draft, words), names: draft.roles.map(() => "") };
}

/** A boundary moved, added or removed: the roles of the columns either side follow. */
export function withCuts(table: TableDraft, cuts: number[]): TableDraft {
  const sorted = [...cuts].filter((x) => x > table.bbox[0] && x < table.bbox[2]).sort((a, b) => a - b);
  const at = (x: number) => {  // the old column under a new column's middle keeps its role
    const i = table.cuts.findIndex((c) => x < c);
    return i < 0 ? table.cuts.length : i;
  };
  const edges = [table.bbox[0], ...sorted, table.bbox[2]];
  const mids = edges.slice(1).map((x, i) => (x + edges[i]) / 2);
  return { ...table, cuts: sorted, roles: mids.map((m) => table.roles[at(m)] ?? "ignore"),
           names: mids.map((m) => table.names[at(m)] ?? "") };
}

function skuOf(row: TableRow, cols: Column[], header: string[] | null): Pick<EditSku, "attributes" | "custom"> {
  const attributes: EditSku["attributes"] = {};
  const custom: CustomRow[] = [];
  cols.forEach((col, i) => {
    const value = row.cells[i];
    if (!value || col.role === "ignore") return;
    if (col.role === "other") custom.push({ key: col.name || header?.[i] || `column ${i + 1}`, value });
    else attributes[col.role] = attributes[col.role] ? `${attributes[col.role]} ${value}` : value;
  });
  return { attributes, custom };
}

/** The page's SKUs with the table applied: each row is a SKU. A SKU already inside the region that a
 *  row names (the same code, else the one whose box sits on the row) is corrected in place, keeping
 *  its identity; the region's other SKUs go; rows nobody had become new SKUs. SKUs outside the region
 *  are untouched. */
export function applyTable(skus: EditSku[], table: TableDraft, words: Word[], stamp: string): EditSku[] {
  const cols = columns(table);
  const { header, rows } = readTable(table, words);
  const within = skus.filter((s) => inside(s.bbox, table.bbox));
  const used = new Set<string>();
  const norm = (v: string | null | undefined) => (v ?? "").replace(/\s+/g, "").toLowerCase();
  const made = rows.map((row, n) => {
    const { attributes, custom } = skuOf(row, cols, header);
    if (!Object.values(attributes).some(Boolean) && !custom.length) return null;
    const [, y] = centre(row.bbox);
    const same = within.find((s) => !used.has(s.key) && attributes.model && norm(s.attributes.model) === norm(attributes.model))
      ?? within.find((s) => !used.has(s.key) && y >= s.bbox[1] && y <= s.bbox[3]);
    if (same) {
      used.add(same.key);
      const kept = same.custom.filter((c) => !custom.some((d) => d.key === c.key));
      return { ...same, attributes: { ...same.attributes, ...attributes }, custom: [...kept, ...custom] };
    }
    return { key: `table-${stamp}-${n}`, sku_id: null, attributes, custom, bbox: row.bbox, image_id: null,
             candidates: [] };
  }).filter((s): s is EditSku => s !== null);
  const first = skus.findIndex((s) => within.includes(s));
  const outside = skus.filter((s) => !within.includes(s));
  const at = first < 0 ? outside.length : skus.slice(0, first).filter((s) => !within.includes(s)).length;
  return [...outside.slice(0, at), ...made, ...outside.slice(at)];
}

/** The table as the patch records it: what the annotator laid out, the material of learning layouts. */
export function layoutOf(table: TableDraft, rows: number) {
  return { bbox: table.bbox, header: table.header, rows, columns: columns(table) };
}
