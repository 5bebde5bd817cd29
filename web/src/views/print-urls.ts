/**
 * A printer's addresses for each way a POS can print to it (raw TCP, Epson ePOS-Print, Star
 * WebPRNT, Zebra /pstprnt over HTTP and HTTPS, LPD), each with a copy button.
 */
import { copyText, h } from '../dom.ts';
import { busy, toast } from '../ui.ts';
import { printerEndpoints } from '../../../src/shared/transports.ts';

export function printUrls(protocol: string, host: string, port: number): HTMLElement {
  const rows = printerEndpoints(protocol, host, port).map(({ label, url }) => {
    const copy = h('button', { class: 'btn small', type: 'button', 'aria-label': `Copy the ${label} address` }, 'Copy');
    copy.addEventListener('click', () => void busy(copy, async () => {
      await copyText(url);
      toast(`${label} address copied.`, 'ok');
    }));
    return h('li', { class: 'print-url' }, h('span', { class: 'muted small' }, label), h('code', null, url), copy);
  });
  return h('details', { class: 'print-urls' },
    h('summary', null, 'Addresses to point a POS at'),
    h('ul', null, ...rows),
    h('p', { class: 'muted small' }, 'HTTPS uses the bridge\u2019s own certificate: open the HTTPS address once in the browser and accept it. LPD listens on the bridge\u2019s LPD_PORT (8515 unless set); the queue name is the printer\u2019s port, id or name.'));
}
