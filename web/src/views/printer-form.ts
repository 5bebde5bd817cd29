/** New printer / edit settings dialog. */
import { api } from '../api.ts';
import { h } from '../dom.ts';
import type { PrinterModelDto, PrinterResponseDto, PrinterWriteRequest, Protocol } from '../types.ts';
import type { UiSettingName } from '../../../src/worker/schemas/printer-settings.ts';
import { DEFAULT_MODEL_IDS } from '../../../src/engines/models/defaults.ts';
import { busy, field, newId, openDialog, toast } from '../ui.ts';
import { isLabelProtocol, physicalSize, printerDefaults, printerDpi } from '../protocols.ts';
import { PROTOCOLS, PROTOCOL_NAMES } from '../../../src/engines/protocols.ts';
import { listBridges } from './bridges.ts';

/** The form fields that follow the protocol (and, with the model picker, the model). */
export interface DefaultableFields { width: HTMLInputElement; height: HTMLInputElement; name: HTMLInputElement }

/**
 * Choosing a protocol (or a model) puts its sensible stock in the form: a 4 × 6 in label for
 * label protocols, 80 mm continuous paper for receipts. A default name follows the kind.
 */
export function applyPrinterDefaults(fields: DefaultableFields, protocol: Protocol, model?: string | null, isNew = true): void {
  const d = printerDefaults(protocol, model);
  fields.width.value = String(d.widthInDots);
  fields.height.value = d.heightInDots ? String(d.heightInDots) : '';
  if (isNew && /^(Receipt|Label) printer$/.test(fields.name.value)) fields.name.value = isLabelProtocol(protocol) ? 'Label printer' : 'Receipt printer';
  fields.width.dispatchEvent(new Event('input'));
}

/** The model list changes only with a deployment: fetched once per page load. */
let modelList: Promise<PrinterModelDto[]> | null = null;
function printerModels(): Promise<PrinterModelDto[]> {
  modelList ??= api.get<PrinterModelDto[]>('/api/printer-models', 'Loading printer models').catch((e: unknown) => {
    modelList = null;
    throw e;
  });
  return modelList;
}

function intOrNull(v: string): number | null {
  const t = v.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : NaN;
}

export function openPrinterDialog(existing: PrinterResponseDto | null, done: (p: PrinterResponseDto) => void): void {
  const s = existing?.settings;
  const name = h('input', { type: 'text', required: true, maxlength: 100, autocomplete: 'off', value: existing?.printer.displayName ?? 'Receipt printer' });
  const protocol = h('select', null, ...PROTOCOL_NAMES.map((p) => h('option', { value: p }, PROTOCOLS[p].optionLabel)));
  protocol.value = s?.protocol ?? 'EscPos';
  const width = h('input', { type: 'number', min: 8, max: 4096, step: 1, required: true, value: String(s?.widthInDots ?? 576) });
  const height = h('input', { type: 'number', min: 8, max: 65535, step: 1, value: s?.heightInDots ? String(s.heightInDots) : '', placeholder: 'continuous' });
  // The model picker lists the models of the chosen protocol; picking one fills its width.
  const model = h('select', { disabled: true }, h('option', { value: '' }, 'Loading models\u2026'));
  let models: PrinterModelDto[] = [];
  const fillModels = (selected: string) => {
    const speaking = models.filter((m) => (m.protocols as string[]).includes(protocol.value));
    model.replaceChildren(...speaking.map((m) => h('option', { value: m.id }, `${m.name} (${m.dpi} dpi)`)));
    model.value = speaking.some((m) => m.id === selected) ? selected : DEFAULT_MODEL_IDS[protocol.value as Protocol];
    model.disabled = speaking.length === 0;
  };
  printerModels().then((list) => {
    models = list;
    fillModels(s?.model ?? DEFAULT_MODEL_IDS[protocol.value as Protocol]);
  }).catch(() => { model.replaceChildren(h('option', { value: '' }, 'Default model')); });
  model.addEventListener('change', () => applyPrinterDefaults({ width, height, name }, protocol.value as Protocol, model.value, !existing));
  // Which bridge serves the port: the deployment's shared one, or one of the workspace's sites.
  const bridge = h('select', null, h('option', { value: '' }, 'Shared bridge of this deployment'));
  let bridgesLoaded = false;
  listBridges().then((list) => {
    for (const b of list) bridge.add(h('option', { value: b.id }, `${b.name} (${b.publicHost})`));
    bridge.value = s?.bridgeId ?? '';
    bridgesLoaded = true;
  }).catch(() => { /* the shared bridge stays the only choice */ });
  const emulate = h('input', { type: 'checkbox' });
  emulate.checked = s?.emulateBufferCapacity ?? false;
  const capacity = h('input', { type: 'number', min: 1, step: 1, value: s?.bufferMaxCapacity ? String(s.bufferMaxCapacity) : '4096' });
  const drain = h('input', { type: 'number', min: 1, step: 'any', value: s?.bufferDrainRate ? String(s.bufferDrainRate) : '1024' });
  // Cloud printing: the printer polls a CloudPRNT (Star) or Server Direct Print (Epson) server.
  const cloudKind = h('select', null, h('option', { value: '' }, 'Off: the printer polls no server'),
    h('option', { value: 'StarCloudPrnt' }, 'Star CloudPRNT (StarPRNT, Star Line)'),
    h('option', { value: 'EpsonServerDirectPrint' }, 'Epson Server Direct Print (ESC/POS)'));
  cloudKind.value = s?.cloudPrint?.kind ?? '';
  const cloudUrl = h('input', { type: 'url', maxlength: 2000, placeholder: 'https://your-server/cloudprnt', value: s?.cloudPrint?.url ?? '' });
  const cloudInterval = h('input', { type: 'number', min: 1, max: 60, step: 1, value: String(s?.cloudPrint?.intervalSeconds ?? 5) });
  const cloudFields = h('fieldset', { class: 'sub' }, h('legend', null, 'Cloud printing'),
    field('Server kind', cloudKind), field('Server URL', cloudUrl), field('Poll interval (seconds)', cloudInterval, '1 to 60'));
  const bufferFields = h('fieldset', { class: 'sub' }, h('legend', null, 'Buffer'),
    field('Capacity (bytes)', capacity), field('Drain rate (bytes per second)', drain));
  const syncBuffer = () => { bufferFields.disabled = !emulate.checked; };
  emulate.addEventListener('change', syncBuffer);
  syncBuffer();
  protocol.addEventListener('change', () => {
    // The protocol's default model first: its dpi decides the stock's dots and physical size.
    if (models.length) fillModels(DEFAULT_MODEL_IDS[protocol.value as Protocol]);
    applyPrinterDefaults({ width, height, name }, protocol.value as Protocol, model.value || DEFAULT_MODEL_IDS[protocol.value as Protocol], !existing);
  });
  // The stock's physical size, live, so dots are not a guess.
  const size = h('p', { class: 'muted small stock-size', 'aria-live': 'polite' });
  const showSize = () => {
    const w = intOrNull(width.value);
    const ht = intOrNull(height.value);
    size.textContent = w && Number.isInteger(w) && (ht === null || Number.isInteger(ht))
      ? `${isLabelProtocol(protocol.value) ? 'Label' : 'Paper'}: ${physicalSize(w, ht, printerDpi({ protocol: protocol.value, model: model.value }))} at ${printerDpi({ protocol: protocol.value, model: model.value })} dpi`
      : '';
  };
  width.addEventListener('input', showSize);
  height.addEventListener('input', showSize);
  showSize();
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const submit = h('button', { class: 'btn primary', type: 'submit' }, existing ? 'Save settings' : 'Create printer');
  const cancel = h('button', { class: 'btn', type: 'button' }, 'Cancel');
  const form = h('form', { class: 'dialog-body form' },
    field('Name', name),
    field('Protocol', protocol),
    field('Model', model, 'Which printer to emulate: its code tables, fonts and identity'),
    field('Bridge', bridge, 'The tcp-bridge that listens on the printer’s port (Settings → Bridges)'),
    h('div', { class: 'row' },
      field('Width (dots)', width, 'ESC/POS 80 mm: 576; EPL 4 in: 812'),
      field('Height (dots)', height, 'Empty for continuous paper; EPL 6 in: 1218')),
    size,
    h('label', { class: 'toggle' }, emulate, h('span', null, 'Emulate a limited receive buffer (applies TCP back-pressure)')),
    bufferFields,
    cloudFields,
    existing ? h('p', { class: 'muted small' }, `The TCP port (${existing.settings.tcpListenPort}) stays the same.`) : null,
    error,
    h('div', { class: 'actions' }, cancel, submit));
  const { close } = openDialog(existing ? 'Edit printer settings' : 'New printer', form);
  cancel.addEventListener('click', close);
  name.focus();
  name.select();
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    error.hidden = true;
    const w = intOrNull(width.value);
    const ht = intOrNull(height.value);
    const problems: string[] = [];
    if (!name.value.trim()) problems.push('Give the printer a name.');
    if (w === null || !Number.isInteger(w) || w < 8) problems.push('Width must be a whole number of dots (at least 8).');
    if (ht !== null && (!Number.isInteger(ht) || ht < 8)) problems.push('Height must be empty or a whole number of dots (at least 8).');
    const cap = intOrNull(capacity.value);
    const rate = intOrNull(drain.value);
    if (emulate.checked && (cap === null || !(cap > 0) || !Number.isInteger(cap))) problems.push('Buffer capacity must be a whole number of bytes.');
    if (emulate.checked && (rate === null || !(rate > 0))) problems.push('Drain rate must be a positive number of bytes per second.');
    const interval = intOrNull(cloudInterval.value);
    if (cloudKind.value && !/^https?:\/\//i.test(cloudUrl.value.trim())) problems.push('The cloud print server URL must start with http:// or https://.');
    if (cloudKind.value && (interval === null || !Number.isInteger(interval) || interval < 1 || interval > 60)) problems.push('The poll interval must be a whole number of seconds from 1 to 60.');
    if (problems.length) {
      error.textContent = problems.join(' ');
      error.hidden = false;
      return;
    }
    const body: PrinterWriteRequest = {
      printer: { id: existing?.printer.id ?? newId(), displayName: name.value.trim() },
      // Every setting the form edits (`ui` in schemas/printer-settings.ts); undefined: left out of the JSON.
      settings: {
        protocol: protocol.value as Protocol,
        model: model.value || undefined,
        widthInDots: w as number,
        heightInDots: ht,
        emulateBufferCapacity: emulate.checked,
        bufferMaxCapacity: emulate.checked ? cap : null,
        bufferDrainRate: emulate.checked ? rate : null,
        // Until the list is here the request leaves bridgeId out (unchanged), never moving a printer.
        bridgeId: bridgesLoaded ? bridge.value || null : undefined,
        cloudPrint: cloudKind.value
          ? { kind: cloudKind.value as 'StarCloudPrnt' | 'EpsonServerDirectPrint', url: cloudUrl.value.trim(), intervalSeconds: interval as number }
          : null,
      } satisfies { [K in UiSettingName]-?: unknown },
    };
    void busy(submit, async () => {
      try {
        const res = existing
          ? await api.put<PrinterResponseDto>(`/api/printers/${existing.printer.id}`, 'Saving the printer settings', body)
          : await api.post<PrinterResponseDto>('/api/printers', 'Creating the printer', body);
        close();
        toast(existing ? 'Printer settings saved.' : `Printer created on port ${res.settings.tcpListenPort}.`, 'ok');
        done(res);
      } catch (e) {
        error.textContent = (e as Error).message;
        error.hidden = false;
      }
    });
  });
}
