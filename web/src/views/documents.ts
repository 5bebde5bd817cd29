/** The printer's documents, newest first: paper rendering, raw view, copy, PNG, import, clear. */
import { TRANSPORT_LABELS } from '../../../src/shared/transports.ts';
import { api } from '../api.ts';
import { copyText, formatBytes, formatTime, h } from '../dom.ts';
import { spacedHex } from '../render/layout.ts';
import { renderText, type RenderCanvas } from '../../../src/engines/render/index.ts';
import { documentPaperHtml, escapeHtml, layoutDocument } from '../render/paper.ts';
import { downloadDocumentPng } from '../render/png.ts';
import type { CanvasDocumentPage, PrinterResponseDto, RenderedDocumentDto } from '../types.ts';
import { busy, confirmDialog, field, openDialog, showError, toast } from '../ui.ts';
import { physicalSize, printerDpi } from '../protocols.ts';

export const PAGE_SIZE = 50;
const RAW_ROW_LIMIT = 1500;
const HEX_PREVIEW_BYTES = 48;

interface Entry { doc: RenderedDocumentDto; el: HTMLElement }

export class DocumentList {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private more: HTMLButtonElement;
  private countEl: HTMLElement;
  private liveEl: HTMLElement;
  private entries = new Map<string, Entry>();
  private nextBeforeId: string | null = null;
  private hasMore = false;
  /** Status polls the printer holds: counted, not shown as (empty) cards. */
  private statusPolls = 0;
  /** Status polls the stream has delivered so far (see `countPolls`). */
  private streamPolls = 0;
  private loading = false;
  private observer: IntersectionObserver | null = null;
  private resize: ResizeObserver | null = null;

  constructor(private printer: () => PrinterResponseDto) {
    const importBtn = h('button', { class: 'btn', type: 'button' }, 'Import…');
    importBtn.addEventListener('click', () => this.openImport());
    const clearBtn = h('button', { class: 'btn danger-outline', type: 'button' }, 'Clear all');
    clearBtn.addEventListener('click', () => void this.clearAll(clearBtn));
    this.countEl = h('span', { class: 'muted small' });
    this.liveEl = h('span', { class: 'stream-state small', 'aria-live': 'polite' });
    this.list = h('div', { class: 'doc-list', role: 'feed', 'aria-label': 'Documents, newest first', 'aria-busy': 'true' });
    this.more = h('button', { class: 'btn block', type: 'button', hidden: true }, 'Load older documents');
    this.more.addEventListener('click', () => void this.loadOlder());
    this.el = h('section', { class: 'documents', 'aria-label': 'Documents' },
      h('div', { class: 'toolbar' }, h('h2', null, 'Documents'), this.countEl, this.liveEl, h('span', { class: 'spacer' }), importBtn, clearBtn),
      this.list, this.more);
    this.list.addEventListener('click', (ev) => this.onAction(ev));
    this.el.addEventListener('dragover', (ev) => { if (ev.dataTransfer?.types.includes('Files')) { ev.preventDefault(); this.el.classList.add('dropping'); } });
    this.el.addEventListener('dragleave', (ev) => { if (ev.target === this.el) this.el.classList.remove('dropping'); });
    this.el.addEventListener('drop', (ev) => {
      this.el.classList.remove('dropping');
      const file = ev.dataTransfer?.files?.[0];
      if (!file) return;
      ev.preventDefault();
      this.openImport(file);
    });
    this.resize = new ResizeObserver(() => this.updateAvail());
    this.resize.observe(this.list);
    this.observer = new IntersectionObserver((es) => {
      if (es.some((e) => e.isIntersecting) && this.hasMore && !this.loading) void this.loadOlder();
    }, { rootMargin: '600px' });
    this.observer.observe(this.more);
  }

  destroy(): void {
    this.observer?.disconnect();
    this.resize?.disconnect();
  }

  setLive(text: string, state: string): void {
    this.liveEl.textContent = text;
    this.liveEl.dataset.state = state;
  }

  private updateAvail(): void {
    const w = this.list.clientWidth;
    if (w > 0) this.list.style.setProperty('--avail', String(Math.max(120, w - 34)));
  }

  /** Re-renders the empty-list hint once the printer's address is known. */
  refreshEmpty(): void {
    this.updateCount();
  }

  private updateCount(): void {
    const n = this.entries.size;
    const polls = this.statusPolls ? `${this.statusPolls} status poll${this.statusPolls === 1 ? '' : 's'}` : '';
    this.countEl.textContent = [n === 0 ? '' : `${n}${this.hasMore ? '+' : ''} shown`, polls].filter(Boolean).join(' · ');
    if (n === 0 && !this.loading) {
      const p = this.printer();
      const hint = p.settings.tcpListenPort
        ? `Print to ${p.settings.publicHost}:${p.settings.tcpListenPort} over raw TCP, or import a hex or base64 dump.`
        : 'Print to the printer over raw TCP, or import a hex or base64 dump.';
      const existing = this.list.querySelector('.empty-list .muted');
      if (existing) existing.textContent = hint;
      else this.list.replaceChildren(h('div', { class: 'empty-list' }, h('p', null, 'No documents yet.'), h('p', { class: 'muted' }, hint)));
    } else {
      this.list.querySelector('.empty-list')?.remove();
    }
  }

  /** The first page's request, so it can start before the view exists. */
  static fetchFirst(printerId: string): Promise<CanvasDocumentPage> {
    return api.get<CanvasDocumentPage>(`/api/printers/${printerId}/documents/canvas?IncludeStatusPolls=false&Limit=${PAGE_SIZE}`, 'Loading documents');
  }

  /** Renders the first page. Returns the number of documents rendered and the wait for data. */
  async loadFirst(pending: Promise<CanvasDocumentPage>): Promise<{ count: number; waitMs: number; renderMs: number }> {
    this.loading = true;
    this.list.setAttribute('aria-busy', 'true');
    try {
      const t0 = performance.now();
      const page = await pending;
      const t1 = performance.now();
      this.entries.clear();
      this.list.replaceChildren();
      this.updateAvail();
      this.appendPage(page, 0);
      return { count: this.entries.size, waitMs: t1 - t0, renderMs: performance.now() - t1 };
    } finally {
      this.loading = false;
      this.list.setAttribute('aria-busy', 'false');
      this.updateCount();
    }
  }

  /** After a stream reconnect: fetch the newest page and add what is missing. */
  async catchUp(): Promise<void> {
    const streamPolls = this.streamPolls;
    try {
      const page = await api.get<CanvasDocumentPage>(`/api/printers/${this.printer().printer.id}/documents/canvas?IncludeStatusPolls=false&Limit=${PAGE_SIZE}`, 'Refreshing documents');
      const items = page?.result?.items ?? [];
      for (const doc of [...items].reverse()) if (!this.entries.has(doc.id)) this.prepend(doc);
      this.countPolls(page?.result?.statusPollCount, streamPolls);
      this.updateCount();
    } catch (e) {
      showError(e);
    }
  }

  /**
   * A page's count of status polls, asked for when the stream had delivered `streamPollsAtRequest`:
   * a poll the stream delivered while the page was on its way may be missing from its count,
   * which then must not take the count back.
   */
  private countPolls(pageCount: number | undefined, streamPollsAtRequest: number): void {
    if (pageCount == null) return;
    this.statusPolls = this.streamPolls > streamPollsAtRequest ? Math.max(pageCount, this.statusPolls) : pageCount;
  }

  /** `streamPollsAtRequest`: the stream's polls when the page was asked for (`countPolls`). */
  private appendPage(page: CanvasDocumentPage, streamPollsAtRequest: number): void {
    const r = page?.result ?? { hasMore: false };
    const frag = document.createDocumentFragment();
    for (const doc of r.items ?? []) {
      if (this.entries.has(doc.id)) continue;
      const el = this.card(doc);
      this.entries.set(doc.id, { doc, el });
      frag.appendChild(el);
    }
    this.list.appendChild(frag);
    this.hasMore = !!r.hasMore && !!r.nextBeforeId;
    this.countPolls(r.statusPollCount, streamPollsAtRequest);
    this.nextBeforeId = r.nextBeforeId ?? null;
    this.more.hidden = !this.hasMore;
  }

  async loadOlder(): Promise<void> {
    if (!this.hasMore || this.loading || !this.nextBeforeId) return;
    this.loading = true;
    this.more.disabled = true;
    this.more.textContent = 'Loading older documents…';
    const streamPolls = this.streamPolls;
    try {
      const page = await api.get<CanvasDocumentPage>(
        `/api/printers/${this.printer().printer.id}/documents/canvas?IncludeStatusPolls=false&Limit=${PAGE_SIZE}&BeforeId=${encodeURIComponent(this.nextBeforeId)}`,
        'Loading older documents');
      this.appendPage(page, streamPolls);
    } catch (e) {
      showError(e);
    } finally {
      this.loading = false;
      this.more.disabled = false;
      this.more.textContent = 'Load older documents';
      this.updateCount();
    }
  }

  /** A new document from the stream: paint it at the top (a status poll is only counted). */
  prepend(doc: RenderedDocumentDto): boolean {
    if (!doc?.id || this.entries.has(doc.id)) return false;
    if (doc.isStatusPoll) {
      this.statusPolls++;
      this.streamPolls++;
      this.updateCount();
      return false;
    }
    const el = this.card(doc, true);
    this.entries.set(doc.id, { doc, el });
    this.list.querySelector('.empty-list')?.remove();
    // Keep newest first even if an older document is replayed after a reconnect.
    const t = Date.parse(doc.timestamp);
    let before: Element | null = this.list.firstElementChild;
    while (before && Date.parse((before as HTMLElement).dataset.timestamp ?? '') > t) before = before.nextElementSibling;
    this.list.insertBefore(el, before);
    this.updateCount();
    return true;
  }

  clearLocal(): void {
    this.entries.clear();
    this.list.replaceChildren();
    this.hasMore = false;
    this.more.hidden = true;
    this.updateCount();
  }

  private card(doc: RenderedDocumentDto, fresh = false): HTMLElement {
    const el = document.createElement('article');
    el.className = fresh ? 'doc fresh' : 'doc';
    el.dataset.docId = doc.id;
    el.dataset.timestamp = doc.timestamp;
    el.tabIndex = 0;
    const when = formatTime(doc.timestamp);
    el.setAttribute('aria-label', `Document received ${when}`);
    const errors = doc.errorMessages ?? [];
    const from = doc.clientAddress === 'import' ? 'imported' : doc.clientAddress ? `from ${doc.clientAddress}` : '';
    const via = doc.transport && doc.transport !== 'Import' ? TRANSPORT_LABELS[doc.transport] : '';
    const commands = (doc.canvases ?? []).reduce((n, c) => n + (c.items ?? []).filter((i) => i.type === 'debug').length, 0);
    const layouts = layoutDocument(doc);
    el.innerHTML = `<header class="doc-head">`
      + `<div class="doc-meta"><time datetime="${escapeHtml(doc.timestamp)}">${escapeHtml(when)}</time>`
      + `<span class="muted small">${escapeHtml(from)}${via ? ` · <span class="transport" data-transport="${escapeHtml(doc.transport)}">${escapeHtml(via)}</span>` : ''} · ${escapeHtml(doc.protocol ?? '')} · ${formatBytes(doc.bytesReceived)} in${doc.bytesSent ? ` · ${formatBytes(doc.bytesSent)} out` : ''} · ${commands} command${commands === 1 ? '' : 's'}</span></div>`
      + `<div class="doc-actions">`
      + `<button type="button" class="btn small" data-action="raw" aria-expanded="false">Raw</button>`
      + `<button type="button" class="btn small" data-action="copy">Copy text</button>`
      + `<button type="button" class="btn small" data-action="png">PNG</button>`
      + `</div></header>`
      // The alert role on a wrapper: on the <ul> itself it would strip the list's semantics.
      + (errors.length ? `<div role="alert"><ul class="doc-errors">${errors.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul></div>` : '')
      + `<div class="raw" hidden></div>`
      + this.labelStockHtml(layouts)
      + documentPaperHtml(doc, layouts);
    return el;
  }

  /** For labels: how many, and the stock's size in dots, inches and millimetres. */
  private labelStockHtml(layouts: ReturnType<typeof layoutDocument>): string {
    if (layouts.length === 0 || !layouts.every((l) => l.isLabel)) return '';
    const { width, height } = layouts[0];
    const dpi = printerDpi(this.printer().settings);
    const count = `${layouts.length} label${layouts.length === 1 ? '' : 's'}`;
    return `<p class="label-stock small muted">${count} · ${escapeHtml(physicalSize(width, height, dpi))} · ${width} × ${height} dots at ${dpi} dpi</p>`;
  }

  private onAction(ev: Event): void {
    const btn = (ev.target as Element).closest('button[data-action]') as HTMLButtonElement | null;
    if (!btn) return;
    const card = btn.closest('article.doc') as HTMLElement | null;
    const entry = card ? this.entries.get(card.dataset.docId ?? '') : undefined;
    if (!entry) return;
    const doc = entry.doc;
    switch (btn.dataset.action) {
      case 'raw': {
        const raw = entry.el.querySelector('.raw') as HTMLElement;
        const open = raw.hidden === true;
        if (open && !raw.firstChild) raw.appendChild(rawTable(doc));
        raw.hidden = !open;
        btn.setAttribute('aria-expanded', String(open));
        btn.classList.toggle('active', !!open);
        break;
      }
      case 'copy':
        void busy(btn, async () => {
          // The same text as the server's `?format=text` (one renderer for both).
          const text = renderText((doc.canvases ?? []) as RenderCanvas[]);
          if (!text.trim()) { toast('This document has no text to copy.', 'info'); return; }
          await copyText(text);
          toast('Document text copied to the clipboard.', 'ok');
        });
        break;
      case 'png':
        void busy(btn, async () => {
          const stamp = doc.timestamp.replace(/[:.]/g, '-');
          const name = `${this.printer().printer.displayName.replace(/[^\w-]+/g, '_')}-${stamp}.png`;
          await downloadDocumentPng(doc, name);
          toast(`Saved ${name}.`, 'ok');
        });
        break;
    }
  }

  private async clearAll(btn: HTMLButtonElement): Promise<void> {
    const ok = await confirmDialog('Clear all documents?', `Every document of “${this.printer().printer.displayName}” will be deleted. This cannot be undone.`, 'Clear all');
    if (!ok) return;
    await busy(btn, async () => {
      await api.del(`/api/printers/${this.printer().printer.id}/documents`, 'Clearing the documents');
      this.clearLocal();
      toast('All documents cleared.', 'ok');
    });
  }

  openImport(file?: File): void {
    let fileBytes: Uint8Array | null = null;
    const text = h('textarea', { rows: 8, spellcheck: false, class: 'mono', placeholder: '1B 40 48 65 6C 6C 6F 0A 1D 56 00\n— or —\nG0BIZWxsbwodVgA=' });
    const format = h('select', null, h('option', { value: '' }, 'Detect automatically'), h('option', { value: 'Hex' }, 'Hex'), h('option', { value: 'Base64' }, 'Base64'));
    const fileInput = h('input', { type: 'file', class: 'visually-hidden' });
    const fileInfo = h('span', { class: 'muted small' }, 'No file chosen');
    const pick = h('button', { class: 'btn', type: 'button' }, 'Choose a file…');
    pick.addEventListener('click', () => fileInput.click());
    const drop = h('div', { class: 'dropzone', tabindex: 0, role: 'button', 'aria-label': 'Drop a file with raw print bytes here, or press Enter to choose one' },
      h('p', null, 'Drop a file of raw print bytes here'), h('div', { class: 'row' }, pick, fileInfo));
    drop.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); fileInput.click(); } });
    const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
    const useFile = async (f: File) => {
      try {
        fileBytes = new Uint8Array(await f.arrayBuffer());
        fileInfo.textContent = `${f.name} (${formatBytes(fileBytes.length)}) will be imported as bytes.`;
        text.value = '';
        text.disabled = true;
        format.disabled = true;
      } catch (e) {
        error.textContent = `The file could not be read: ${(e as Error).message}`;
        error.hidden = false;
      }
    };
    fileInput.addEventListener('change', () => { const f = fileInput.files?.[0]; if (f) void useFile(f); });
    drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      drop.classList.remove('over');
      const f = ev.dataTransfer?.files?.[0];
      if (f) void useFile(f);
    });
    const submit = h('button', { class: 'btn primary', type: 'submit' }, 'Import');
    const cancel = h('button', { class: 'btn', type: 'button' }, 'Cancel');
    const form = h('form', { class: 'dialog-body form' },
      h('p', { class: 'muted' }, 'The bytes are processed as if they had been printed over TCP (no status replies are sent).'),
      field('Paste hex or base64', text),
      field('Format', format),
      drop, fileInput, error,
      h('div', { class: 'actions' }, cancel, submit));
    const { close } = openDialog('Import a document', form, { wide: true });
    cancel.addEventListener('click', close);
    if (file) void useFile(file); else text.focus();
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      error.hidden = true;
      let body: { data: string; format?: string };
      if (fileBytes) {
        body = { data: bytesToBase64(fileBytes), format: 'Base64' };
      } else {
        if (!text.value.trim()) {
          error.textContent = 'Paste a hex or base64 dump, or choose a file.';
          error.hidden = false;
          return;
        }
        body = { data: text.value };
        if (format.value) body.format = format.value;
      }
      void busy(submit, async () => {
        try {
          await api.post(`/api/printers/${this.printer().printer.id}/documents/import`, 'Importing the document', body);
          close();
          toast('Imported. The document appears in a moment.', 'ok');
        } catch (e) {
          error.textContent = (e as Error).message;
          error.hidden = false;
        }
      });
    });
  }
}

export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) s += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(s);
}

function rawTable(doc: RenderedDocumentDto): HTMLElement {
  const rows: { canvas: number; hex: string; desc: string; len: number; kind: string }[] = [];
  (doc.canvases ?? []).forEach((c, ci) => {
    const items = c.items ?? [];
    const debug = items.filter((i) => i.type === 'debug');
    for (const it of debug.length ? debug : items) {
      rows.push({
        canvas: ci + 1, hex: it.commandRaw ?? '', desc: (it.commandDescription ?? []).join(' — '), len: it.lengthInBytes ?? 0,
        kind: it.type === 'debug' ? (it as { debugType?: string }).debugType ?? '' : it.type,
      });
    }
  });
  const shown = rows.slice(0, RAW_ROW_LIMIT);
  let html = `<table class="raw-table"><caption class="visually-hidden">Commands of the document</caption><thead><tr><th scope="col">#</th>`
    + `${(doc.canvases?.length ?? 0) > 1 ? '<th scope="col">Part</th>' : ''}<th scope="col">Hex</th><th scope="col">Description</th><th scope="col">Bytes</th></tr></thead><tbody>`;
  const multi = (doc.canvases?.length ?? 0) > 1;
  shown.forEach((r, i) => {
    // Stored commandRaw holds at most 64 bytes (commandRawTruncated); lengthInBytes is exact.
    const bytes = Math.max(r.hex.length / 2, r.len);
    const preview = Math.min(HEX_PREVIEW_BYTES, r.hex.length / 2);
    const hex = bytes > preview ? `${spacedHex(r.hex.slice(0, preview * 2))} … (+${bytes - preview} bytes)` : spacedHex(r.hex);
    const cls = /unknown|malformed|truncated|error/i.test(r.kind) ? ' class="raw-bad"' : '';
    html += `<tr${cls}><td>${i + 1}</td>${multi ? `<td>${r.canvas}</td>` : ''}<td class="mono hex">${escapeHtml(hex)}</td><td>${escapeHtml(r.desc)}</td><td>${r.len}</td></tr>`;
  });
  html += '</tbody></table>';
  if (rows.length > shown.length) html += `<p class="muted small">Showing the first ${shown.length} of ${rows.length} commands.</p>`;
  if (rows.length === 0) html = '<p class="muted">No commands recorded.</p>';
  const wrap = document.createElement('div');
  wrap.className = 'raw-wrap';
  wrap.innerHTML = html;
  return wrap;
}
