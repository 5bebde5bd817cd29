/**
 * The Settings page's webhook card: the workspace's webhook URL and its last delivery, set or
 * remove it; the signing secret is shown once, right after it is set (docs/contract/extensions.md).
 */
import { api } from '../api.ts';
import { h, relativeTime, replace } from '../dom.ts';
import { busy, confirmDialog, field, toast } from '../ui.ts';

interface WebhookDto {
  url: string;
  isEnabled: boolean;
  lastDeliveryAt: string | null;
  lastDeliveryStatus: number | null;
}

const PATH = '/api/workspaces/webhook';

function lastDelivery(w: WebhookDto): string {
  if (!w.lastDeliveryAt) return 'No delivery yet.';
  const outcome = w.lastDeliveryStatus === 0 ? 'no answer' : `HTTP ${w.lastDeliveryStatus}`;
  return `Last delivery ${relativeTime(w.lastDeliveryAt)}: ${outcome}.`;
}

export function webhookPanel(): HTMLElement {
  const status = h('p', { class: 'muted small webhook-status', 'aria-live': 'polite' }, 'Loading…');
  const secretOut = h('p', { class: 'small webhook-secret', hidden: true });
  const url = h('input', { type: 'url', required: true, placeholder: 'https://ci.example.com/hooks/slipstream' });
  const saveBtn = h('button', { class: 'btn primary', type: 'submit' }, 'Save webhook');
  const delBtn = h('button', { class: 'btn danger', type: 'button', hidden: true }, 'Remove webhook');

  const show = (w: WebhookDto | null) => {
    url.value = w?.url ?? '';
    delBtn.hidden = !w;
    status.textContent = w ? lastDelivery(w) : 'No webhook: documents are not sent anywhere.';
  };
  // 204 (no webhook) reads as undefined.
  const load = () =>
    api.get<WebhookDto | undefined>(PATH, 'Loading the webhook').then((w) => show(w ?? null)).catch((e) => {
      status.textContent = (e as Error).message;
    });

  const form = h('form', { class: 'form' },
    h('p', { class: 'muted small' }, 'Each printed document (status polls excepted) is POSTed here as JSON, signed with X-Slipstream-Signature: sha256=HMAC of the body; failed deliveries are retried for 24 hours.'),
    field('Webhook URL', url), h('div', { class: 'row' }, saveBtn, delBtn), status, secretOut);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(saveBtn, async () => {
      const w = await api.put<WebhookDto & { signingSecret: string }>(PATH, 'Saving the webhook', { url: url.value.trim() });
      show(w);
      replace(secretOut, 'Signing secret (shown only now; copy it): ', h('code', { class: 'mono' }, w.signingSecret));
      secretOut.hidden = false;
      toast('Webhook saved.', 'ok');
    });
  });
  delBtn.addEventListener('click', () => void (async () => {
    if (!(await confirmDialog('Remove the webhook?', 'Documents will no longer be sent to it; deliveries still queued are dropped.', 'Remove'))) return;
    await busy(delBtn, async () => {
      await api.del(PATH, 'Removing the webhook');
      show(null);
      secretOut.hidden = true;
      toast('Webhook removed.', 'ok');
    });
  })());
  void load();
  return form;
}
