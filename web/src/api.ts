/**
 * Client of the public HTTP API. Every call carries `Authorization: Bearer` and
 * `X-Client: web`; the access token is renewed from the stored workspace token when it is
 * about to expire or the server answers 401. Failures become `ApiError` with a sentence a
 * person can read.
 */
import type { LoginResponseDto, WorkspaceDto } from './types.ts';

const KEY_WORKSPACE_TOKEN = 'slipstream.workspaceToken';
const KEY_ACCESS_TOKEN = 'slipstream.accessToken';
const KEY_EXPIRES_AT = 'slipstream.accessTokenExpiresAt';

export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly fieldErrors: Record<string, string[]> = {}) {
    super(message);
    this.name = 'ApiError';
  }
}

const STATUS_WORDS: Record<number, string> = {
  400: 'The server refused the request as invalid',
  401: 'You are not signed in (or your sign-in expired)',
  403: 'This workspace is not allowed to do that',
  404: 'Not found: it may have been deleted',
  409: 'That conflicts with the current state',
  413: 'That is too large for the server',
  500: 'The server failed to do that',
  501: 'The server does not implement that yet',
  502: 'The server is unreachable (bad gateway)',
  503: 'The server is unavailable right now',
};

async function errorFrom(res: Response, what: string): Promise<ApiError> {
  let detail = '';
  let fieldErrors: Record<string, string[]> = {};
  try {
    const text = await res.text();
    if (text) {
      try {
        const body = JSON.parse(text) as { detail?: string; title?: string; errors?: Record<string, string[] | string> };
        detail = body.detail || body.title || '';
        if (body.errors && typeof body.errors === 'object') {
          for (const [k, v] of Object.entries(body.errors)) fieldErrors[k] = Array.isArray(v) ? v.map(String) : [String(v)];
        }
      } catch {
        detail = text.length < 300 ? text : '';
      }
    }
  } catch { /* body unreadable */ }
  const fields = Object.entries(fieldErrors)
    .map(([k, v]) => [k, v.filter((m) => !detail.includes(m))] as const)
    .filter(([, v]) => v.length > 0)
    .map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ');
  const base = STATUS_WORDS[res.status] ?? `The server answered ${res.status} ${res.statusText}`;
  const parts = [detail || base];
  if (fields && !detail.includes(fields)) parts.push(fields);
  return new ApiError(`${what} failed: ${parts.join(' — ')} (HTTP ${res.status}).`, res.status, fieldErrors);
}

type Listener = () => void;

class Api {
  workspaceToken: string | null = null;
  accessToken: string | null = null;
  expiresAt = 0;
  workspace: WorkspaceDto | null = null;
  /** Why the last sign-out happened when it was not the person's choice (shown on the start page). */
  signOutReason: string | null = null;
  private listeners = new Set<Listener>();
  private renewing: Promise<void> | null = null;

  constructor() {
    try {
      this.workspaceToken = localStorage.getItem(KEY_WORKSPACE_TOKEN);
      this.accessToken = localStorage.getItem(KEY_ACCESS_TOKEN);
      this.expiresAt = Number(localStorage.getItem(KEY_EXPIRES_AT) ?? 0) || 0;
    } catch { /* storage unavailable: session only */ }
  }

  get signedIn(): boolean {
    return !!(this.accessToken || this.workspaceToken);
  }

  onAuthChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }

  private store(): void {
    try {
      const set = (k: string, v: string | null) => (v === null ? localStorage.removeItem(k) : localStorage.setItem(k, v));
      set(KEY_WORKSPACE_TOKEN, this.workspaceToken);
      set(KEY_ACCESS_TOKEN, this.accessToken);
      set(KEY_EXPIRES_AT, this.accessToken ? String(this.expiresAt) : null);
    } catch { /* ignore */ }
  }

  private async fetchRaw(method: string, path: string, init: { body?: BodyInit; json?: unknown; auth: boolean; what: string }): Promise<Response> {
    const headers: Record<string, string> = { 'X-Client': 'web', Accept: 'application/json' };
    if (init.auth && this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    try {
      return await fetch(path, { method, headers, body, credentials: 'same-origin' });
    } catch (e) {
      throw new ApiError(`${init.what} failed: the Slipstream server could not be reached (${(e as Error).message || 'network error'}).`, 0);
    }
  }

  /** Exchanges the workspace token for an access token and sets the stream/media cookie. */
  async login(workspaceToken: string): Promise<WorkspaceDto> {
    const token = workspaceToken.trim();
    if (!token) throw new ApiError('Enter a workspace token to sign in.', 0);
    const res = await this.fetchRaw('POST', '/api/auth/login', { json: { token }, auth: false, what: 'Signing in' });
    if (res.status === 401) throw new ApiError('Signing in failed: that workspace token is not known to this server.', 401);
    if (!res.ok) throw await errorFrom(res, 'Signing in');
    const body = (await res.json()) as LoginResponseDto;
    this.workspaceToken = token;
    this.accessToken = body.accessToken;
    this.expiresAt = Date.now() + Math.max(60, Number(body.expiresInSeconds) || 3600) * 1000;
    this.workspace = body.workspace;
    this.store();
    await this.sessionCookie();
    this.emit();
    return body.workspace;
  }

  /** Sets the HttpOnly cookie that EventSource and <img> use in place of the header. */
  async sessionCookie(): Promise<void> {
    const res = await this.fetchRaw('POST', '/api/auth/session-cookie', { auth: true, what: 'Setting the session cookie' });
    if (!res.ok) throw await errorFrom(res, 'Setting the session cookie');
  }

  /** Renews the access token (and cookie) from the workspace token, once at a time. */
  async renew(): Promise<void> {
    if (!this.workspaceToken) {
      this.signOutLocal('Your sign-in expired. Sign in again with the workspace token.');
      throw new ApiError('Your sign-in expired. Sign in again with the workspace token.', 401);
    }
    if (!this.renewing) {
      const token = this.workspaceToken;
      this.renewing = this.login(token)
        .then(() => undefined)
        .catch((e) => {
          if (e instanceof ApiError && e.status === 401) this.signOutLocal('The saved workspace token is no longer accepted (was the workspace deleted?). Sign in again.');
          throw e;
        })
        .finally(() => { this.renewing = null; });
    }
    return this.renewing;
  }

  /** Makes sure the access token is valid for at least another minute. */
  async ensureFresh(): Promise<void> {
    if (!this.accessToken || Date.now() > this.expiresAt - 60_000) await this.renew();
  }

  async request<T>(method: string, path: string, what: string, opts: { json?: unknown; body?: BodyInit; anonymous?: boolean } = {}): Promise<T> {
    const auth = !opts.anonymous;
    if (auth) await this.ensureFresh();
    let res = await this.fetchRaw(method, path, { json: opts.json, body: opts.body, auth, what });
    if (res.status === 401 && auth && this.workspaceToken) {
      await this.renew();
      res = await this.fetchRaw(method, path, { json: opts.json, body: opts.body, auth, what });
    }
    if (!res.ok) {
      const err = await errorFrom(res, what);
      if (res.status === 401 && auth) this.signOutLocal('The server no longer accepts your sign-in. Sign in again with the workspace token.');
      throw err;
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      return text as unknown as T;
    }
  }

  get<T>(path: string, what: string) { return this.request<T>('GET', path, what); }
  post<T>(path: string, what: string, json?: unknown) { return this.request<T>('POST', path, what, { json }); }
  put<T>(path: string, what: string, json?: unknown) { return this.request<T>('PUT', path, what, { json }); }
  patch<T>(path: string, what: string, json?: unknown) { return this.request<T>('PATCH', path, what, { json }); }
  del<T>(path: string, what: string) { return this.request<T>('DELETE', path, what); }

  signOutLocal(reason: string | null = null): void {
    const was = this.signedIn;
    this.signOutReason = reason;
    this.workspaceToken = null;
    this.accessToken = null;
    this.expiresAt = 0;
    this.workspace = null;
    this.store();
    if (was) this.emit();
  }

  async signOut(): Promise<void> {
    if (this.accessToken && Date.now() < this.expiresAt) {
      try { await this.fetchRaw('POST', '/api/auth/logout', { auth: true, what: 'Signing out' }); } catch { /* stateless anyway */ }
    }
    this.signOutLocal();
  }
}

export const api = new Api();
