/** Operations panel of a printer: flags, drawers, buffer gauge, NV images, settings, delete. */
import { api } from '../api.ts';
import { formatBytes, h, replace } from '../dom.ts';
import type {
  DrawerState, OperationalFlags, PrinterNvImageResponseDto, PrinterOperationalFlagsDto, PrinterResponseDto, PrinterRuntimeStatusDto,
} from '../types.ts';
import { busy, confirmDialog, field, showError, toast, toggle } from '../ui.ts';
import { openPrinterDialog } from './printer-form.ts';
import { isLabelProtocol } from '../protocols.ts';

const FLAGS: { key: keyof OperationalFlags; label: string; hint: string }[] = [
  { key: 'isPaperOut', label: 'Paper out', hint: 'DLE EOT 4 reports paper end' },
  { key: 'isPaperNearEnd', label: 'Paper near end', hint: 'DLE EOT 4 reports near end' },
  { key: 'isCoverOpen', label: 'Cover open', hint: 'DLE EOT 2 reports the cover' },
  { key: 'isOffline', label: 'Offline', hint: 'DLE EOT 1 reports offline' },
  { key: 'hasError', label: 'Error', hint: 'DLE EOT 3 reports a recoverable error' },
];

const DRAWER_WORDS: Record<DrawerState, string> = {
  Closed: 'Closed',
  OpenedManually: 'Opened manually',
  OpenedByCommand: 'Opened by command',
};

export interface OperationsHost {
  state(): PrinterResponseDto;
  merge(patch: { operationalFlags?: Partial<PrinterOperationalFlagsDto>; runtimeStatus?: Partial<PrinterRuntimeStatusDto>; whole?: PrinterResponseDto }): void;
  deleted(): void;
  /** Closes the controls panel (narrow screens). */
  close(): void;
}

export class Operations {
  readonly el: HTMLElement;
  private flagInputs = new Map<keyof OperationalFlags, HTMLInputElement>();
  private drawerEls: { state: HTMLElement; open: HTMLButtonElement; close: HTMLButtonElement }[] = [];
  private gauge: HTMLElement;
  private gaugeBar: HTMLElement;
  private gaugeText: HTMLElement;
  private nvList: HTMLElement;
  /** Receipt-printer hardware that label printers do not have. */
  private receiptOnly: HTMLElement[];
  private conditionsHint: HTMLElement;
  private pending = new Set<string>();
  /** Per flag, the state the user chose last while its request was running. */
  private wanted = new Map<keyof OperationalFlags, boolean>();

  constructor(private host: OperationsHost) {
    const flagsBox = h('div', { class: 'flags' });
    for (const f of FLAGS) {
      const t = toggle(f.label, false, (checked, input) => void this.setFlag(f.key, checked, input));
      t.el.title = f.hint;
      t.input.dataset.flag = f.key;
      this.flagInputs.set(f.key, t.input);
      flagsBox.appendChild(t.el);
    }

    const drawers = h('div', { class: 'drawers' });
    for (const n of [1, 2] as const) {
      const state = h('span', { class: 'drawer-state', 'aria-live': 'polite', dataset: { drawer: String(n) } });
      const open = h('button', { class: 'btn small', type: 'button' }, 'Open');
      const close = h('button', { class: 'btn small', type: 'button' }, 'Close');
      open.addEventListener('click', () => void this.setDrawer(n, 'OpenedManually', open));
      close.addEventListener('click', () => void this.setDrawer(n, 'Closed', close));
      this.drawerEls.push({ state, open, close });
      drawers.appendChild(h('div', { class: 'drawer' }, h('span', { class: 'drawer-name' }, `Drawer ${n}`), state, h('span', { class: 'drawer-buttons' }, open, close)));
    }

    this.gaugeBar = h('div', { class: 'gauge-bar' });
    this.gauge = h('div', { class: 'gauge', role: 'meter', 'aria-label': 'Receive buffer fill', 'aria-valuemin': '0' }, this.gaugeBar);
    this.gaugeText = h('p', { class: 'small muted gauge-text' });

    this.nvList = h('ul', { class: 'nv-list', role: 'list' });
    const slot = h('input', { type: 'number', min: 1, max: 255, step: 1, value: '1', required: true, class: 'narrow' });
    const file = h('input', { type: 'file', accept: 'image/png,image/bmp,.png,.bmp', required: true });
    const upload = h('button', { class: 'btn small', type: 'submit' }, 'Upload');
    const nvForm = h('form', { class: 'nv-form' }, h('div', { class: 'row' }, field('Slot (1–255)', slot), field('PNG or BMP', file)), upload);
    nvForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const n = Number(slot.value);
      const f = file.files?.[0];
      if (!Number.isInteger(n) || n < 1 || n > 255) { toast('The NV image slot must be a whole number from 1 to 255.', 'error'); return; }
      if (!f) { toast('Choose a PNG or BMP file to upload.', 'error'); return; }
      void busy(upload, async () => {
        const fd = new FormData();
        fd.append('file', f, f.name);
        await api.request<PrinterNvImageResponseDto>('PUT', `/api/printers/${this.id}/nv-images/${n}`, `Uploading the NV image to slot ${n}`, { body: fd });
        toast(`NV image stored in slot ${n}.`, 'ok');
        file.value = '';
        await this.loadNvImages();
      });
    });

    const edit = h('button', { class: 'btn', type: 'button' }, 'Edit settings…');
    edit.addEventListener('click', () => openPrinterDialog(this.host.state(), (p) => this.host.merge({ whole: p })));
    const del = h('button', { class: 'btn danger', type: 'button' }, 'Delete printer');
    del.addEventListener('click', () => void this.deletePrinter(del));

    this.conditionsHint = h('p', { class: 'small muted' });
    const drawersSection = section('Cash drawers', drawers);
    const nvSection = section('NV images', this.nvList, nvForm);
    this.receiptOnly = [drawersSection, nvSection];
    const close = h('button', { class: 'btn small controls-close', type: 'button' }, 'Close controls');
    close.addEventListener('click', () => this.host.close());
    this.el = h('aside', { class: 'operations', tabindex: -1, 'aria-label': 'Printer controls' },
      close,
      section('Conditions', this.conditionsHint, flagsBox),
      drawersSection,
      section('Receive buffer', this.gauge, this.gaugeText),
      nvSection,
      section('Printer', h('div', { class: 'row wrap' }, edit, del)));
    this.update();
    void this.loadNvImages();
  }

  private get id(): string {
    return this.host.state().printer.id;
  }

  update(): void {
    const s = this.host.state();
    const label = isLabelProtocol(s.settings.protocol);
    for (const el of this.receiptOnly) el.hidden = label;
    this.conditionsHint.textContent = label
      ? 'The printer\u2019s status replies report these.'
      : 'Status replies (DLE EOT, GS r, ASB) report these.';
    const flags = s.operationalFlags;
    for (const [key, input] of this.flagInputs) {
      if (this.pending.has(key)) continue;
      input.checked = !!flags?.[key];
    }
    const rt = s.runtimeStatus;
    [rt?.drawer1State, rt?.drawer2State].forEach((st, i) => {
      const d = this.drawerEls[i];
      const value = (st ?? 'Closed') as DrawerState;
      d.state.textContent = DRAWER_WORDS[value] ?? value;
      d.state.dataset.state = value;
      d.open.disabled = value !== 'Closed';
      d.close.disabled = value === 'Closed';
    });
    const buffered = rt?.bufferedBytes ?? 0;
    const max = s.settings.emulateBufferCapacity ? s.settings.bufferMaxCapacity ?? 0 : 0;
    const pct = max > 0 ? Math.min(100, (buffered / max) * 100) : 0;
    this.gaugeBar.style.width = `${pct}%`;
    this.gauge.dataset.level = pct >= 90 ? 'full' : pct >= 60 ? 'high' : 'ok';
    this.gauge.setAttribute('aria-valuenow', String(buffered));
    if (max > 0) this.gauge.setAttribute('aria-valuemax', String(max)); else this.gauge.removeAttribute('aria-valuemax');
    const delta = rt?.bufferedBytesDeltaBps;
    this.gaugeText.textContent = s.settings.emulateBufferCapacity
      ? `${formatBytes(buffered)} of ${formatBytes(max)} buffered${delta ? ` · ${delta > 0 ? '+' : ''}${delta} B/s` : ''} · drains ${s.settings.bufferDrainRate ?? '?'} B/s`
      : `Buffer emulation is off (${formatBytes(buffered)} buffered). Turn it on in the settings.`;
  }

  /**
   * Sends the switch's state. The switch stays enabled and focused while a request runs (a
   * disabled switch would drop keyboard focus to the page); a toggle meanwhile is sent as soon
   * as the running request is done, so the last state the user chose is the one that sticks.
   */
  private async setFlag(key: keyof OperationalFlags, checked: boolean, input: HTMLInputElement): Promise<void> {
    this.wanted.set(key, checked);
    if (this.pending.has(key)) return;
    this.pending.add(key);
    input.setAttribute('aria-busy', 'true');
    try {
      let sent: boolean | undefined;
      while (this.wanted.get(key) !== sent) {
        const value = this.wanted.get(key)!;
        const res = await api.patch<PrinterOperationalFlagsDto>(`/api/printers/${this.id}/operational-flags`, `Setting “${FLAGS.find((f) => f.key === key)?.label}”`, { [key]: value });
        sent = value;
        this.host.merge({ operationalFlags: res ?? { [key]: value } });
      }
    } catch (e) {
      showError(e);
    } finally {
      // The switch shows the server's state again (the last one sent, or the old one on failure).
      this.pending.delete(key);
      this.wanted.delete(key);
      input.removeAttribute('aria-busy');
      this.update();
    }
  }

  private async setDrawer(n: 1 | 2, state: 'Closed' | 'OpenedManually', btn: HTMLButtonElement): Promise<void> {
    await busy(btn, async () => {
      const res = await api.patch<PrinterRuntimeStatusDto>(`/api/printers/${this.id}/drawers`, `${state === 'Closed' ? 'Closing' : 'Opening'} drawer ${n}`, { [`drawer${n}State`]: state });
      this.host.merge({ runtimeStatus: res ?? { [`drawer${n}State`]: state } });
    });
    this.update();
  }

  async loadNvImages(): Promise<void> {
    try {
      const items = await api.get<PrinterNvImageResponseDto[]>(`/api/printers/${this.id}/nv-images`, 'Loading NV images');
      const list = [...(items ?? [])].sort((a, b) => a.slot - b.slot);
      if (list.length === 0) {
        replace(this.nvList, h('li', { class: 'muted small' }, 'No NV images stored. Upload one, or define one over TCP (FS q, GS ( L).'));
        return;
      }
      replace(this.nvList, ...list.map((img) => {
        const del = h('button', { class: 'btn small danger-outline', type: 'button', 'aria-label': `Delete NV image in slot ${img.slot}` }, 'Delete');
        del.addEventListener('click', () => void (async () => {
          if (!(await confirmDialog(`Delete NV image ${img.slot}?`, `Slot ${img.slot} will be empty; FS p ${img.slot} then prints nothing.`, 'Delete'))) return;
          await busy(del, async () => {
            await api.del(`/api/printers/${this.id}/nv-images/${img.slot}`, `Deleting NV image ${img.slot}`);
            toast(`NV image ${img.slot} deleted.`, 'ok');
            await this.loadNvImages();
          });
        })());
        return h('li', { class: 'nv-item' },
          h('div', { class: 'nv-preview' }, h('img', { src: img.mediaUrl, alt: `NV image ${img.slot}`, loading: 'lazy' })),
          h('div', null, h('strong', null, `Slot ${img.slot}`), h('div', { class: 'small muted' }, `${img.widthInDots} × ${img.heightInDots} dots`)),
          del);
      }));
    } catch (e) {
      replace(this.nvList, h('li', { class: 'error-text', role: 'alert' }, (e as Error).message));
    }
  }

  private async deletePrinter(btn: HTMLButtonElement): Promise<void> {
    const p = this.host.state();
    if (!(await confirmDialog('Delete this printer?', `“${p.printer.displayName}” stops listening on port ${p.settings.tcpListenPort} and disappears with its documents. The port is never reused.`, 'Delete printer'))) return;
    await busy(btn, async () => {
      await api.del(`/api/printers/${p.printer.id}`, 'Deleting the printer');
      toast(`Printer “${p.printer.displayName}” deleted.`, 'ok');
      this.host.deleted();
    });
  }
}

function section(title: string, ...children: (Node | null)[]): HTMLElement {
  return h('section', { class: 'ops-section' }, h('h3', null, title), ...children);
}
