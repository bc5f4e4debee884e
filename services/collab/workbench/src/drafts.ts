// Unsaved edits, kept in the browser as the annotator makes them, so that a login that ends, a tab that
// closes or a reload loses nothing: the workbench offers the task again first and restores them.
// A draft belongs to one user, one task and one reading of its page (a revert starts a new one, and so
// does the machine's re-read of a waiting task's page after a correction).
import type { DrawnImage, EditSku } from "./edits";
import type { TableLayout, Task } from "./api";

export type Draft = {
  task_id: string; reading: string; skus: EditSku[]; newImages: DrawnImage[]; tables?: TableLayout[]; saved_at: string;
};

const PREFIX = "skuflow.draft.";

function key(user: string, taskId: string): string {
  return `${PREFIX}${user}.${taskId}`;
}

/** Which reading of the page a draft was made on: the same task after a revert or a re-read is another. */
export function readingOf(task: Task): string {
  return `${task.rework_count}:${task.reading}:${(task.result?.skus ?? []).map((s) => s.sku_id).join(",")}`;
}

export function saveDraft(user: string, task: Task, skus: EditSku[], newImages: DrawnImage[],
                          tables: TableLayout[]): void {
  const draft: Draft = { task_id: task.task_id, reading: readingOf(task), skus, newImages, tables,
                         saved_at: new Date().toISOString() };
  localStorage.setItem(key(user, task.task_id), JSON.stringify(draft));
}

export function loadDraft(user: string, task: Task): Draft | null {
  const raw = localStorage.getItem(key(user, task.task_id));
  if (!raw) return null;
  const draft = JSON.parse(raw) as Draft;
  if (draft.reading !== readingOf(task)) {
    dropDraft(user, task.task_id);
    return null;
  }
  return draft;
}

export function dropDraft(user: string, taskId: string): void {
  localStorage.removeItem(key(user, taskId));
}

/** The tasks this user left edits on, oldest first. */
export function draftedTasks(user: string): string[] {
  const mine = `${PREFIX}${user}.`;
  return Object.keys(localStorage).filter((k) => k.startsWith(mine))
    .map((k) => JSON.parse(localStorage.getItem(k) ?? "{}") as Draft)
    .sort((a, b) => a.saved_at.localeCompare(b.saved_at)).map((d) => d.task_id);
}
