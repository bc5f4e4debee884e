// The annotator's workbench: log in, take the next task, correct the page, approve, and the next
// task (fetched and its picture preloaded while this one was open) is already there.
import { useCallback, useEffect, useRef, useState } from "react";
import { Api, Conflict, login, Unauthorized, type BBox, type Session, type Task } from "./api";
import { FIELDS, fromResult, toCorrections, type DrawnImage, type EditSku, type Field } from "./edits";
import { t, SHORTCUTS, type Lang } from "./i18n";
import { PageCanvas } from "./PageCanvas";
import { SkuList } from "./SkuList";

const HEARTBEAT_MS = 60_000;
const IDLE_POLL_MS = 5_000;

function storedSession(): Session | null {
  const raw = sessionStorage.getItem("skuflow.session");
  return raw ? (JSON.parse(raw) as Session) : null;
}

export function App() {
  const [lang, setLang] = useState<Lang>((localStorage.getItem("skuflow.lang") as Lang) || "en");
  const [session, setSession] = useState<Session | null>(storedSession);
  const switchLang = useCallback(() => setLang((l) => {
    const next = l === "en" ? "zh" : "en";
    localStorage.setItem("skuflow.lang", next);
    return next;
  }), []);
  const signOut = useCallback(() => { sessionStorage.removeItem("skuflow.session"); setSession(null); }, []);
  if (!session) {
    return <Login lang={lang} onLang={switchLang} onSession={(s) => {
      sessionStorage.setItem("skuflow.session", JSON.stringify(s));
      setSession(s);
    }} />;
  }
  return <Workbench lang={lang} onLang={switchLang} session={session} onSignOut={signOut} />;
}

function Login({ lang, onLang, onSession }: { lang: Lang; onLang: () => void; onSession: (s: Session) => void }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [failed, setFailed] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      onSession(await login(username, password));
    } catch {
      setFailed(true);
    }
  };
  return (
    <form className="login" onSubmit={submit}>
      <h1>{t(lang, "title")}</h1>
      <label>{t(lang, "username")}<input name="username" autoFocus value={username}
                                         onChange={(e) => setUsername(e.target.value)} /></label>
      <label>{t(lang, "password")}<input name="password" type="password" value={password}
                                         onChange={(e) => setPassword(e.target.value)} /></label>
      {failed && <p className="error" role="alert">{t(lang, "loginFailed")}</p>}
      <button type="submit">{t(lang, "login")}</button>
      <button type="button" className="lang" onClick={onLang}>{lang === "en" ? "中文" : "English"}</button>
    </form>
  );
}

type Open = { task: Task; picture: string; previous: string | null; next: string | null };

function Workbench({ lang, onLang, session, onSignOut }:
                   { lang: Lang; onLang: () => void; session: Session; onSignOut: () => void }) {
  const api = useRef(new Api(session)).current;
  const [open, setOpen] = useState<Open | null>(null);
  const [skus, setSkus] = useState<EditSku[]>([]);
  const [selected, setSelected] = useState(0);
  const [drawing, setDrawing] = useState<"sku" | "image" | null>(null);
  const [newImages, setNewImages] = useState<DrawnImage[]>([]);
  const [help, setHelp] = useState(false);
  const [focusEditor, setFocusEditor] = useState(false);
  const [notice, setNotice] = useState<string>(t(lang, "loading"));
  const preloaded = useRef<Map<string, string>>(new Map());
  const editor = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);

  const failed = useCallback((error: unknown) => {
    if (error instanceof Unauthorized) onSignOut();
    else setNotice(error instanceof Conflict ? t(lang, "lockLost") : String(error));
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

  const take = useCallback(async () => {
    setOpen(null);
    for (;;) {
      const task = await api.next();
      if (task === null) { setNotice(t(lang, "noTask")); return false; }
      try { await api.act(task.task_id, "lock"); } catch (e) { if (e instanceof Conflict) continue; throw e; }
      const detail = await api.task(task.task_id);
      const picture = preloaded.current.get(task.task_id)
        ?? (detail.page_image_url ? await api.picture(detail.page_image_url) : "");
      preloaded.current.delete(task.task_id);
      const [previous, next] = await Promise.all([detail.context_pages.previous, detail.context_pages.next]
        .map((url) => (url ? api.picture(url) : Promise.resolve(null))));
      setSkus(detail.result ? fromResult(detail.result) : []);
      setNewImages([]);
      setSelected(0);
      setDrawing(null);
      setOpen({ task: detail, picture, previous, next });
      void preloadNext(detail.task_id);
      return true;
    }
  }, [api, lang, preloadNext]);

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

  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => api.act(open.task.task_id, "heartbeat").catch(failed), HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [api, open, failed]);

  const finish = useCallback(async (action: "complete" | "skip" | "release", body?: unknown) => {
    if (!open) return;
    try {
      await api.act(open.task.task_id, action, body);
      setNotice(t(lang, "saved"));
      if (!(await take())) setTimeout(() => void take().catch(failed), IDLE_POLL_MS);
    } catch (e) { failed(e); }
  }, [api, open, lang, take, failed]);

  const approve = useCallback(() => void finish("complete", toCorrections(skus, newImages)),
                              [finish, skus, newImages]);
  const skip = useCallback(() => {
    const reason = window.prompt(t(lang, "skipReason"));
    if (reason) void finish("skip", { reason });
  }, [finish, lang]);

  const update = (index: number, change: Partial<EditSku>) =>
    setSkus((all) => all.map((s, i) => (i === index ? { ...s, ...change } : s)));

  const onKey = useCallback((event: KeyboardEvent) => {
    const typing = (event.target as HTMLElement).tagName === "INPUT";
    if (typing) {
      if (event.key === "Enter" && !event.ctrlKey) {
        event.preventDefault();
        (event.target as HTMLInputElement).blur();
        root.current?.focus();
      } else if (event.key === "Escape") {
        (event.target as HTMLInputElement).blur();
        root.current?.focus();
      }
      if (!(event.key === "Enter" && event.ctrlKey)) return;
    }
    const key = event.key;
    if (key === "?") setHelp((h) => !h);
    else if (key === "Escape") { setHelp(false); setDrawing(null); }
    else if (key === "j" || key === "J") setSelected((s) => Math.min(s + 1, skus.length - 1));
    else if (key === "k" || key === "K") setSelected((s) => Math.max(s - 1, 0));
    else if (key === "e" || key === "E") {
      event.preventDefault();
      editor.current?.querySelector<HTMLInputElement>("input")?.focus();
    } else if (["0", "1", "2", "3"].includes(key) && skus[selected]) {
      const sku = skus[selected];
      const image = key === "0" ? null : sku.candidates[Number(key) - 1];
      if (image !== undefined) update(selected, { image_id: image });
    } else if (key === "n" || key === "N") setDrawing("sku");
    else if (key === "i" || key === "I") setDrawing("image");
    else if ((key === "Delete" || key === "x" || key === "X") && skus.length) {
      setSkus((all) => all.filter((_, i) => i !== selected));
      setSelected((s) => Math.max(0, Math.min(s, skus.length - 2)));
    } else if (key === "Enter" && event.ctrlKey) {
      event.preventDefault();
      approve();
    } else if (key === "s" || key === "S") skip();
    else if (key === "r" || key === "R") void finish("release");
    else if (key === "l" || key === "L") onLang();
  }, [skus, selected, finish, approve, skip, onLang]);

  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onKey]);

  const drawn = (bbox: BBox) => {
    if (drawing === "image") {
      const key = `picture-${newImages.length + 1}`;
      setNewImages((all) => [...all, { key, bbox }]);
      if (skus[selected]) update(selected, { image_id: key });
    } else {
      setSkus((all) => [...all, { key: `new-${Date.now()}`, sku_id: null, attributes: {}, custom: "", bbox,
                                  image_id: null, candidates: [] }]);
      setSelected(skus.length);
      setFocusEditor(true);
    }
    setDrawing(null);
  };

  useEffect(() => {  // a drawn SKU is typed into at once: its first field takes the focus once rendered
    if (!focusEditor) return;
    editor.current?.querySelector<HTMLInputElement>("input")?.focus();
    setFocusEditor(false);
  }, [focusEditor, skus]);

  const sku = skus[selected];
  return (
    <div className="workbench" ref={root} tabIndex={-1}>
      <header>
        <strong>{t(lang, "title")}</strong>
        {open && <span data-testid="task-title">{open.task.task_type} · {t(lang, "page")} {open.task.page}
          · {open.task.job_id.slice(0, 8)}</span>}
        <span className="who">{session.username}</span>
        <button onClick={onLang}>{lang === "en" ? "中文" : "English"}</button>
        <button onClick={() => setHelp(true)}>?</button>
        <button onClick={onSignOut}>{t(lang, "logout")}</button>
      </header>
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
            {drawing && <p className="hint">{t(lang, drawing === "image" ? "drawImageHint" : "drawHint")}</p>}
            {open.task.page_size && open.picture && (
              <PageCanvas picture={open.picture} pageSize={open.task.page_size} skus={skus}
                          images={[...(open.task.result?.images ?? []),
                                   ...newImages.map((d) => ({ image_id: d.key, bbox: d.bbox, role: "PRODUCT_MAIN" }))]}
                          blocks={open.task.text_blocks ?? []} selected={selected} drawing={drawing !== null}
                          onSelect={setSelected} onDrawn={drawn} />)}
          </section>
          <section className="side">
            <p className="reason"><b>{t(lang, "reason")}:</b> {open.task.reason}</p>
            {Object.keys(open.task.doc_global_attributes ?? {}).length > 0 && (
              <p className="document" data-testid="document"><b>{t(lang, "document")}:</b>{" "}
                {Object.entries(open.task.doc_global_attributes).map(([k, v]) => `${k}: ${v}`).join(" · ")}</p>)}
            <h2>{t(lang, "skus")} ({skus.length})</h2>
            <SkuList skus={skus} selected={selected} onSelect={setSelected} />
            {sku && (
              <div className="editor" ref={editor} data-testid="editor">
                {FIELDS.map((field: Field) => (
                  <label key={field}>{t(lang, field)}
                    <input name={field} value={sku.attributes[field] ?? ""}
                           onChange={(e) => update(selected, { attributes: { ...sku.attributes, [field]: e.target.value } })} />
                  </label>))}
                <label>{t(lang, "custom")}
                  <input name="custom" value={sku.custom} onChange={(e) => update(selected, { custom: e.target.value })} />
                </label>
                <div className="candidates" data-testid="candidates">
                  <span>{t(lang, "candidates")}</span>
                  {sku.candidates.map((id, i) => (
                    <button key={id} className={sku.image_id === id ? "bound" : ""}
                            onClick={() => update(selected, { image_id: id })}>{i + 1}: {id}</button>))}
                  <span data-testid="bound-image">{t(lang, "image")}: {sku.image_id ?? "—"}</span>
                </div>
              </div>)}
            <div className="actions">
              <button data-testid="approve" onClick={approve}>
                {t(lang, "approve")} (Ctrl+Enter)</button>
              <button onClick={skip}>
                {t(lang, "skip")} (S)</button>
              <button onClick={() => void finish("release")}>{t(lang, "release")} (R)</button>
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
