// What the reader learns within the document (issue 42): the correction of this page will be applied to
// the job's other open pages of its layout, and this page's reading may itself have learned from one.
import type { Task } from "./api";
import { t, type Lang } from "./i18n";

export function Adaptation({ lang, task }: { lang: Lang; task: Task }) {
  const learned = task.adapted_from;
  if (!task.similar_pages && !learned) return null;
  return (
    <div className="adaptation">
      {task.similar_pages > 0 && (
        <p data-testid="similar-pages">{t(lang, "similarPages", { n: task.similar_pages })}</p>)}
      {learned && (
        <p data-testid="adapted-from">{t(lang, learned.job_id === task.job_id ? "adaptedFrom" : "adaptedFromEarlier",
                                         { n: learned.page })}</p>)}
    </div>
  );
}
