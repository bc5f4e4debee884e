// The annotator's workbench: log in, take the next task, correct the page, approve, and the next
// task (fetched and its picture preloaded while this one was open) is already there. Edits are kept as
// a draft while they are made; a login that ends sends the annotator to the login page and, once they
// are back, to the same task with their edits.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Api, Conflict, Gone, Unauthorized, type BBox, type TableLayout, type Task } from "./api";
import { BulkEditor } from "./BulkEditor";
import { draftedTasks, dropDraft, loadDraft, saveDraft } from "./drafts";
import { fromResult, problem, toPatch, type DrawnImage, type EditSku } from "./edits";
import { t, SHORTCUTS, useLang, type Lang } from "./i18n";
import { Login } from "./Login";
import { PageCanvas, zoomed, type Mode } from "./PageCanvas";
import { Adaptation } from "./Adaptation";
import { ReworkNote } from "./ReworkNote";
import { currentSession, keepSession, type Session } from "./session";
import { SkuEditor } from "./SkuEditor";
import { TableTool } from "./TableTool";
import { SkuList, type Click } from "./SkuList";
import { applyTable, layoutOf, readTable, newTable, withCuts, type TableDraft } from "./table";

const IDLE_POLL_MS = 5_000;
const MIN_HEARTBEAT_MS = 2_000;
const MAX_HEARTBEAT_MS = 10_000;  // a page re-read under its holder is closed: they hear of it within this
const SHARP_FROM = 1.25;  // zoomed in further, the page is drawn from its sharper picture

export function App() {
  const [lang, switchLang] = useLang();
  const [session, setSession] = useState<Session | null>(currentSession);
  const [ended, setEnded] = useState(false);
  const signOut = useCallback((expired: boolean) => {
    keepSession(null);
    setEnded(expired);
    setSession(null);
  }, []);
  if (!session) {
    return <Login title={t(lang, "title")} lang={lang} onLang={switchLang} ended={ended}
                  onSession={(s) => { setEnded(false); setSession(s); }} />;
  }
  return <Workbench lang={lang} onLang={switchLang} session={session} onSignOut={signOut} />;
}

type Open = { task: Task; picture: string; previous: string | null; next: string | null; sharp?: string };

function Workbench({ lang, onLang, session, onSignOut }:
                   { lang: Lang; onLang: () => void; session: Session; onSignOut: (expired: boolean) => void }) {
  const api = useRef(new Api()).current;
  const user = session.username;
  const [open, setOpen] = useState<Open | null>(null);
  const [skus, setSkus] = useState<EditSku[]>([]);
  const [selected, setSelected] = useState(0);
  const [drawing, setDrawing] = useState<Mode>(null);
  const [newImages, setNewImages] = useState<DrawnImage[]>([]);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [zoom, setZoom] = useState(1);
  const [table, setTable] = useState<TableDraft | null>(null);
  const [tables, setTables] = useState<TableLayout[]>([]);
  const [help, setHelp] = useState(false);
  const [focusEditor, setFocusEditor] = useState(false);
  const [notice, setNotice] = useState<string>(t(lang, "loading"));
  const [message, setMessage] = useState<string | null>(null);
  const preloaded = useRef<Map<string, string>>(new Map());
  const editor = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);

  const failed = useCallback((error: unknown) => {
    if (error instanceof Unauthorized) onSignOut(true);
    else if (error instanceof Conflict) setMessage(t(lang, "lockLost"));
    else setMessage(String(error));
  }, [lang, onSignOut]);

  const preloadNext = useCallback(async (current: string) => {
    try {
      const upcoming = await api.next();
      if (upcoming && upcoming.task_id !== current && upcoming.page_image_url
          && !preloaded.current.has(upcoming.task_id)) {
        preloaded.current.set(upcoming.task_id, await api.picture(upcoming.page_image_url));
      }
    } catch { /* preloading is only a head start */ }
  }, [api]);

  const show = useCallback(async (detail: Task) => {
    const picture = preloaded.current.get(detail.task_id)
      ?? (detail.page_image_url ? await api.picture(detail.page_image_url) : "");
    preloaded.current.delete(detail.task_id);
    const [previous, next] = await Promise.all([detail.context_pages.previous, detail.context_pages.next]
      .map((url) => (url ? api.picture(url) : Promise.resolve(null))));
    const draft = loadDraft(user, detail);
    setSkus(draft ? draft.skus : detail.result ? fromResult(detail.result) : []);
    setNewImages(draft ? draft.newImages : []);
    setTables(draft?.tables ?? []);
    setMessage(draft ? t(lang, "draftRestored") : null);
    setSelected(0);
    setPicked(new Set());
    setTable(null);
    setZoom(1);
    setDrawing(null);
    setOpen({ task: detail, picture, previous, next });
    void preloadNext(detail.task_id);
  }, [api, user, lang, preloadNext]);

  /** Take a task: first one this annotator left edits on (still theirs to take), then the next one. */
  const take = useCallback(async () => {
    setOpen(null);
    for (const taskId of draftedTasks(user)) {
      try {
        await api.act(taskId, "lock");
        await show(await api.task(taskId));
        return true;
      } catch (e) {
        if (!(e instanceof Conflict || e instanceof Gone)) throw e;
        dropDraft(user, taskId);  // finished or taken by someone else meanwhile
      }
    }
    for (;;) {
      const task = await api.next();
      if (task === null) { setNotice(t(lang, "noTask")); return false; }
      try { await api.act(task.task_id, "lock"); } catch (e) { if (e instanceof Conflict) continue; throw e; }
      await show(await api.task(task.task_id));
      return true;
    }
  }, [api, user, lang, show]);

  useEffect(() => {
    let stopped = false;
    const loop = async () => {
      try {
        if (!(await take()) && !stopped) setTimeout(loop, IDLE_POLL_MS);
      } catch (e) { failed(e); }
    };
    if (!open) void loop();
    return () => { stopped = true; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {  // keep the lock: renewed every third of its life; a closing tab gives it back
    if (!open) return;
    const taskId = open.task.task_id;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const beat = async () => {
      try {
        const held = await api.heartbeat(taskId);
        if (!stopped) timer = setTimeout(beat, Math.min(MAX_HEARTBEAT_MS,
          Math.max(MIN_HEARTBEAT_MS, (held.lock_seconds * 1000) / 3)));
      } catch (e) {
        if (stopped) return;
        const why = e instanceof Conflict ? e.skipReason : null;
        if (!why) { failed(e); return; }
        dropDraft(user, taskId);  // the machine's re-read made the page right: nothing of it is kept
        const told = `${t(lang, "closedUnderYou")}: ${why}`;
        if (await take().catch((error) => { failed(error); return true; })) setMessage(told);
        else setNotice(told);  // no other page waits: said where "no task" would be
      }
    };
    void beat();
    const closing = () => api.releaseOnClose(taskId);
    window.addEventListener("pagehide", closing);
    return () => { stopped = true; clearTimeout(timer); window.removeEventListener("pagehide", closing); };
  }, [api, open, failed, take, user, lang]);

  useEffect(() => {  // every edit is kept in the browser until the task is finished
    if (!open?.task.result) return;
    const patch = toPatch(open.task.result, skus, newImages, tables);
    if (Object.keys(patch).length) saveDraft(user, open.task, skus, newImages, tables);
    else dropDraft(user, open.task.task_id);
  }, [open, skus, newImages, tables, user]);

  useEffect(() => {  // zoomed in, the page is drawn from a sharper picture, fetched once
    if (!open || open.sharp || zoom < SHARP_FROM || !open.task.page_image_url) return;
    const taskId = open.task.task_id;
    void api.picture(`${open.task.page_image_url}?sharp=true`).then((sharp) =>
      setOpen((o) => (o && o.task.task_id === taskId ? { ...o, sharp } : o))).catch(() => undefined);
  }, [api, open, zoom]);

  const finish = useCallback(async (action: "complete" | "skip" | "release", body?: unknown) => {
    if (!open) return;
    try {
      await api.act(open.task.task_id, action, body);
      dropDraft(user, open.task.task_id);
      setNotice(t(lang, "saved"));
      if (!(await take())) setTimeout(() => void take().catch(failed), IDLE_POLL_MS);
    } catch (e) { failed(e); }
  }, [api, open, user, lang, take, failed]);

  const approve = useCallback(() => {
    if (!open) return;
    const wrong = problem(skus);
    if (wrong) { setMessage(wrong); return; }
    void finish("complete", open.task.result ? toPatch(open.task.result, skus, newImages, tables) : {});
  }, [open, finish, skus, newImages, tables]);
  const skip = useCallback(() => {
    const reason = window.prompt(t(lang, "skipReason"));
    if (reason) void finish("skip", { reason });
  }, [finish, lang]);

  const update = (index: number, change: Partial<EditSku>) =>
    setSkus((all) => all.map((s, i) => (i === index ? { ...s, ...change } : s)));
  const words = useMemo(() => open?.task.words ?? [], [open]);
  const tableRows = useMemo(() => (table ? readTable(table, words).rows : []), [table, words]);  // not per keystroke
  const makeTable = useCallback(() => {
    if (!table) return;
    setSkus((all) => applyTable(all, table, words, String(Date.now())));
    setTables((all) => [...all, layoutOf(table, tableRows.length)]);
    setTable(null);
    setPicked(new Set());
    setSelected(0);
  }, [table, words, tableRows.length]);
  const startOver = () => {  // every edit of this page dropped: back to the reading as it came
    if (!open || !window.confirm(t(lang, "startOverConfirm"))) return;
    dropDraft(user, open.task.task_id);
    setSkus(open.task.result ? fromResult(open.task.result) : []);
    setNewImages([]);
    setTables([]);
    setPicked(new Set());
    setTable(null);
    setSelected(0);
  };
  const keepPicked = (keep: boolean) => {
    setSkus((all) => all.filter((s) => picked.has(s.key) === keep));
    setPicked(new Set());
    setSelected(0);
  };
  /** A click in the list: select one, Ctrl toggles it in the pick, Shift picks the run from the selected one. */
  const clicked = ({ index, toggle, range }: Click) => {
    if (range) {
      const [a, b] = [Math.min(selected, index), Math.max(selected, index)];
      setPicked(new Set([...picked, ...skus.slice(a, b + 1).map((s) => s.key)]));
    } else if (toggle) {
      const next = new Set(picked.size || !skus[selected] ? picked : [skus[selected].key]);
      if (!next.delete(skus[index].key)) next.add(skus[index].key);
      setPicked(next);
    } else setPicked(new Set());
    setSelected(index);
  };

  const onKey = useCallback((event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target.tagName === "INPUT" || target.tagName === "TEXTAREA") {
      const newline = target.tagName === "TEXTAREA" && event.shiftKey;
      if (event.key === "Enter" && !event.ctrlKey && !newline) {
        event.preventDefault();
        target.blur();
        root.current?.focus();
      } else if (event.key === "Escape") {
        target.blur();
        root.current?.focus();
      }
      if (!(event.key === "Enter" && event.ctrlKey)) return;
    }
    const key = event.key;
    if (key === "?") setHelp((h) => !h);
    else if (key === "Escape") { setHelp(false); setDrawing(null); setTable(null); }
    else if (table && key === "Enter") { event.preventDefault(); makeTable(); }
    else if ((key === "j" || key === "J" || key === "k" || key === "K") && skus.length) {
      const to = Math.max(0, Math.min(skus.length - 1, selected + (key.toLowerCase() === "j" ? 1 : -1)));
      if (event.shiftKey) setPicked(new Set([...picked, skus[selected].key, skus[to].key]));
      setSelected(to);
    } else if (key === "+" || key === "=") setZoom((z) => zoomed(z, 1));
    else if (key === "-") setZoom((z) => zoomed(z, -1));
    else if (key === "t" || key === "T") setDrawing("table");
    else if (key === "e" || key === "E") {
      event.preventDefault();
      editor.current?.querySelector<HTMLElement>("input, textarea")?.focus();
    } else if (["0", "1", "2", "3"].includes(key) && skus[selected]) {
      const sku = skus[selected];
      const image = key === "0" ? null : sku.candidates[Number(key) - 1];
      if (image !== undefined) update(selected, { image_id: image });
    } else if (key === "n" || key === "N") setDrawing("sku");
    else if (key === "i" || key === "I") setDrawing("image");
    else if (key === "a" && event.ctrlKey) {
      event.preventDefault();
      setPicked(new Set(skus.map((s) => s.key)));
    } else if ((key === "Delete" || key === "x" || key === "X") && picked.size > 1) keepPicked(false);
    else if ((key === "Delete" || key === "x" || key === "X") && skus.length) {
      setSkus((all) => all.filter((_, i) => i !== selected));
      setSelected((s) => Math.max(0, Math.min(s, skus.length - 2)));
    } else if (key === "Enter" && event.ctrlKey) {
      event.preventDefault();
      approve();
    } else if (key === "s" || key === "S") skip();
    else if (key === "r" || key === "R") void finish("release");
    else if (key === "l" || key === "L") onLang();
  }, [skus, selected, picked, table, makeTable, finish, approve, skip, onLang]);

  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onKey]);

  const drawn = (bbox: BBox) => {
    if (drawing === "table") {
      setTable(newTable(bbox, words));
    } else if (drawing === "image") {
      const key = `picture-${newImages.length + 1}`;
      setNewImages((all) => [...all, { key, bbox }]);
      if (skus[selected]) update(selected, { image_id: key });
    } else {
      setSkus((all) => [...all, { key: `new-${Date.now()}`, sku_id: null, attributes: {}, custom: [], bbox,
                                  image_id: null, candidates: [] }]);
      setSelected(skus.length);
      setFocusEditor(true);
    }
    setDrawing(null);
  };

  useEffect(() => {  // a drawn SKU is typed into at once: its first field takes the focus once rendered
    if (!focusEditor) return;
    editor.current?.querySelector<HTMLElement>("input, textarea")?.focus();
    setFocusEditor(false);
  }, [focusEditor, skus]);

  const sku = skus[selected];
  return (
    <div className="workbench" ref={root} tabIndex={-1}>
      <header>
        <strong>{t(lang, "title")}</strong>
        {open && <span data-testid="task-title" data-task={open.task.task_id}>{open.task.task_type} · {t(lang, "page")} {open.task.page}
          · {open.task.job_id.slice(0, 8)}</span>}
        <span className="who">{session.username}</span>
        <button onClick={onLang}>{lang === "en" ? "中文" : "English"}</button>
        <button onClick={() => setHelp(true)}>?</button>
        <button onClick={() => onSignOut(false)}>{t(lang, "logout")}</button>
      </header>
      {!open && message && <p className="message" role="status">{message}</p>}
      {!open && <p className="notice" data-testid="notice">{notice}</p>}
      {open && (
        <main>
          <aside className="context">
            {open.previous && <figure><img src={open.previous} alt={t(lang, "previous")} />
              <figcaption>{t(lang, "previous")}</figcaption></figure>}
            {open.next && <figure><img src={open.next} alt={t(lang, "next")} />
              <figcaption>{t(lang, "next")}</figcaption></figure>}
          </aside>
          <section className="canvas-wrap">
            <div className="zoom">
              <button data-testid="zoom-out" title={t(lang, "zoomOut")} onClick={() => setZoom((z) => zoomed(z, -1))}>−</button>
              <span data-testid="zoom">{Math.round(zoom * 100)}%</span>
              <button data-testid="zoom-in" title={t(lang, "zoomIn")} onClick={() => setZoom((z) => zoomed(z, 1))}>+</button>
              <button data-testid="table-mode" onClick={() => setDrawing("table")}>{t(lang, "tableTool")} (T)</button>
              {drawing && <span className="hint">{t(lang, drawing === "image" ? "drawImageHint"
                : drawing === "table" ? "drawTableHint" : "drawHint")}</span>}
            </div>
            {open.task.page_size && open.picture && (
              <PageCanvas picture={zoom >= SHARP_FROM && open.sharp ? open.sharp : open.picture}
                          pageSize={open.task.page_size} skus={skus}
                          images={[...(open.task.result?.images ?? []),
                                   ...newImages.map((d) => ({ image_id: d.key, bbox: d.bbox, role: "PRODUCT_MAIN" }))]}
                          blocks={open.task.text_blocks ?? []} selected={selected} picked={picked} mode={drawing}
                          zoom={zoom} table={table} tableRows={tableRows} onZoom={setZoom}
                          onSelect={(i) => { setPicked(new Set()); setSelected(i); }} onDrawn={drawn}
                          onPick={(keys) => setPicked(new Set(keys))}
                          onCuts={(cuts) => setTable((tb) => (tb ? withCuts(tb, cuts) : tb))} />)}
          </section>
          <section className="side">
            {message && <p className="message" role="status" data-testid="message">{message}</p>}
            <div className="reason" data-testid="reasons"><b>{t(lang, "reason")}:</b>
              {open.task.reasons?.length ? (
                <ul>{open.task.reasons.map((r, i) => (
                  <li key={i}>{r[lang]} <code title={r.detail ?? undefined}>{r.code}</code></li>))}</ul>)
                : <span> {open.task.reason}</span>}
            </div>
            {open.task.rework && <ReworkNote lang={lang} rework={open.task.rework} />}
            <Adaptation lang={lang} task={open.task} />
            {Object.keys(open.task.doc_global_attributes ?? {}).length > 0 && (
              <p className="document" data-testid="document"><b>{t(lang, "document")}:</b>{" "}
                {Object.entries(open.task.doc_global_attributes).map(([k, v]) => `${k}: ${v}`).join(" · ")}</p>)}
            <h2>{t(lang, "skus")} ({skus.length})</h2>
            <SkuList skus={skus} selected={selected} picked={picked} onClick={clicked} />
            {table && <TableTool lang={lang} table={table} rows={tableRows.length} onChange={setTable}
                                 onApply={makeTable} onCancel={() => setTable(null)} />}
            {!table && picked.size > 1 && (
              <BulkEditor lang={lang} count={picked.size} onDelete={() => keepPicked(false)}
                          onKeepOnly={() => keepPicked(true)} onClear={() => setPicked(new Set())}
                          onChange={(change) => setSkus((all) => all.map((s) => (picked.has(s.key) ? change(s) : s)))} />)}
            {!table && sku && <SkuEditor ref={editor} lang={lang} sku={sku} onChange={(change) => update(selected, change)} />}
            <div className="actions">
              <button data-testid="approve" onClick={approve}>
                {t(lang, "approve")} (Ctrl+Enter)</button>
              <button onClick={skip}>
                {t(lang, "skip")} (S)</button>
              <button onClick={() => void finish("release")}>{t(lang, "release")} (R)</button>
              <button data-testid="start-over" onClick={startOver}>{t(lang, "startOver")}</button>
            </div>
          </section>
        </main>)}
      {help && (
        <div className="overlay" data-testid="shortcuts" onClick={() => setHelp(false)}>
          <div>
            <h2>{t(lang, "shortcuts")}</h2>
            <table><tbody>{SHORTCUTS.map((s) => (
              <tr key={s.keys}><th>{s.keys}</th><td>{s.what[lang]}</td></tr>))}</tbody></table>
          </div>
        </div>)}
    </div>
  );
}
