// The annotator's login: tokens kept for the tab (sessionStorage), renewed silently with the refresh
// token when the access token runs out, so an hour's work is never cut by a login screen. A refresh
// token is good for one use: concurrent calls that meet an expired token share one refresh.
export type Session = {
  token: string; refreshToken: string | null; username: string; roles: string[]; merchant_id: string;
};

const KEY = "skuflow.session";

export class Unauthorized extends Error {}

export function currentSession(): Session | null {
  const raw = sessionStorage.getItem(KEY);
  return raw ? (JSON.parse(raw) as Session) : null;
}

export function keepSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}

let gateway: Promise<string> | null = null;

export function gatewayUrl(): Promise<string> {
  gateway ??= fetch("/workbench/config.json")
    .then((response) => response.json() as Promise<{ gateway_url: string }>)
    .then((config) => config.gateway_url);
  return gateway;
}

type Tokens = {
  access_token: string; refresh_token: string; username: string; roles: string[]; merchant_id: string;
};

function fromTokens(body: Tokens): Session {
  return { token: body.access_token, refreshToken: body.refresh_token, username: body.username,
           roles: body.roles, merchant_id: body.merchant_id };
}

async function authCall(path: string, body: unknown): Promise<Response> {
  return fetch(`${await gatewayUrl()}/api/v1/auth/${path}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
}

export async function login(username: string, password: string): Promise<Session> {
  const response = await authCall("login", { username, password });
  if (!response.ok) throw new Unauthorized(await response.text());
  const session = fromTokens(await response.json());
  keepSession(session);
  return session;
}

let refreshing: Promise<Session> | null = null;

/** New tokens for the tab's login; Unauthorized when the login has ended (log in again). */
export function refresh(): Promise<Session> {
  refreshing ??= (async () => {
    try {
      const session = currentSession();
      if (!session?.refreshToken) throw new Unauthorized("no refresh token");
      const response = await authCall("refresh", { refresh_token: session.refreshToken });
      if (!response.ok) throw new Unauthorized("the login has ended");
      const renewed = fromTokens(await response.json());
      keepSession(renewed);
      return renewed;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}
