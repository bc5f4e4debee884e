// The login form of the workbench and the ops page: one login at the gateway, kept for the tab.
import { useState } from "react";
import { t, type Lang } from "./i18n";
import { login, type Session } from "./session";

type Props = { title: string; lang: Lang; onLang: () => void; ended: boolean; onSession: (s: Session) => void };

export function Login({ title, lang, onLang, ended, onSession }: Props) {
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
      <h1>{title}</h1>
      {ended && <p className="notice-inline" data-testid="session-ended">{t(lang, "sessionEnded")}</p>}
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
