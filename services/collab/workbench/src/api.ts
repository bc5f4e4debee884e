// The workbench's calls to collab's task API (same origin). Every call carries the tab's bearer token;
// a 401 renews it once with the refresh token and tries again, and only a login that has ended
// (Unauthorized) sends the annotator to the login page, their edits kept as a draft.
import { currentSession, refresh, Unauthorized } from "./session";

export { Unauthorized };
export type Attributes = {
  model?: string | null; product_name?: string | null; price?: string | null;
  size?: string | null; color?: string | null; material?: string | null;
};
export type BBox = [number, number, number, number];
export type Sku = {
  sku_id: string; validity: string; attributes: Attributes; custom_attributes: Record<string, string>;
  source_bbox: BBox; confidence: number;
};
export type Image = { image_id: string; bbox: BBox; role: string };
export type Binding = {
  sku_id: string; image_id: string | null; is_ambiguous: boolean;
  candidates: { image_id: string; confidence: number }[];
};
export type PageResult = {
  page: number; page_type: string | null; layout: string | null; skus: Sku[]; images: Image[];
  bindings: Binding[]; review_reasons: string[]; validation: { triggered_rules: string[] };
};
export type ValueChange = { before: string | null; after: string | null };
export type SkuPatch = {
  sku_id: string; attributes?: Record<string, ValueChange>; custom_attributes?: Record<string, ValueChange>;
  image_id?: ValueChange;
};
export type PagePatch = {
  edited?: SkuPatch[]; deleted?: string[];
  added?: { attributes: Attributes; custom_attributes: Record<string, string>; bbox: BBox; image_id: string | null }[];
  new_images?: { key: string; bbox: BBox }[];
  tables?: TableLayout[];
};
/** A table laid out with the table tool: its region, columns and their roles, the SKUs its rows made. */
export type TableLayout = {
  bbox: BBox; header: boolean; rows: number;
  columns: { x0: number; x1: number; role: string; name: string | null }[];
};
export type Rework = {
  count: number; reason: string; reverted_at: string; reverted_by: string; previous_annotator: string | null;
  previous_correction: PagePatch | null;
};
export type Task = {
  task_id: string; job_id: string; page: number; task_type: string; status: string; reason: string;
  priority: number; sla_level: string; locked_by: string | null; rework_count: number; result: PageResult | null;
  page_size: [number, number] | null; page_image_url: string | null;
  text_blocks: { bbox: BBox; text: string }[];
  words: { bbox: BBox; text: string }[];
  doc_global_attributes: Record<string, string>;
  context_pages: { previous: string | null; next: string | null };
  rework: Rework | null;
  reasons?: Reason[];
  reading: number; adapted_from: AdaptedFrom | null; similar_pages: number;
};
/** The corrected page the machine's reading of this page learned from (this job's or an earlier one's). */
export type AdaptedFrom = { job_id: string; page: number; task_id: string | null };
/** Why the page is here, in words (en, zh), with the code operators know it by. */
export type Reason = { code: string; detail: string | null; en: string; zh: string };
export type Heartbeat = { task_id: string; lock_expires_at: string; lock_seconds: number };

export class Conflict extends Error {
  /** Why the task was closed under its holder (a re-read that needs no one), when the service said. */
  get skipReason(): string | null {
    try { return (JSON.parse(this.message) as { detail?: { skip_reason?: string | null } }).detail?.skip_reason ?? null; }
    catch { return null; }
  }
}
export class Gone extends Error {}

function bearer(): Record<string, string> {
  const session = currentSession();
  if (!session) throw new Unauthorized("not logged in");
  return { Authorization: `Bearer ${session.token}` };
}

export class Api {
  private async call(path: string, init: RequestInit = {}, renewed = false): Promise<Response> {
    const response = await fetch(path, {
      ...init, headers: { ...bearer(), "Content-Type": "application/json", ...(init.headers || {}) },
    });
    if (response.status === 401) {
      if (renewed) throw new Unauthorized("session expired");
      await refresh();
      return this.call(path, init, true);
    }
    if (response.status === 409) throw new Conflict(await response.text());
    if (response.status === 404) throw new Gone(await response.text());
    if (!response.ok && response.status !== 204) throw new Error(`${response.status} ${await response.text()}`);
    return response;
  }

  async next(): Promise<Task | null> {
    const response = await this.call("/api/v1/tasks/next");
    return response.status === 204 ? null : ((await response.json()) as Task);
  }

  async task(taskId: string): Promise<Task> {
    return (await (await this.call(`/api/v1/tasks/${taskId}`)).json()) as Task;
  }

  async act(taskId: string, action: string, body?: unknown): Promise<unknown> {
    const init: RequestInit = { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) };
    return (await this.call(`/api/v1/tasks/${taskId}/${action}`, init)).json();
  }

  async heartbeat(taskId: string): Promise<Heartbeat> {
    return (await this.act(taskId, "heartbeat")) as Heartbeat;
  }

  /** Free the task as the tab closes: a request the browser sends even as the page goes away. */
  releaseOnClose(taskId: string): void {
    try {
      void fetch(`/api/v1/tasks/${taskId}/release?closed=true`, { method: "POST", keepalive: true, headers: bearer() });
    } catch { /* logged out already: the lock runs out on its own */ }
  }

  /** A page picture as an object URL (an <img> cannot send the bearer token itself). */
  async picture(url: string): Promise<string> {
    const blob = await (await this.call(url, { headers: { Accept: "image/png" } })).blob();
    return URL.createObjectURL(blob);
  }
}
