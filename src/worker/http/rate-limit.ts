import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-types.ts';
import { clientAddress } from './client-address.ts';
import type { RateDecision, RateRule } from '../objects/rate-limiter.ts';

/** Per-action weight of RATE_LIMIT_PER_MINUTE: a login costs less than a new workspace. */
const ACTION_SHARE = { login: 1, createWorkspace: 1, createPrinter: 2 } as const;

/** Every address together may use this many times one address's rate (bounds a spoofing client too). */
const GLOBAL_FACTOR = 20;

export type RateAction = keyof typeof ACTION_SHARE;

export function rateRule(action: RateAction, perMinute: number, scope: 'address' | 'global'): RateRule {
  const n = perMinute * ACTION_SHARE[action] * (scope === 'global' ? GLOBAL_FACTOR : 1);
  return { burst: n, perMinute: n };
}

async function take(env: AppEnv['Bindings'], name: string, rule: RateRule): Promise<RateDecision> {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name)).take(rule);
}

/**
 * Per-client-address limits on the routes anyone can reach without a workspace of their own
 * (docs/contract/extensions.md "Limits"): guessing tokens at login, creating workspaces and printers (each
 * printer takes a port for good). A second, global bucket per action bounds the total, because
 * `wrangler dev` believes a client's own CF-Connecting-IP header (Cloudflare's edge does not).
 * Over either: 429 problem+json with Retry-After.
 */
export function rateLimited(action: RateAction): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { rateLimitPerMinute, trustProxy } = c.get('settings');
    const address = clientAddress(c.req.raw, trustProxy);
    const [own, all] = await Promise.all([
      take(c.env, `${action}:${address}`, rateRule(action, rateLimitPerMinute, 'address')),
      take(c.env, `${action}:*`, rateRule(action, rateLimitPerMinute, 'global')),
    ]);
    const refused = !own.allowed ? own : !all.allowed ? all : null;
    if (refused && !refused.allowed) {
      const body = {
        type: 'https://httpstatuses.io/429',
        title: 'Too Many Requests',
        status: 429,
        detail: `Too many requests${own.allowed ? '' : ` from ${address}`}; try again in ${refused.retryAfterSeconds} s`,
        instance: new URL(c.req.url).pathname,
      };
      return new Response(JSON.stringify(body), {
        status: 429,
        headers: { 'content-type': 'application/problem+json', 'retry-after': String(refused.retryAfterSeconds) },
      });
    }
    await next();
  };
}
