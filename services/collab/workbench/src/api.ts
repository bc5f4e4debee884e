// The workbench's calls: login at the gateway, tasks at collab (same origin). Every call carries the
// bearer token; a 401 sends the annotator back to the login page.
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
export type Task = {
  task_id: string; job_id: string; page: number; task_type: string; status: string; reason: string;
  priority: number; sla_level: string; locked_by: string | null; result: PageResult | null;
  page_size: [number, number] | null; page_image_url: string | null;
  text_blocks: { bbox: BBox; text: string }[];
  doc_global_attributes: Record<string, string>;
  context_pages: { previous: string | null; next: string | null };
};
export type Session = { token: string; username: string; roles: string[]; merchant_id: string };

export class Unauthorized extends Error {}
export class Conflict extends Error {}

export async function gatewayUrl(): Promise<string> {
  const response = await fetch("/workbench/config.json");
  return ((await response.json()) as { gateway_url: string }).gateway_url;
}

export async function login(username: string, password: string): Promise<Session> {
  const response = await fetch(`${await gatewayUrl()}/api/v1/auth/login`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Unauthorized(await response.text());
  const body = await response.json();
  return { token: body.access_token, username: body.username, roles: body.roles, merchant_id: body.merchant_id };
}

export class Api {
  constructor(private readonly session: Session) {}

  private async call(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(path, {
      ...init,
      headers: { Authorization: `Bearer ${this.session.token}`, "Content-Type": "application/json",
                 ...(init.headers || {}) },
    });
    if (response.status === 401) throw new Unauthorized("session expired");
    if (response.status === 409) throw new Conflict(await response.text());
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

  /** A page picture as an object URL (an <img> cannot send the bearer token itself). */
  async picture(url: string): Promise<string> {
    const blob = await (await this.call(url, { headers: { Accept: "image/png" } })).blob();
    return URL.createObjectURL(blob);
  }
}
