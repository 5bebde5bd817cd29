/** Printer view: header (address, state, start/stop, pin), documents and operations. */
import { cloudPrintStatusText } from './cloud-print-status.ts';
import { api, ApiError } from '../api.ts';
import { copyText, h } from '../dom.ts';
import { afterPaint, perf } from '../perf.ts';
import { navigate } from '../router.ts';
import { openStream, type StreamHandle } from '../sse.ts';
import type { PrinterOperationalFlagsDto, PrinterResponseDto, PrinterStatusUpdateDto, RenderedDocumentDto } from '../types.ts';
import { busy, showError, toast } from '../ui.ts';
import { DocumentList } from './documents.ts';
import { Operations } from './operations.ts';
import { printUrls } from './print-urls.ts';
import type { Sidebar } from './sidebar.ts';
import { PROTOCOLS } from '../../../src/engines/protocols.ts';
import { isLabelProtocol, physicalSize, printerDpi } from '../protocols.ts';

/** The operations panel's id: the shell's "Skip to printer controls" link targets it. */
export const PRINTER_CONTROLS_ID = 'printer-controls';

export class PrinterView {
  readonly el: HTMLElement;
  private state!: PrinterResponseDto;
  private docs!: DocumentList;
  private ops!: Operations;
  private streams: StreamHandle[] = [];
  private destroyed = false;
  private header = {
    name: h('h1', { class: 'printer-title', tabindex: -1 }),
    chip: h('span', { class: 'chip' }),
    stock: h('span', { class: 'chip stock' }),
    state: h('span', { class: 'state', role: 'status' }),
    address: h('code', { class: 'address' }),
    cloud: h('p', { class: 'muted small cloud-print-status', role: 'status', hidden: true }),
    startStop: h('button', { class: 'btn', type: 'button' }),
    pin: h('button', { class: 'btn', type: 'button' }),
    // Narrow screens: documents come first and the controls open as a panel over them.
    controls: h('button', { class: 'btn controls-toggle', type: 'button', 'aria-expanded': 'false', 'aria-controls': PRINTER_CONTROLS_ID }, 'Printer controls'),
  };
  /** The addresses to point a POS at (print-urls.ts), for the printer's protocol and port. */
  private readonly urlsSlot = h('div', { class: 'print-urls-slot' });
  private unsubscribeSidebar: (() => void) | null = null;
  private loaded = false;

  constructor(private id: string, private sidebar: Sidebar) {
    this.el = h('div', { class: 'printer-view' }, h('p', { class: 'muted loading' }, 'Loading printer…'));
    void this.load();
  }

  private async load(): Promise<void> {
    const t0 = performance.now();
    // Both requests at once: documents render as soon as they arrive, the header and the
    // operations as soon as the printer does.
    const firstPage = DocumentList.fetchFirst(this.id);
    firstPage.catch(() => undefined);
    const printerRequest = api.get<PrinterResponseDto>(`/api/printers/${this.id}`, 'Loading the printer');
    printerRequest.catch(() => undefined);
    const known = this.sidebar.printers.find((s) => s.printer.id === this.id)?.printer;
    this.state = {
      printer: known ?? {
        id: this.id, displayName: '', ownerWorkspaceId: '', isPinned: false,
        lastDocumentReceivedAt: null, lastApiReadAt: null, lastWebReadAt: null,
      },
      settings: { protocol: 'EscPos', model: '', multiByteEncoding: 'None', widthInDots: 576, tcpListenPort: 0, emulateBufferCapacity: false, publicHost: '' },
    };
    this.docs = new DocumentList(() => this.state);
    const copy = h('button', { class: 'btn small', type: 'button', 'aria-label': 'Copy host and port' }, 'Copy');
    copy.addEventListener('click', () => void busy(copy, async () => {
      await copyText(`${this.state.settings.publicHost}:${this.state.settings.tcpListenPort}`);
      toast('Host and port copied.', 'ok');
    }));
    this.header.startStop.addEventListener('click', () => void this.startStop());
    this.header.pin.addEventListener('click', () => void this.togglePin());
    const tools = h('div', { class: 'printer-head-tools', hidden: true },
      h('span', { class: 'address-box' }, h('span', { class: 'muted small' }, 'TCP'), this.header.address, copy),
      this.header.startStop, this.header.pin);
    const head = h('header', { class: 'printer-head' },
      h('div', { class: 'printer-head-main' }, this.header.name, this.header.chip, this.header.stock, this.header.state), tools, this.header.controls, this.header.cloud, this.urlsSlot);
    const opsSlot = h('aside', { class: 'operations', id: PRINTER_CONTROLS_ID, tabindex: -1, 'aria-label': 'Printer controls' }, h('p', { class: 'muted' }, 'Loading…'));
    this.header.controls.addEventListener('click', () => this.showControls(this.header.controls.getAttribute('aria-expanded') !== 'true'));
    this.el.addEventListener('reveal-controls', () => this.showControls(true));
    this.el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && this.header.controls.getAttribute('aria-expanded') === 'true') {
        this.showControls(false);
        this.header.controls.focus();
      }
    });
    const layout = h('div', { class: 'printer-layout' }, this.docs.el, opsSlot);
    this.header.name.textContent = this.state.printer.displayName || 'Loading printer…';
    this.el.replaceChildren(head, layout);
    this.header.name.focus({ preventScroll: true });

    const documentsShown = this.docs.loadFirst(firstPage).then((r) => {
      if (this.destroyed) return;
      afterPaint(() => {
        const round = (v: number) => Math.round(v * 10) / 10;
        perf.firstRender.push({
          printerId: this.id, documents: r.count, ms: round(performance.now() - t0), sinceNavigation: Math.round(performance.now()),
          dataWaitMs: round(r.waitMs), renderMs: round(r.renderMs),
        });
      });
    });

    let printer: PrinterResponseDto;
    try {
      printer = await printerRequest;
    } catch (e) {
      if (this.destroyed) return;
      const notFound = e instanceof ApiError && e.status === 404;
      this.el.replaceChildren(h('div', { class: 'panel' },
        h('h1', null, notFound ? 'Printer not found' : 'The printer could not be loaded'),
        h('p', { class: 'error-text', role: 'alert' }, notFound ? 'This printer does not exist in your workspace (it may have been deleted).' : (e as Error).message),
        h('a', { href: '/', 'data-link': true, class: 'btn' }, 'Back to the overview')));
      return;
    }
    if (this.destroyed) return;
    this.state = printer;
    this.ops = new Operations({
      state: () => this.state,
      merge: (p) => this.merge(p),
      deleted: () => { this.sidebar.remove(this.id); navigate('/'); },
      close: () => { this.showControls(false); this.header.controls.focus(); },
    });
    this.ops.el.id = PRINTER_CONTROLS_ID;
    opsSlot.replaceWith(this.ops.el);
    tools.hidden = false;
    this.loaded = true;
    this.render();
    this.docs.refreshEmpty();

    try {
      await documentsShown;
    } catch (e) {
      if (!this.destroyed) showError(e);
    }
    if (this.destroyed) return;
    this.openStreams();
    this.unsubscribeSidebar = this.sidebar.onSnapshot((s) => {
      if (s.printer.id !== this.id) return;
      this.state = { ...this.state, printer: { ...this.state.printer, ...s.printer } };
      if (s.runtimeStatus?.state) this.state.runtimeStatus = { ...(this.state.runtimeStatus ?? { printerId: this.id, updatedAt: '' }), state: s.runtimeStatus.state } as PrinterResponseDto['runtimeStatus'];
      this.render();
    });
  }

  private openStreams(): void {
    this.streams.push(openStream(`/api/printers/${this.id}/runtime/stream`, {
      events: { status: (u: PrinterStatusUpdateDto) => this.applyStatus(u) },
      onReopen: () => void this.refreshPrinter(),
      onError: (m) => toast(m, 'error'),
    }));
    // Status polls come too (the list leaves them out): the count of them stays current.
    this.streams.push(openStream(`/api/printers/${this.id}/documents/canvas/stream`, {
      events: {
        documentCanvasReady: (doc: RenderedDocumentDto, ev: MessageEvent) => {
          const t0 = ev.timeStamp > 0 && ev.timeStamp <= performance.now() ? ev.timeStamp : performance.now();
          if (doc.printerId && doc.printerId !== this.id) return;
          if (this.docs.prepend(doc)) {
            afterPaint(() => perf.documentPaint.push({ documentId: doc.id, ms: Math.round((performance.now() - t0) * 10) / 10 }));
          }
        },
      },
      onState: (st) => this.docs.setLive(st === 'live' ? '● live' : st === 'closed' ? '' : `${st}…`, st),
      onReopen: () => void this.docs.catchUp(),
      onFirstOpen: () => void this.docs.catchUp(),
      onError: (m) => toast(m, 'error'),
    }));
  }

  /** Opens or closes the controls panel (only a panel on narrow screens; always shown on wide ones). */
  private showControls(open: boolean): void {
    this.header.controls.setAttribute('aria-expanded', String(open));
    this.el.querySelector(`#${PRINTER_CONTROLS_ID}`)?.classList.toggle('open', open);
  }

  private async refreshPrinter(): Promise<void> {
    try {
      this.merge({ whole: await api.get<PrinterResponseDto>(`/api/printers/${this.id}`, 'Refreshing the printer') });
    } catch (e) {
      showError(e);
    }
  }

  private applyStatus(u: PrinterStatusUpdateDto): void {
    if (u.printerId && u.printerId !== this.id) return;
    const next: PrinterResponseDto = { ...this.state };
    if (u.printer) next.printer = { ...next.printer, ...u.printer };
    if (u.settings) next.settings = { ...next.settings, ...u.settings };
    if (u.operationalFlags) next.operationalFlags = { ...(next.operationalFlags ?? {}), ...u.operationalFlags } as PrinterOperationalFlagsDto;
    if (u.runtime) {
      next.runtimeStatus = { ...(next.runtimeStatus ?? { printerId: this.id }), ...u.runtime } as PrinterResponseDto['runtimeStatus'];
      // A poll that went well omits the error: it is cleared, not kept from the last one.
      if (u.runtime.cloudPrintLastPollAt && !u.runtime.cloudPrintLastError && next.runtimeStatus) delete next.runtimeStatus.cloudPrintLastError;
    }
    const drawerKick = (['drawer1State', 'drawer2State'] as const).find((k) => u.runtime?.[k] === 'OpenedByCommand' && this.state.runtimeStatus?.[k] !== 'OpenedByCommand');
    this.state = next;
    this.render();
    if (drawerKick) toast(`The POS opened drawer ${drawerKick === 'drawer1State' ? 1 : 2} (drawer kick command).`, 'info');
  }

  private merge(p: Parameters<ConstructorParameters<typeof Operations>[0]['merge']>[0]): void {
    if (p.whole) this.state = { ...this.state, ...p.whole };
    if (p.operationalFlags) this.state = { ...this.state, operationalFlags: { ...(this.state.operationalFlags ?? {}), ...p.operationalFlags } as PrinterOperationalFlagsDto };
    if (p.runtimeStatus) this.state = { ...this.state, runtimeStatus: { ...(this.state.runtimeStatus ?? {}), ...p.runtimeStatus } as PrinterResponseDto['runtimeStatus'] };
    this.render();
  }

  private render(): void {
    if (!this.loaded) return;
    const s = this.state;
    const hd = this.header;
    hd.name.textContent = s.printer.displayName || '(unnamed printer)';
    document.title = `${s.printer.displayName} · Slipstream`;
    const label = isLabelProtocol(s.settings.protocol);
    const dpi = printerDpi(s.settings);
    hd.chip.textContent = `${PROTOCOLS[s.settings.protocol].displayName} · ${s.settings.widthInDots}${s.settings.heightInDots ? `×${s.settings.heightInDots}` : ''} dots`;
    hd.stock.textContent = label
      ? `Label stock ${physicalSize(s.settings.widthInDots, s.settings.heightInDots, dpi)} at ${dpi} dpi`
      : `Paper ${physicalSize(s.settings.widthInDots, s.settings.heightInDots, dpi)}`;
    this.el.classList.toggle('label-printer', label);
    const state = s.runtimeStatus?.state ?? 'Unknown';
    hd.state.textContent = state;
    hd.state.className = `state state-${state.toLowerCase()}`;
    hd.address.textContent = `${s.settings.publicHost}:${s.settings.tcpListenPort}`;
    const cloud = cloudPrintStatusText(s);
    hd.cloud.hidden = !cloud;
    hd.cloud.textContent = cloud?.text ?? '';
    hd.cloud.classList.toggle('error-text', !!cloud?.isError);
    const urlsKey = `${s.settings.protocol} ${s.settings.publicHost} ${s.settings.tcpListenPort}`;
    if (this.urlsSlot.dataset.key !== urlsKey) {
      this.urlsSlot.dataset.key = urlsKey;
      this.urlsSlot.replaceChildren(printUrls(this.id));
    }
    const target = s.operationalFlags?.targetState ?? (state === 'Stopped' ? 'Stopped' : 'Started');
    hd.startStop.textContent = target === 'Stopped' ? 'Start' : 'Stop';
    hd.startStop.dataset.action = target === 'Stopped' ? 'start' : 'stop';
    hd.startStop.className = target === 'Stopped' ? 'btn primary' : 'btn';
    hd.pin.textContent = s.printer.isPinned ? 'Unpin' : 'Pin';
    hd.pin.setAttribute('aria-pressed', String(!!s.printer.isPinned));
    this.ops.update();
  }

  private async startStop(): Promise<void> {
    const targetState = this.header.startStop.dataset.action === 'start' ? 'Started' : 'Stopped';
    await busy(this.header.startStop, async () => {
      const res = await api.patch<PrinterOperationalFlagsDto>(`/api/printers/${this.id}/operational-flags`, targetState === 'Started' ? 'Starting the printer' : 'Stopping the printer', { targetState });
      this.merge({ operationalFlags: res ?? { targetState } });
      toast(targetState === 'Started' ? 'Printer started.' : 'Printer stopped: the TCP port no longer accepts jobs.', 'ok');
    });
    this.render();
  }

  private async togglePin(): Promise<void> {
    const isPinned = !this.state.printer.isPinned;
    await busy(this.header.pin, async () => {
      const res = await api.post<PrinterResponseDto>(`/api/printers/${this.id}/pin`, isPinned ? 'Pinning the printer' : 'Unpinning the printer', { isPinned });
      this.merge({ whole: res ?? { ...this.state, printer: { ...this.state.printer, isPinned } } });
      this.sidebar.upsert({ printer: this.state.printer, runtimeStatus: this.state.runtimeStatus });
    });
  }

  destroy(): void {
    this.destroyed = true;
    for (const s of this.streams) s.close();
    this.streams = [];
    this.docs?.destroy();
    this.unsubscribeSidebar?.();
  }
}
