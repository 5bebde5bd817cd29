import type { Env } from '../env.ts';
import { findWebhook, recordDelivery, type WebhookRow } from '../data/webhooks.ts';
import { readSettings } from '../config.ts';
import { outboundUrlProblem } from './outbound-url.ts';

/**
 * Webhooks (extensions.md "Documents outside the browser"): each finalised non-poll document
 * becomes one message on the WEBHOOKS queue (enqueued by the printer's Durable Object); the
 * queue consumer POSTs it, signed, to the workspace's URL and retries non-2xx answers with
 * exponential backoff for 24 hours. The message carries everything the body needs, so the
 * body (and its signature) is the same on every attempt and receivers can dedupe on
 * `X-Slipstream-Delivery`.
 */
export interface WebhookMessage {
  deliveryId: string;
  /** When the document was finalised (ms): retries stop 24 hours after it. */
  enqueuedAt: number;
  payload: DocumentReadyPayload;
}

export interface DocumentReadyPayload {
  type: 'documentReady';
  workspaceId: string;
  printerId: string;
  documentId: string;
  timestamp: string;
  bytesReceived: number;
  text: string;
}

export const RETRY_WINDOW_MS = 24 * 3600_000;
/** Queues delays are capped at 12 hours; an hour between late attempts is plenty. */
const MAX_RETRY_DELAY_SECONDS = 3600;
/** A receiver that does not answer within this is a failed attempt (status 0). */
const DELIVERY_TIMEOUT_MS = 10_000;
/** The text field is capped so a huge document cannot exceed the queue's 128 KB message limit. */
export const MAX_TEXT_CHARS = 32 * 1024;

export const SIGNATURE_HEADER = 'X-Slipstream-Signature';
export const DELIVERY_HEADER = 'X-Slipstream-Delivery';

/** `sha256=<hex HMAC-SHA256 of body>` with the signing secret. */
export async function signatureOf(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)));
  return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** A new signing secret: 32 random bytes, hex, prefixed so it is recognisable in a config file. */
export function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function documentReadyMessage(p: Omit<DocumentReadyPayload, 'type'>): WebhookMessage {
  return {
    deliveryId: crypto.randomUUID(),
    enqueuedAt: Date.now(),
    payload: { type: 'documentReady', ...p, text: p.text.length > MAX_TEXT_CHARS ? p.text.slice(0, MAX_TEXT_CHARS) : p.text },
  };
}

/** Delay before attempt `attempts + 1`: base, 2×base, 4×base, … capped at an hour. */
export function retryDelaySeconds(baseSeconds: number, attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_SECONDS, baseSeconds * 2 ** Math.max(0, attempts - 1));
}

/** One attempt: the HTTP status of the answer, 0 when there was none (network error, timeout). */
export async function deliver(hook: Pick<WebhookRow, 'url' | 'signing_secret'>, m: WebhookMessage): Promise<number> {
  const body = JSON.stringify(m.payload);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Slipstream-Webhook/1',
        [DELIVERY_HEADER]: m.deliveryId,
        [SIGNATURE_HEADER]: await signatureOf(hook.signing_secret, body),
      },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      redirect: 'manual',
    });
    await res.body?.cancel();
    return res.status;
  } catch {
    return 0;
  }
}

/** The queue consumer: deliver each message; retry failures with backoff while within 24 hours. */
export async function consumeWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Env): Promise<void> {
  const settings = readSettings(env);
  const base = settings.webhookRetryBaseSeconds;
  const policy = { allowPrivateTargets: settings.allowPrivateTargets, ownHosts: [settings.publicHost] };
  await Promise.all(
    batch.messages.map(async (msg) => {
      const m = msg.body;
      const hook = await findWebhook(env.DB, m.payload.workspaceId);
      // Removed or disabled since the document was printed: nothing to deliver.
      if (!hook || !hook.is_enabled) return msg.ack();
      // Set while ALLOW_PRIVATE_TARGETS was on, or under another PUBLIC_HOST: not called now.
      const refused = outboundUrlProblem(hook.url, policy);
      if (refused) {
        console.warn(JSON.stringify({ event: 'webhook.refused', workspaceId: hook.workspace_id, reason: refused }));
        return msg.ack();
      }
      const status = await deliver(hook, m);
      await recordDelivery(env.DB, hook.workspace_id, hook.url, new Date().toISOString(), status);
      if (status >= 200 && status < 300) return msg.ack();
      if (Date.now() - m.enqueuedAt >= RETRY_WINDOW_MS) return msg.ack();
      msg.retry({ delaySeconds: retryDelaySeconds(base, msg.attempts) });
    }),
  );
}
