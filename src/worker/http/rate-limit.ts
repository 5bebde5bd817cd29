import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-types.ts';
import { clientAddress } from './client-address.ts';
import type { RateDecision, RateRule } from '../objects/rate-limiter.ts';

/** Per-action weight of RATE_LIMIT_PER_MINUTE: a login costs less than a new workspace. */
const ACTION_SHARE = { login: 1, createWorkspace: 1, createPrinter: 2 } as const;

/** Every caller together may use this many times one caller's rate before load is shed. */
const GLOBAL_FACTOR = 20;

/**
 * A caller that made at most this many requests of the action lately (its bucket is that close
 * to full) is quiet: the global bucket never refuses it, so whoever drains the global bucket
 * (a client varying its address) cannot lock out a first login from anyone else.
 */
export const QUIET_REQUESTS = 3;

export type RateAction = keyof typeof ACTION_SHARE;

/**
 * Who a bucket belongs to: the client address for the anonymous routes (login, workspace
 * creation), the workspace for authenticated ones (a workspace creating printers never uses up
 * another's allowance, even from the same address).
 */
const SCOPE: Record<RateAction, 'address' | 'workspace'> = { login: 'address', createWorkspace: 'address', createPrinter: 'workspace' };

export function rateRule(action: RateAction, perMinute: number, scope: 'caller' | 'global'): RateRule {
  const n = perMinute * ACTION_SHARE[action] * (scope === 'global' ? GLOBAL_FACTOR : 1);
  return { burst: n, perMinute: n };
}

async function take(env: AppEnv['Bindings'], name: string, rule: RateRule): Promise<RateDecision> {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name)).take(rule);
}

/**
 * Rate limits (extensions.md "Limits"): each caller (address, or workspace) has its own token
 * bucket per action; over it, 429 problem+json with Retry-After naming the address. A global
 * bucket per action sheds load when all callers together go over GLOBAL_FACTOR times one
 * caller's rate, and only for callers that are not quiet (QUIET_REQUESTS).
 */
export function rateLimited(action: RateAction): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { rateLimitPerMinute, trustProxy } = c.get('settings');
    const address = clientAddress(c.req.raw, trustProxy);
    const caller = SCOPE[action] === 'workspace' ? `workspace ${c.get('caller').workspace.id}` : address;
    const callerRule = rateRule(action, rateLimitPerMinute, 'caller');
    const own = await take(c.env, `${action}:${caller}`, callerRule);
    const quiet = own.allowed && own.remaining >= callerRule.burst - QUIET_REQUESTS;
    const all = !own.allowed || quiet ? null : await take(c.env, `${action}:*`, rateRule(action, rateLimitPerMinute, 'global'));
    const refused = !own.allowed ? own : all && !all.allowed ? all : null;
    if (refused && !refused.allowed) {
      const body = {
        type: 'https://httpstatuses.io/429',
        title: 'Too Many Requests',
        status: 429,
        detail: own.allowed
          ? `The service is busy; try again in ${refused.retryAfterSeconds} s`
          : `Too many requests from ${caller}; try again in ${refused.retryAfterSeconds} s`,
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
