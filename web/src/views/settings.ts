/** Workspace settings: name, retention, whitelist (with recent connections), colour schemes, figures, admin. */
import { api } from '../api.ts';
import { COLOR_SCHEME_PALETTES, DARK_COLOR_SCHEMES, LIGHT_COLOR_SCHEMES, DEFAULT_DARK_COLOR_SCHEME, DEFAULT_LIGHT_COLOR_SCHEME } from '../color-schemes.ts';
import { formatBytes, formatTime, h, relativeTime, replace } from '../dom.ts';
import * as theme from '../theme.ts';
import type {
  AdminWorkspaceStatisticsDto, CleanupResultDto, CleanupSummaryDto, TcpConnectionEntryDto, WorkspaceDto, WorkspaceSummaryDto,
} from '../types.ts';
import { busy, confirmDialog, field, showError, toast } from '../ui.ts';
import { addEntry, isCovered, parseWhitelist } from '../whitelist.ts';
import { webhookPanel } from './webhook-panel.ts';
import { bridgesPanel } from './bridges.ts';

export function settingsView(onWorkspace: (ws: WorkspaceDto) => void): { el: HTMLElement; destroy(): void } {
  const el = h('div', { class: 'settings-view' }, h('h1', { tabindex: -1 }, 'Workspace settings'), h('p', { class: 'muted' }, 'Loading…'));
  let destroyed = false;
  let offMode: (() => void) | null = null;

  void (async () => {
    let ws: WorkspaceDto;
    try {
      ws = await api.get<WorkspaceDto>('/api/workspaces', 'Loading the workspace');
    } catch (e) {
      el.replaceChildren(h('h1', null, 'Workspace settings'), h('p', { class: 'error-text', role: 'alert' }, (e as Error).message));
      return;
    }
    if (destroyed) return;
    onWorkspace(ws);
    const save = async (patch: Partial<WorkspaceDto>, what: string, btn: HTMLButtonElement | null) => busy(btn, async () => {
      ws = await api.patch<WorkspaceDto>('/api/workspaces', what, patch);
      onWorkspace(ws);
      toast(`${what.replace(/^Saving /, '').replace(/^./, (c) => c.toUpperCase())} saved.`, 'ok');
      return ws;
    });

    // Summary figures
    const figures = h('dl', { class: 'figures' }, h('div', null, h('dt', null, 'Loading…')));
    void api.get<WorkspaceSummaryDto>('/api/workspaces/summary', 'Loading the summary').then((s) => {
      replace(figures,
        fig('Printers', s.totalPrinters), fig('Documents', s.totalDocuments), fig('Documents in the last 24 h', s.documentsLast24h),
        fig('Last document', relativeTime(s.lastDocumentAt)), fig('Created', formatTime(s.createdAt)));
    }).catch((e) => replace(figures, h('p', { class: 'error-text', role: 'alert' }, (e as Error).message)));

    // General
    const name = h('input', { type: 'text', required: true, maxlength: 100, value: ws.name });
    const retention = h('input', { type: 'number', min: 1, max: 3650, step: 1, required: true, value: String(ws.documentRetentionDays) });
    const generalBtn = h('button', { class: 'btn primary', type: 'submit' }, 'Save');
    const general = h('form', { class: 'form' }, field('Name', name), field('Keep documents for (days)', retention, '1 to 3650; older documents are deleted by the hourly cleanup.'), generalBtn);
    general.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const days = Number(retention.value);
      if (!name.value.trim()) { toast('The workspace needs a name.', 'error'); return; }
      if (!Number.isInteger(days) || days < 1 || days > 3650) { toast('Retention must be a whole number of days from 1 to 3650.', 'error'); return; }
      void save({ name: name.value.trim(), documentRetentionDays: days }, 'Saving the name and retention', generalBtn);
    });

    // Whitelist
    const wlEnabled = h('input', { type: 'checkbox', role: 'switch', class: 'switch' });
    wlEnabled.checked = ws.tcpWhitelistEnabled;
    const wlText = h('textarea', { rows: 6, class: 'mono', spellcheck: false, placeholder: '# one address or range per line\n192.168.1.0/24\n10.0.0.15, ::1' });
    wlText.value = ws.tcpWhitelistEntries ?? '';
    const wlProblems = h('ul', { class: 'error-text small', role: 'alert' });
    const wlWarn = h('p', { class: 'warning small', hidden: true }, 'The whitelist is on but empty: every TCP client will be refused.');
    const validate = () => {
      const r = parseWhitelist(wlText.value);
      replace(wlProblems, ...r.problems.map((p) => h('li', null, p.message)));
      wlWarn.hidden = !(wlEnabled.checked && r.entries.length === 0);
      wlText.setAttribute('aria-invalid', String(r.problems.length > 0));
      return r;
    };
    wlText.addEventListener('input', () => { validate(); renderConnections(); });
    wlEnabled.addEventListener('change', validate);
    const wlBtn = h('button', { class: 'btn primary', type: 'submit' }, 'Save whitelist');
    const wlForm = h('form', { class: 'form' },
      h('label', { class: 'toggle' }, wlEnabled, h('span', null, 'Only accept TCP print jobs from these addresses')),
      field('Allowed addresses', wlText, 'IPv4 or IPv6 addresses or CIDR ranges, separated by commas or new lines; # starts a comment.'),
      wlProblems, wlWarn, wlBtn);
    wlForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (validate().problems.length) { toast('Fix the whitelist entries marked in red first.', 'error'); return; }
      void save({ tcpWhitelistEnabled: wlEnabled.checked, tcpWhitelistEntries: wlText.value }, 'Saving the whitelist', wlBtn);
    });
    validate();

    // Recent connections
    let connections: TcpConnectionEntryDto[] = [];
    const minutes = h('select', { 'aria-label': 'Time window' },
      ...[15, 60, 240, 1440].map((m) => h('option', { value: String(m) }, m < 60 ? `last ${m} min` : `last ${m / 60} h`)));
    minutes.value = '60';
    const connBody = h('div', { class: 'table-wrap' }, h('p', { class: 'muted' }, 'Loading…'));
    const loadConnections = async () => {
      try {
        connections = await api.get<TcpConnectionEntryDto[]>(`/api/workspaces/connections?minutes=${minutes.value}`, 'Loading recent connections') ?? [];
        renderConnections();
      } catch (e) {
        replace(connBody, h('p', { class: 'error-text', role: 'alert' }, (e as Error).message));
      }
    };
    function renderConnections() {
      if (!connections.length) { replace(connBody, h('p', { class: 'muted' }, 'No TCP connection attempts in this period.')); return; }
      const entries = parseWhitelist(wlText.value).entries;
      const seen = new Map<string, TcpConnectionEntryDto>();
      const rows = [...connections].sort((a, b) => Date.parse(b.connectedAt) - Date.parse(a.connectedAt));
      replace(connBody, h('table', { class: 'table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'When'), h('th', { scope: 'col' }, 'Client'), h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, 'Type'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Action')))),
        h('tbody', null, ...rows.map((c) => {
          const covered = isCovered(c.clientIp, entries);
          const add = h('button', { class: 'btn small', type: 'button', disabled: covered, 'aria-label': `Add ${c.clientIp} to the whitelist` }, covered ? 'Listed' : 'Add');
          add.addEventListener('click', () => {
            wlText.value = addEntry(wlText.value, c.clientIp);
            validate();
            renderConnections();
            toast(`${c.clientIp} added to the whitelist. Save to apply it.`, 'info');
            wlBtn.focus();
          });
          seen.set(c.clientIp, c);
          return h('tr', null,
            h('td', null, formatTime(c.connectedAt)), h('td', { class: 'mono' }, c.clientIp),
            h('td', null, h('span', { class: c.allowed ? 'ok-text' : 'error-text' }, c.allowed ? 'Allowed' : 'Refused')),
            h('td', null, c.connectionType), h('td', null, add));
        }))));
    }
    minutes.addEventListener('change', () => void loadConnections());
    const refreshConn = h('button', { class: 'btn small', type: 'button' }, 'Refresh');
    refreshConn.addEventListener('click', () => void busy(refreshConn, loadConnections));
    void loadConnections();

    // Appearance
    const lightSel = schemeSelect(LIGHT_COLOR_SCHEMES, ws.lightColorScheme || DEFAULT_LIGHT_COLOR_SCHEME);
    const darkSel = schemeSelect(DARK_COLOR_SCHEMES, ws.darkColorScheme || DEFAULT_DARK_COLOR_SCHEME);
    const preview = () => theme.setSchemes(lightSel.value, darkSel.value);
    lightSel.addEventListener('change', preview);
    darkSel.addEventListener('change', preview);
    const mode = h('select', null, h('option', { value: 'auto' }, 'Follow the system'), h('option', { value: 'light' }, 'Light'), h('option', { value: 'dark' }, 'Dark'));
    mode.value = theme.getMode();
    mode.addEventListener('change', () => theme.setMode(mode.value as theme.ThemeMode));
    // The top bar's theme button changes the same mode: the select follows it.
    offMode = theme.onModeChange((m) => { mode.value = m; });
    const schemeBtn = h('button', { class: 'btn primary', type: 'submit' }, 'Save colour schemes');
    const schemeForm = h('form', { class: 'form' },
      h('div', { class: 'row wrap' }, field('Light theme', lightSel), field('Dark theme', darkSel), field('Theme in this browser', mode)),
      h('div', { class: 'swatches', 'aria-hidden': 'true' }, ...[...LIGHT_COLOR_SCHEMES, ...DARK_COLOR_SCHEMES].map((n) => swatch(n))),
      schemeBtn);
    schemeForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void save({ lightColorScheme: lightSel.value, darkColorScheme: darkSel.value }, 'Saving the colour schemes', schemeBtn);
    });

    // Retention cleanup
    const override = h('input', { type: 'number', min: 0, max: 3650, step: 1, placeholder: String(ws.documentRetentionDays), class: 'narrow' });
    const maxDocs = h('input', { type: 'number', min: 1, max: 1000000, step: 1, value: '10000', class: 'narrow' });
    const previewBtn = h('button', { class: 'btn', type: 'button' }, 'Preview');
    const runBtn = h('button', { class: 'btn danger', type: 'button', disabled: true }, 'Run cleanup');
    const cleanupOut = h('p', { class: 'cleanup-out', 'aria-live': 'polite' });
    const overrideValue = () => (override.value.trim() === '' ? null : Number(override.value));
    const invalidate = () => { runBtn.disabled = true; cleanupOut.textContent = ''; };
    override.addEventListener('input', invalidate);
    previewBtn.addEventListener('click', () => void busy(previewBtn, async () => {
      const o = overrideValue();
      if (o !== null && (!Number.isInteger(o) || o < 0)) throw new Error('The age override must be a whole number of days (0 or more).');
      const s = await api.get<CleanupSummaryDto>(`/api/workspaces/retention/cleanup-summary${o !== null ? `?retentionDaysOverride=${o}` : ''}`, 'Previewing the cleanup');
      cleanupOut.textContent = `A cleanup would delete ${s.expiredDocuments} document${s.expiredDocuments === 1 ? '' : 's'} and ${s.retentionMediaFiles} media file${s.retentionMediaFiles === 1 ? '' : 's'}.`;
      runBtn.disabled = s.expiredDocuments === 0 && s.retentionMediaFiles === 0;
    }));
    runBtn.addEventListener('click', () => void (async () => {
      const o = overrideValue();
      const scope = ws.role === 'Admin' ? 'in every workspace' : 'in this workspace';
      if (!(await confirmDialog('Run the retention cleanup?', `${o === 0 ? 'Every document' : 'Documents older than the retention age'} ${scope} will be deleted. This cannot be undone.`, 'Delete documents'))) return;
      await busy(runBtn, async () => {
        const r = await api.post<CleanupResultDto>('/api/workspaces/retention/cleanup', 'Running the cleanup', { maxDocuments: Number(maxDocs.value) || 10000, retentionDaysOverride: o });
        cleanupOut.textContent = `Deleted ${r.deletedDocuments} document${r.deletedDocuments === 1 ? '' : 's'} and ${r.deletedMedia} media file${r.deletedMedia === 1 ? '' : 's'}.`;
        toast('Cleanup finished.', 'ok');
      });
      runBtn.disabled = true;
    })());
    const cleanup = h('div', { class: 'form' },
      h('p', { class: 'muted small' }, ws.role === 'Admin' ? 'As an admin, the cleanup covers every workspace.' : 'The cleanup covers this workspace.'),
      h('div', { class: 'row wrap' }, field('Age override (days, 0 = all)', override), field('At most (documents)', maxDocs)),
      h('div', { class: 'row' }, previewBtn, runBtn), cleanupOut);

    // Admin statistics
    const admin = ws.role === 'Admin' ? h('div', { class: 'table-wrap' }, h('p', { class: 'muted' }, 'Loading…')) : null;
    if (admin) {
      void api.get<AdminWorkspaceStatisticsDto>('/api/workspaces/admin-statistics', 'Loading the statistics').then((s) => {
        replace(admin,
          h('dl', { class: 'figures' },
            fig('Workspaces', s.totalWorkspaces), fig('Active (24 h / 7 d)', `${s.activeWorkspacesLast24h} / ${s.activeWorkspacesLast7d}`),
            fig('Printers', s.totalPrinters), fig('Documents', s.totalDocuments), fig('Documents (24 h / 7 d)', `${s.documentsLast24h} / ${s.documentsLast7d}`),
            fig('Media', `${s.totalMedia} (${formatBytes(s.totalMediaBytes)})`), fig('Last document', relativeTime(s.lastDocumentAt))),
          h('table', { class: 'table' },
            h('thead', null, h('tr', null, ...['Workspace', 'Role', 'Printers', 'Documents', '24 h', 'Media', 'Retention', 'Last document', 'Last web read', 'Last API read'].map((t) => h('th', { scope: 'col' }, t)))),
            h('tbody', null, ...(s.workspaces ?? []).map((r) => h('tr', null,
              h('td', { title: r.workspaceId }, r.workspaceName), h('td', null, r.role), h('td', null, r.printerCount), h('td', null, r.documentCount),
              h('td', null, r.documentsLast24h), h('td', null, `${r.mediaCount} (${formatBytes(r.mediaBytes)})`), h('td', null, `${r.documentRetentionDays} d`),
              h('td', null, relativeTime(r.lastDocumentAt)), h('td', null, r.lastWebReadAt ? relativeTime(r.lastWebReadAt) : 'never'),
              h('td', null, r.lastApiReadAt ? relativeTime(r.lastApiReadAt) : 'never'))))));
      }).catch((e) => replace(admin, h('p', { class: 'error-text', role: 'alert' }, (e as Error).message)));
    }

    // Danger zone
    const delBtn = h('button', { class: 'btn danger', type: 'button' }, 'Delete this workspace');
    delBtn.addEventListener('click', () => void (async () => {
      if (!(await confirmDialog('Delete the workspace?', `“${ws.name}”, all its printers, documents, media and NV images are deleted and its token stops working. This cannot be undone.`, 'Delete workspace'))) return;
      await busy(delBtn, async () => {
        await api.del('/api/workspaces', 'Deleting the workspace');
        toast('Workspace deleted.', 'ok');
        await api.signOut();
      });
    })());

    el.replaceChildren(
      h('h1', { tabindex: -1 }, 'Workspace settings'),
      card('Summary', figures),
      card('General', general),
      card('TCP whitelist', wlForm),
      card('Bridges', bridgesPanel()),
      card('Recent connection attempts', h('div', { class: 'row' }, minutes, refreshConn), connBody),
      card('Colour schemes', schemeForm),
      card('Webhook', webhookPanel()),
      card('Retention cleanup', cleanup),
      admin ? card('Statistics (admin)', admin) : '',
      card('Danger zone', h('p', { class: 'muted' }, 'Deleting the workspace stops every listener and removes all data.'), delBtn));
    (el.querySelector('h1') as HTMLElement).focus({ preventScroll: true });
  })().catch(showError);

  return { el, destroy: () => { destroyed = true; offMode?.(); } };
}

function card(title: string, ...children: (Node | null)[]): HTMLElement {
  return h('section', { class: 'panel' }, h('h2', null, title), ...children);
}

function fig(label: string, value: string | number): HTMLElement {
  return h('div', { class: 'figure' }, h('dt', null, label), h('dd', null, String(value)));
}

function schemeSelect(names: readonly string[], value: string): HTMLSelectElement {
  const sel = h('select', null, ...names.map((n) => h('option', { value: n }, COLOR_SCHEME_PALETTES[n as keyof typeof COLOR_SCHEME_PALETTES].label)));
  sel.value = names.includes(value) ? value : names[0];
  return sel;
}

function swatch(name: string): HTMLElement {
  const p = COLOR_SCHEME_PALETTES[name as keyof typeof COLOR_SCHEME_PALETTES];
  return h('div', { class: 'swatch', title: p.label, style: { background: p.bg, color: p.text, borderColor: p.border } },
    h('span', { style: { background: p.accent } }), h('span', { style: { background: p.paper, outline: `1px solid ${p.border}` } }), h('small', null, p.label));
}
