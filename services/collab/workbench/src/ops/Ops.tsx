// The operator's page (issue 41): jobs in flight, the review backlog by age, the team by name with
// throughput and accuracy, and the dead letters, each linking to a job's pages and tasks (#job=<id>).
// It logs in like the workbench (the same tab session); the data answer only operators, team leads
// and admins, and a view the login's roles do not cover says so instead of failing the page.
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useLang, type Lang } from "../i18n";
import { Login } from "../Login";
import { currentSession, keepSession, type Session } from "../session";
import * as data from "./data";
import { say } from "./text";

const REFRESH_MS = 30_000;

type Loaded<T> = { value?: T; error?: unknown };

function useLoaded<T>(load: () => Promise<T>, onEnded: () => void): Loaded<T> | null {
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  useEffect(() => {
    let live = true;
    const fetchNow = () => load().then((value) => live && setLoaded({ value }), (error) => {
      if (error instanceof data.Unauthorized) onEnded();
      else if (live) setLoaded({ error });
    });
    fetchNow();
    const timer = window.setInterval(fetchNow, REFRESH_MS);
    return () => { live = false; window.clearInterval(timer); };
  }, [load, onEnded]);
  return loaded;
}

function Section<T>({ id, title, lang, loaded, children }:
  { id: string; title: string; lang: Lang; loaded: Loaded<T> | null; children: (value: T) => ReactNode }) {
  let body: ReactNode = <p className="muted">{say(lang, "loading")}</p>;
  if (loaded?.error instanceof data.Refused) body = <p className="muted">{say(lang, "refused")}</p>;
  else if (loaded?.error) body = <p className="error">{say(lang, "failed")}{String(loaded.error)}</p>;
  else if (loaded?.value !== undefined) body = children(loaded.value);
  return <section data-testid={id} className="ops-card"><h2>{title}</h2>{body}</section>;
}

const minutes = (m: number) =>
  m < 120 ? `${Math.round(m)} min` : m < 2880 ? `${(m / 60).toFixed(1)} h` : `${(m / 1440).toFixed(1)} d`;
const since = (iso: string) => minutes((Date.now() - Date.parse(iso)) / 60_000);
const jobLink = (jobId: string, label: string) => <a href={`#job=${encodeURIComponent(jobId)}`}>{label}</a>;

function Reasons({ reasons, lang }: { reasons: data.Reason[]; lang: Lang }) {
  return <ul className="reasons">{reasons.map((r, i) =>
    <li key={i}>{r[lang]} <code title={r.detail ?? ""}>{r.code}</code></li>)}</ul>;
}

function Board({ lang, onEnded }: { lang: Lang; onEnded: () => void }) {
  const flying = useLoaded(data.inFlight, onEnded);
  const waiting = useLoaded(data.backlog, onEnded);
  const people = useLoaded(data.team, onEnded);
  return <div className="ops-grid">
    <Section id="ops-jobs" title={say(lang, "jobs")} lang={lang} loaded={flying}>{(v) => v.jobs.length === 0
      ? <p className="muted">{say(lang, "noJobs")}</p>
      : <table><thead><tr><th>{say(lang, "file")}</th><th>{say(lang, "status")}</th><th>{say(lang, "pages")}</th>
          <th>{say(lang, "waiting")}</th><th>{say(lang, "started")}</th></tr></thead>
        <tbody>{v.jobs.map((j) => <tr key={j.job_id} data-job={j.job_id}>
          <td>{jobLink(j.job_id, j.filename)}</td><td>{j.status}</td>
          <td>{Object.entries(j.pages).map(([s, n]) => `${s} ${n}`).join(", ")}{j.total_pages ? ` / ${j.total_pages}` : ""}</td>
          <td>{j.waiting_for_people}</td><td>{since(j.created_at)}</td></tr>)}</tbody></table>}
    </Section>
    <Section id="ops-backlog" title={say(lang, "backlog")} lang={lang} loaded={waiting}>{(v) => <>
      <p><strong>{v.open_tasks}</strong> {say(lang, "openTasks")}{v.open_tasks > 0 && ` (${Object.entries(v.by_status)
        .map(([s, n]) => `${s} ${n}`).join(", ")})`}</p>
      <table><thead><tr><th>{say(lang, "age")}</th><th>{say(lang, "tasks")}</th></tr></thead>
        <tbody>{v.by_age.map((b) => <tr key={b.from_minutes} data-band={b.from_minutes}>
          <td>{b.to_minutes === null ? `≥ ${b.from_minutes} min` : `${b.from_minutes}–${b.to_minutes} min`}</td>
          <td>{b.tasks}</td></tr>)}</tbody></table>
      {v.jobs.length > 0 && <p>{say(lang, "oldest")}: {v.jobs.slice(0, 5).map((j, i) => <span key={j.job_id}>
        {i > 0 && " · "}{jobLink(j.job_id, j.job_id.slice(0, 8))} ({j.open_tasks}, {minutes(j.oldest_minutes)})</span>)}</p>}
    </>}</Section>
    <Section id="ops-annotators" title={say(lang, "annotators")} lang={lang} loaded={people}>{(v) =>
      <table><thead><tr><th>{say(lang, "name")}</th><th>{say(lang, "finished")} ({v.window_days} d)</th>
          <th>{say(lang, "perDay")}</th><th>{say(lang, "accuracy")}</th><th>{say(lang, "seconds")}</th>
          <th>{say(lang, "open")}</th></tr></thead>
        <tbody>{v.annotators.map((a) => <tr key={a.annotator}>
          <td>{a.name ?? a.annotator} <small className="muted">{a.name ? a.annotator : ""}</small></td>
          <td>{a.total_tasks}</td><td>{(a.total_tasks / v.window_days).toFixed(1)}</td>
          <td>{Math.round(a.accuracy * 100)}%</td><td>{Math.round(a.avg_duration_sec)}</td><td>{a.open_tasks}</td>
        </tr>)}</tbody></table>}
    </Section>
    <Section id="ops-dlq" title={say(lang, "dlq")} lang={lang} loaded={flying}>{(v) => <>
      <p><strong data-testid="ops-dlq-depth">{v.dead_letters.pages}</strong> {say(lang, "dlqPages")}</p>
      <ul>{v.dead_letters.jobs.map((j) => <li key={j.job_id}>{jobLink(j.job_id, j.filename)}:
        {" "}{say(lang, "pages")} {j.pages.join(", ")}</li>)}</ul>
    </>}</Section>
  </div>;
}

function JobView({ jobId, lang, onEnded }: { jobId: string; lang: Lang; onEnded: () => void }) {
  const pages = useLoaded(useCallback(() => data.jobPages(jobId), [jobId]), onEnded);
  const tasks = useLoaded(useCallback(() => data.jobTasks(jobId), [jobId]), onEnded);
  return <div className="ops-grid" data-testid="ops-job" data-job={jobId}>
    <p><a href="#">{say(lang, "back")}</a> · {say(lang, "job")} <code>{jobId}</code></p>
    <Section id="ops-job-pages" title={say(lang, "pages")} lang={lang} loaded={pages}>{(v) =>
      <table><thead><tr><th>{say(lang, "page")}</th><th>{say(lang, "status")}</th><th>{say(lang, "skus")}</th>
          <th>{say(lang, "reasons")}</th></tr></thead>
        <tbody>{v.pages.map((p) => <tr key={p.page}><td>{p.page}</td><td>{p.status}</td><td>{p.sku_count}</td>
          <td><Reasons reasons={p.reasons} lang={lang} />{p.error && <small className="error">{p.error}</small>}</td>
        </tr>)}</tbody></table>}
    </Section>
    <Section id="ops-job-tasks" title={say(lang, "tasks")} lang={lang} loaded={tasks}>{(v) =>
      <table><thead><tr><th>{say(lang, "page")}</th><th>{say(lang, "type")}</th><th>{say(lang, "status")}</th>
          <th>{say(lang, "age")}</th><th>{say(lang, "holder")}</th><th>{say(lang, "reasons")}</th></tr></thead>
        <tbody>{v.tasks.map((t) => <tr key={t.task_id}><td>{t.page}</td><td>{t.task_type}</td>
          <td>{t.status}{t.skip_reason && <small className="muted"> · {t.skip_reason}</small>}</td>
          <td>{since(t.created_at)}</td><td>{t.locked_by ?? ""}</td><td><Reasons reasons={t.reasons} lang={lang} /></td>
        </tr>)}</tbody></table>}
    </Section>
  </div>;
}

const jobInHash = () => new URLSearchParams(window.location.hash.slice(1)).get("job");

export function Ops() {
  const [lang, switchLang] = useLang();
  const [session, setSession] = useState<Session | null>(currentSession());
  const [jobId, setJobId] = useState<string | null>(jobInHash());
  useEffect(() => {
    const follow = () => setJobId(jobInHash());
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  const ended = useCallback(() => { keepSession(null); setSession(null); }, []);
  if (!session) return <Login title={say(lang, "title")} lang={lang} onLang={switchLang} ended={false} onSession={setSession} />;
  return <div className="ops">
    <header><strong>{say(lang, "title")}</strong>
      <span className="who">{session.username} · {session.roles.join(", ")}</span>
      <button onClick={switchLang}>{lang === "en" ? "中文" : "English"}</button>
      <button onClick={ended}>{say(lang, "logout")}</button></header>
    {jobId ? <JobView key={jobId} jobId={jobId} lang={lang} onEnded={ended} />
      : <Board lang={lang} onEnded={ended} />}
  </div>;
}
