/** The workspace's printers, pinned first, with live state, unread count and last document time. */
import { api } from '../api.ts';
import { h, relativeTime, replace } from '../dom.ts';
import { openStream, type StreamHandle, type StreamState } from '../sse.ts';
import type { PrinterSidebarSnapshotDto } from '../types.ts';
import { showError, toast } from '../ui.ts';
import { openPrinterDialog } from './printer-form.ts';
import { navigate } from '../router.ts';

const UNREAD_KEY = 'slipstream.unread';

/** Unread documents per printer, and the `lastDocumentReceivedAt` that count accounts for. */
interface UnreadRecord { count: number; seen: string | null }

function loadUnread(): Record<string, UnreadRecord> {
  try {
    const v = JSON.parse(localStorage.getItem(UNREAD_KEY) ?? '{}') as Record<string, UnreadRecord>;
    return v && typeof v === 'object' ? v : {};
  } catch { return {}; }
}

export class Sidebar {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private status: HTMLElement;
  private snapshots = new Map<string, PrinterSidebarSnapshotDto>();
  private unread: Record<string, UnreadRecord> = loadUnread();
  private activeId: string | null = null;
  private stream: StreamHandle | null = null;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private loaded = false;
  private listeners = new Set<(s: PrinterSidebarSnapshotDto) => void>();

  constructor() {
    const add = h('button', { class: 'btn primary block', type: 'button' }, '+ New printer');
    add.addEventListener('click', () => openPrinterDialog(null, (created) => {
      this.upsert({ printer: created.printer, runtimeStatus: created.runtimeStatus });
      navigate(`/printers/${created.printer.id}`);
    }));
    this.list = h('ul', { class: 'printer-list', role: 'list' });
    this.status = h('p', { class: 'muted small stream-state', 'aria-live': 'polite' });
    this.el = h('nav', { class: 'sidebar', 'aria-label': 'Printers' },
      h('div', { class: 'sidebar-head' }, h('h2', null, 'Printers'), this.status),
      this.list, add);
  }

  onSnapshot(fn: (s: PrinterSidebarSnapshotDto) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get printers(): PrinterSidebarSnapshotDto[] {
    return [...this.snapshots.values()];
  }

  async start(): Promise<void> {
    this.list.replaceChildren(h('li', { class: 'muted' }, 'Loading printers…'));
    try {
      const items = await api.get<PrinterSidebarSnapshotDto[]>('/api/printers/sidebar', 'Loading the printer list');
      this.snapshots.clear();
      for (const s of items ?? []) this.upsert(s, true);
      this.loaded = true;
      this.render();
    } catch (e) {
      this.list.replaceChildren(h('li', { class: 'error-text', role: 'alert' }, (e as Error).message));
    }
    this.stream = openStream('/api/printers/sidebar/stream', {
      // A printer deleted elsewhere (another tab, the API) leaves the sidebar.
      events: { sidebar: (s: PrinterSidebarSnapshotDto) => (s.deleted ? this.remove(s.printer.id) : this.upsert(s)) },
      onState: (st) => this.showState(st),
      onReopen: () => { void this.refresh(); },
      onError: (m) => toast(m, 'error'),
    });
    this.ticker = setInterval(() => this.render(), 30_000);
  }

  private showState(st: StreamState): void {
    this.status.textContent = st === 'live' ? '● live' : st === 'closed' ? '' : st === 'connecting' ? 'connecting…' : 'reconnecting…';
    this.status.dataset.state = st;
  }

  async refresh(): Promise<void> {
    try {
      const items = await api.get<PrinterSidebarSnapshotDto[]>('/api/printers/sidebar', 'Refreshing the printer list');
      const ids = new Set((items ?? []).map((s) => s.printer.id));
      for (const id of [...this.snapshots.keys()]) if (!ids.has(id)) this.snapshots.delete(id);
      for (const s of items ?? []) this.upsert(s, true);
      this.render();
    } catch (e) {
      showError(e);
    }
  }

  stop(): void {
    this.stream?.close();
    clearInterval(this.ticker);
  }

  setActive(id: string | null): void {
    this.activeId = id;
    if (id) {
      const last = this.snapshots.get(id)?.printer.lastDocumentReceivedAt ?? this.unread[id]?.seen ?? null;
      this.unread[id] = { count: 0, seen: last };
      this.saveUnread();
    }
    this.render();
  }

  remove(id: string): void {
    this.snapshots.delete(id);
    delete this.unread[id];
    this.saveUnread();
    this.render();
  }

  private saveUnread(): void {
    try { localStorage.setItem(UNREAD_KEY, JSON.stringify(this.unread)); } catch { /* ignore */ }
  }

  /** Merges a snapshot (full printer, state-only runtime) and counts new documents. */
  upsert(s: PrinterSidebarSnapshotDto, initial = false): void {
    if (!s?.printer?.id) return;
    const id = s.printer.id;
    const prev = this.snapshots.get(id);
    const merged: PrinterSidebarSnapshotDto = {
      ...s,
      runtimeStatus: s.runtimeStatus ? { ...prev?.runtimeStatus, ...s.runtimeStatus } : prev?.runtimeStatus,
    };
    this.snapshots.set(id, merged);
    const last = s.printer.lastDocumentReceivedAt ? Date.parse(s.printer.lastDocumentReceivedAt) : 0;
    const read = s.printer.lastWebReadAt ? Date.parse(s.printer.lastWebReadAt) : 0;
    const lastIso = s.printer.lastDocumentReceivedAt ?? null;
    const rec = this.unread[id];
    if (typeof s.unreadDocumentCount === 'number') {
      this.unread[id] = { count: s.unreadDocumentCount, seen: lastIso };
    } else if (id === this.activeId || !last || (read && last <= read)) {
      this.unread[id] = { count: 0, seen: lastIso };
    } else if (rec && rec.seen === lastIso) {
      // already counted
    } else {
      this.unread[id] = { count: (rec?.count ?? 0) + 1, seen: lastIso };
    }
    this.saveUnread();
    for (const fn of this.listeners) fn(merged);
    if (!initial) this.render();
  }

  render(): void {
    if (!this.loaded) return;
    const items = [...this.snapshots.values()].sort((a, b) =>
      Number(b.printer.isPinned) - Number(a.printer.isPinned)
      || a.printer.displayName.localeCompare(b.printer.displayName, undefined, { sensitivity: 'base' })
      || a.printer.id.localeCompare(b.printer.id));
    if (items.length === 0) {
      replace(this.list, h('li', { class: 'muted empty' }, 'No printers yet. Create one to get a TCP port to print to.'));
      return;
    }
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.printerId;
    const nodes = items.map((s) => {
      const p = s.printer;
      const state = s.runtimeStatus?.state ?? 'Unknown';
      const unread = this.unread[p.id]?.count ?? 0;
      const a = h('a', {
        href: `/printers/${p.id}`, 'data-link': true, class: 'printer-link', dataset: { printerId: p.id },
        'aria-current': p.id === this.activeId ? 'page' : undefined,
      },
      h('span', { class: 'printer-link-top' },
        p.isPinned ? h('span', { class: 'pin', title: 'Pinned' }, 'Pinned') : null,
        h('span', { class: 'printer-name' }, p.displayName || '(unnamed)'),
        unread > 0 ? h('span', { class: 'unread', title: `${unread} unread document${unread === 1 ? '' : 's'}`, 'aria-label': `${unread} unread` }, String(unread)) : null),
      h('span', { class: 'printer-link-bottom' },
        h('span', { class: `state state-${state.toLowerCase()}` }, state),
        h('span', { class: 'muted', title: p.lastDocumentReceivedAt ?? '' }, relativeTime(p.lastDocumentReceivedAt))));
      return h('li', null, a);
    });
    replace(this.list, ...nodes);
    if (focused) (this.list.querySelector(`[data-printer-id="${focused}"]`) as HTMLElement | null)?.focus();
  }
}
