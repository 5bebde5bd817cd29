/**
 * The workspace webhook's routes (extensions.md): PUT answers the secret once, GET shows the
 * delivery figures, DELETE removes it; bad URLs are 400. Delivery itself (queue, signature,
 * retries against a real HTTP receiver) is tested end to end in test/e2e/webhooks.test.ts.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { call, expectJson, expectProblem, expectStatus, newWorkspace, type Ws } from './helpers.ts';
import { consumeWebhookBatch, documentReadyMessage, retryDelaySeconds, signatureOf, type WebhookMessage } from '../../src/worker/services/webhooks.ts';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import type { Env } from '../../src/worker/env.ts';
import { env } from './helpers.ts';

let ws: Ws;
beforeAll(async () => {
  ws = await newWorkspace();
});

const hook = (method: string, json?: unknown, token = ws.accessToken) => call('/api/workspaces/webhook', { method, token, json });

describe('/api/workspaces/webhook', () => {
  it('PUT sets it and shows the signing secret once; GET shows it without; DELETE removes it', async () => {
    await expectStatus(await hook('GET'), 204);
    const put = await expectJson(await hook('PUT', { url: 'https://example.com/hooks/slipstream' }));
    expect(put).toMatchObject({ url: 'https://example.com/hooks/slipstream', isEnabled: true, lastDeliveryAt: null, lastDeliveryStatus: null });
    expect(put.signingSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const got = await expectJson(await hook('GET'));
    expect(got).toEqual({ url: 'https://example.com/hooks/slipstream', isEnabled: true, lastDeliveryAt: null, lastDeliveryStatus: null });
    const again = await expectJson(await hook('PUT', { URL: 'http://hooks.example.net:9/other' }));
    expect(again.signingSecret).not.toBe(put.signingSecret);
    expect(again.url).toBe('http://hooks.example.net:9/other');
    // Another workspace sees none.
    const other = await newWorkspace();
    await expectStatus(await hook('GET', undefined, other.accessToken), 204);
    await expectStatus(await hook('DELETE'), 204);
    await expectStatus(await hook('GET'), 204);
    await expectProblem(await hook('DELETE'), 404);
  });

  it('refuses URLs that are not http(s) and unauthenticated calls', async () => {
    await expectProblem(await hook('PUT', { url: 'ftp://example.com/x' }), 400);
    await expectProblem(await hook('PUT', { url: 'not a url' }), 400);
    await expectProblem(await hook('PUT', {}), 400);
    await expectProblem(await call('/api/workspaces/webhook'), 401);
  });
});

describe('signature and backoff', () => {
  it('signs with HMAC-SHA256 (RFC 4231 test case 2)', async () => {
    expect(await signatureOf('Jefe', 'what do ya want for nothing?')).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('doubles the delay from the base, capped at an hour', () => {
    expect([1, 2, 3, 4].map((a) => retryDelaySeconds(30, a))).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(30, 30)).toBe(3600);
  });
});

describe('the queue consumer in workerd', () => {
  const message = (workspaceId: string, ageMs = 0): WebhookMessage => {
    const m = documentReadyMessage({ workspaceId, printerId: crypto.randomUUID(), documentId: crypto.randomUUID(), timestamp: new Date().toISOString(), bytesReceived: 3, text: 'Hi' });
    return { ...m, enqueuedAt: m.enqueuedAt - ageMs };
  };

  it('retries an unanswered delivery with the backoff delay, gives up after 24 hours, drops messages of workspaces without a webhook', async () => {
    const withHook = await newWorkspace();
    // A name that never resolves (RFC 6761): no answer (status 0).
    await expectJson(await hook('PUT', { url: 'http://receiver.invalid:1/hook' }, withHook.accessToken));
    const without = await newWorkspace();
    const batch = createMessageBatch<WebhookMessage>('slipstream-webhooks', [
      { id: 'fresh', timestamp: new Date(), attempts: 3, body: message(withHook.id) },
      { id: 'old', timestamp: new Date(), attempts: 30, body: message(withHook.id, 25 * 3600_000) },
      { id: 'nohook', timestamp: new Date(), attempts: 1, body: message(without.id) },
    ]);
    const ctx = createExecutionContext();
    // getQueueResult records which messages were retried, not their delay: watch the call.
    const retry = vi.spyOn(batch.messages[0], 'retry');
    await consumeWebhookBatch(batch, env as unknown as Env);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(['fresh']);
    expect(retry).toHaveBeenCalledWith({ delaySeconds: retryDelaySeconds(30, 3) });
    expect(result.explicitAcks.sort()).toEqual(['nohook', 'old']);
    const shown = await expectJson(await hook('GET', undefined, withHook.accessToken));
    expect(shown.lastDeliveryStatus).toBe(0);
    expect(shown.lastDeliveryAt).not.toBeNull();
  });
});
