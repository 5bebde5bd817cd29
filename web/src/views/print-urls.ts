/**
 * A printer's addresses for each way a POS can print to it (raw TCP, Epson ePOS-Print, Star
 * WebPRNT, Zebra /pstprnt over HTTP and HTTPS, LPD on its bridge's LPD port), each with a copy
 * button. The Worker composes them (GET /api/printers/{id}/addresses) from what the printer's
 * bridge reports.
 */
import type { z } from 'zod';
import type { PrinterAddressesDto } from '../../../src/worker/routes/printer-addresses.ts';
import { api } from '../api.ts';
import { copyText, h } from '../dom.ts';
import { busy, showError, toast } from '../ui.ts';

type Addresses = z.infer<typeof PrinterAddressesDto>;

function row({ label, url }: { label: string; url: string }): HTMLElement {
  const copy = h('button', { class: 'btn small', type: 'button', 'aria-label': `Copy the ${label} address` }, 'Copy');
  copy.addEventListener('click', () => void busy(copy, async () => {
    await copyText(url);
    toast(`${label} address copied.`, 'ok');
  }));
  return h('li', { class: 'print-url' }, h('span', { class: 'muted small' }, label), h('code', null, url), copy);
}

export function printUrls(printerId: string): HTMLElement {
  const list = h('ul', null);
  const lpdNote = h('p', { class: 'muted small' });
  api.get<Addresses>(`/api/printers/${printerId}/addresses`, 'Loading the printer\u2019s addresses').then((a) => {
    list.replaceChildren(...a.addresses.map(row));
    lpdNote.textContent = a.lpdPort === null
      ? 'No LPD address: the printer\u2019s bridge serves no LPD (LPD_PORT=0) or has not connected yet.'
      : `LPD: the printer\u2019s bridge listens on port ${a.lpdPort}; the queue name is the printer\u2019s port, id or name.`;
  }, showError);
  return h('details', { class: 'print-urls' },
    h('summary', null, 'Addresses to point a POS at'),
    list,
    h('p', { class: 'muted small' }, 'HTTPS uses the bridge\u2019s own certificate: open the HTTPS address once in the browser and accept it.'),
    lpdNote);
}
