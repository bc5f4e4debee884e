// What the ops page reads: the gateway's jobs in flight and dead letters and a job's pages, collab's
// review backlog, team and a job's tasks. Every call carries the tab's bearer token (the workbench's
// login); a 401 renews it once, a 403 means the login's roles do not cover that view.
import { currentSession, gatewayUrl, refresh, Unauthorized } from "../session";

export { Unauthorized };
export class Refused extends Error {}

export type Reason = { code: string; detail: string | null; en: string; zh: string };
export type InFlight = {
  jobs: { job_id: string; filename: string; status: string; user_status: string; created_at: string;
          total_pages: number | null; pages: Record<string, number>; waiting_for_people: number }[];
  dead_letters: { pages: number; jobs: { job_id: string; filename: string; pages: number[] }[] };
};
export type Backlog = {
  open_tasks: number; by_status: Record<string, number>;
  by_age: { from_minutes: number; to_minutes: number | null; tasks: number }[];
  jobs: { job_id: string; open_tasks: number; oldest_minutes: number }[];
};
export type Team = {
  window_days: number;
  annotators: { annotator: string; name: string | null; total_tasks: number; accuracy: number;
                avg_duration_sec: number; open_tasks: number }[];
};
export type JobPages = {
  job_id: string; total_pages: number | null;
  pages: { page: number; status: string; error: string | null; sku_count: number; reasons: Reason[] }[];
};
export type JobTasks = {
  total: number;
  tasks: { task_id: string; page: number; task_type: string; status: string; created_at: string;
           locked_by: string | null; skip_reason: string | null; reasons: Reason[] }[];
};

async function get<T>(url: string, renewed = false): Promise<T> {
  const session = currentSession();
  if (!session) throw new Unauthorized("not logged in");
  const response = await fetch(url, { headers: { Authorization: `Bearer ${session.token}` } });
  if (response.status === 401) {
    if (renewed) throw new Unauthorized("session expired");
    await refresh();
    return get<T>(url, true);
  }
  if (response.status === 403) throw new Refused(await response.text());
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const atGateway = async <T,>(path: string): Promise<T> => get<T>(`${await gatewayUrl()}/api/v1${path}`);
const atCollab = <T,>(path: string): Promise<T> => get<T>(`/api/v1${path}`);

export const inFlight = () => atGateway<InFlight>("/ops/in-flight");
export const backlog = () => atCollab<Backlog>("/ops/backlog");
export const team = () => atCollab<Team>("/ops/annotators");
export const jobPages = (jobId: string) => atGateway<JobPages>(`/jobs/${encodeURIComponent(jobId)}/pages`);
export const jobTasks = (jobId: string) => atCollab<JobTasks>(`/tasks?job_id=${encodeURIComponent(jobId)}&limit=200`);
