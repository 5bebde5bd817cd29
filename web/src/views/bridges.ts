/**
 * Settings → Bridges: the workspace's own tcp-bridges, one per site (docs/contract/extensions.md "Sites").
 * Create (the token is shown once, with a copy button and the command that uses it), list
 * with connection state, revoke.
 */
import { api } from '../api.ts';
import { copyText, formatTime, h, relativeTime, replace } from '../dom.ts';
import type { BridgeDto, CreatedBridgeDto } from '../types.ts';
import { busy, confirmDialog, field, toast } from '../ui.ts';

export function bridgesPanel(): HTMLElement {
  const list = h('div', { class: 'table-wrap' }, h('p', { class: 'muted' }, 'Loading…'));
  const created = h('div', { class: 'bridge-token', hidden: true, 'aria-live': 'polite' });

  const load = async () => {
    try {
      render(await api.get<BridgeDto[]>('/api/workspaces/bridges', 'Loading the bridges') ?? []);
    } catch (e) {
      replace(list, h('p', { class: 'error-text', role: 'alert' }, (e as Error).message));
    }
  };

  function render(bridges: BridgeDto[]) {
    if (!bridges.length) {
      replace(list, h('p', { class: 'muted' }, 'No bridges yet: every printer listens on the deployment\u2019s shared bridge.'));
      return;
    }
    replace(list, h('table', { class: 'table bridges' },
      h('thead', null, h('tr', null, ...['Name', 'Public host', 'State', 'Listening', 'Last seen', 'Created'].map((t) => h('th', { scope: 'col' }, t)),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Action')))),
      h('tbody', null, ...bridges.map((b) => {
        const revoke = h('button', { class: 'btn small danger', type: 'button', 'aria-label': `Revoke ${b.name}` }, 'Revoke');
        revoke.addEventListener('click', () => void (async () => {
          if (!(await confirmDialog(`Revoke “${b.name}”?`, 'Its token stops working and the bridge closes its printers\u2019 ports within seconds. Its printers listen nowhere until you move them to another bridge.', 'Revoke bridge'))) return;
          await busy(revoke, async () => {
            await api.del(`/api/workspaces/bridges/${b.id}`, 'Revoking the bridge');
            toast(`${b.name} revoked.`, 'ok');
            await load();
          });
        })());
        const seen = b.remoteAddress ? `${relativeTime(b.lastSeenAt ?? null)} from ${b.remoteAddress}` : 'never';
        return h('tr', { 'data-bridge-id': b.id },
          h('td', { title: b.version ?? '' }, b.name), h('td', { class: 'mono' }, b.publicHost),
          h('td', null, h('span', { class: b.isConnected ? 'ok-text' : 'muted' }, b.isConnected ? 'Connected' : 'Not connected')),
          h('td', null, `${b.listeningPrinterCount} printer${b.listeningPrinterCount === 1 ? '' : 's'}`),
          h('td', null, seen), h('td', null, formatTime(b.createdAt)), h('td', null, revoke));
      }))));
  }

  const name = h('input', { type: 'text', required: true, maxlength: 200, placeholder: 'Shop 12' });
  const host = h('input', { type: 'text', required: true, maxlength: 253, placeholder: '192.168.1.20 or till.shop12.example' });
  const createBtn = h('button', { class: 'btn primary', type: 'submit' }, 'Create bridge');
  const form = h('form', { class: 'form' },
    h('div', { class: 'row wrap' }, field('Name', name), field('Public host', host, 'Where the site\u2019s POS terminals reach the bridge (shown as the printers\u2019 host).')),
    createBtn);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!name.value.trim() || !host.value.trim()) { toast('Give the bridge a name and a public host.', 'error'); return; }
    void busy(createBtn, async () => {
      const b = await api.post<CreatedBridgeDto>('/api/workspaces/bridges', 'Creating the bridge', { name: name.value.trim(), publicHost: host.value.trim() });
      showToken(b);
      name.value = '';
      host.value = '';
      await load();
    });
  });

  function showToken(b: CreatedBridgeDto) {
    const token = h('input', { type: 'text', readonly: true, class: 'mono', value: b.token, 'aria-label': 'Bridge token' });
    const copy = h('button', { class: 'btn small', type: 'button' }, 'Copy token');
    copy.addEventListener('click', () => void busy(copy, async () => { await copyText(b.token); toast('Token copied.', 'ok'); }));
    const command = `BRIDGE_TOKEN=${b.token} WORKER_URL=${location.origin} node tcp-bridge/dist/bridge.mjs`;
    replace(created,
      h('p', { class: 'warning small' }, `The token of “${b.name}” is shown only now: copy it to the site\u2019s bridge.`),
      h('div', { class: 'row' }, token, copy),
      h('p', { class: 'muted small' }, 'Start the bridge at the site with:'),
      h('pre', { class: 'mono small' }, command));
    created.hidden = false;
    token.select();
  }

  void load();
  return h('div', null,
    h('p', { class: 'muted small' }, 'A bridge runs on a shop\u2019s network next to its POS terminals and serves only the printers you assign to it.'),
    form, created, list);
}

/** The workspace's bridges for the printer form's picker; empty when they cannot be loaded. */
export function listBridges(): Promise<BridgeDto[]> {
  return api.get<BridgeDto[]>('/api/workspaces/bridges', 'Loading the bridges').then((b) => b ?? []);
}
