import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { translateWebPrnt, unescapeWebPrnt, webPrntResponse } from '../../src/engines/webprnt/index.ts';
import { createProtocolSession } from '../../src/engines/index.ts';
import { testPrinterContext } from '../support/printer-context.ts';

const recorded = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/http-printers/star-webprnt-sdk-1.2.0.json'), 'utf8'));
const sdkBody: string = recorded.requests.find((r: { method: string }) => r.method === 'POST').body;

describe('Star WebPRNT requests through the Star engines', () => {
  for (const protocol of ['StarPrnt', 'StarLine'] as const) {
    it(`prints the WebPRNT SDK's receipt on ${protocol}: text styles, image, barcode, QR code, cut, drawer`, () => {
      const t = translateWebPrnt(sdkBody);
      if (!t.ok) throw new Error(t.error);
      const s = createProtocolSession(protocol, () => testPrinterContext());
      const pushed = s.push(t.bytes);
      const job = s.finish();
      const items = job.canvases.flatMap((c) => c.items);
      const text = (w: string) => items.find((i) => i.type === 'text' && i.text.includes(w)) as Record<string, unknown> | undefined;
      expect(text('SLIPSTREAM CAFE')).toMatchObject({ isBold: true, charScaleX: 2, charScaleY: 2 });
      expect(text('Receipt 1042')).toMatchObject({ isUnderline: true });
      expect(text('REVERSED')).toMatchObject({ isReverse: true });
      expect(text('Croissant')).toBeTruthy();
      expect(items.filter((i) => i.type === 'image').length).toBeGreaterThanOrEqual(3);
      const described = items.filter((i) => i.type === 'debug').map((i) => (i as { commandDescription: string[] }).commandDescription.join(' ')).join('\n');
      expect(described).toMatch(/cut/i);
      expect(pushed.events.some((e) => e.type === 'drawerKick')).toBe(true);
      expect(job.errorMessages).toEqual([]);
    });
  }

  it('refuses what is not WebPRNT, without throwing', () => {
    for (const bad of ['', '<StarWebPrint/>', '<StarWebPrint><Request>&lt;root&gt;&lt;bogus/&gt;&lt;/root&gt;</Request></StarWebPrint>',
      '<StarWebPrint><Request>&lt;root&gt;&lt;text width="9"&gt;a&lt;/text&gt;&lt;/root&gt;</Request></StarWebPrint>']) {
      expect(translateWebPrnt(bad).ok).toBe(false);
    }
  });

  it('unescapes the SDK escapes and answers as the SDK reads it', () => {
    expect(unescapeWebPrnt('a\\x20b\\\\c\\x0a')).toBe('a b\\c\n');
    const xml = webPrntResponse(true, 'OK', Uint8Array.of(0x23, 0x06, 0x20, 0, 0, 0x08, 0, 0, 0));
    const inner = xml.match(/<Response>(.*)<\/Response>/)![1].replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    const status = inner.slice(inner.indexOf('<status>') + 8, inner.indexOf('</status>'));
    expect(parseInt(status.substr(4, 2), 16) & 32).toBe(32); // StarWebPrintTrader.isCoverOpen
    expect(parseInt(status.substr(10, 2), 16) & 8).toBe(8); // isPaperEnd
  });
});
