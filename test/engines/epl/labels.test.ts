import { describe, expect, it } from 'vitest';
import { BarcodeFormat } from '@zxing/library';
import {
  PRODUCT_EAN13,
  SERIALIZED_COUNT,
  SERIALIZED_FIRST,
  SHIPPING_LABEL_TRACKING,
  logoLabelBytes,
  logoRaster,
  productLabelBytes,
  serializedFormBytes,
  shippingLabelBytes,
} from './fixtures.ts';
import { accounted, bitmapOf, debugs, images, run, texts, zxingDecode } from './helpers.ts';

describe('realistic EPL2 labels', () => {
  it('prints a 4x6 shipping label with Code 128 and MaxiCode', () => {
    const { job } = run(shippingLabelBytes);
    expect(job.errorMessages).toEqual([]);
    expect(job.canvases).toHaveLength(1);
    const c = job.canvases[0];
    expect(c.widthInDots).toBe(812);
    expect(c.heightInDots).toBe(1218);
    expect(texts(c)).toHaveLength(20);
    expect(texts(c).map((t) => t.text)).toContain('PITTSBURGH PA 15238');
    const big = texts(c).find((t) => t.text === 'PITTSBURGH PA 15238')!;
    expect(big).toMatchObject({ x: 60, y: 286, charScaleX: 2, charScaleY: 2, fontName: 'EplFont4', width: 19 * 16 * 2, height: 48 });
    const imgs = images(c);
    expect(imgs).toHaveLength(2);
    const maxi = imgs.find((i) => i.commandDescription[1].includes('MaxiCode'))!;
    expect(maxi).toMatchObject({ x: 40, y: 380 });
    expect(maxi.width).toBeGreaterThan(190);
    expect(maxi.width).toBeLessThan(240);
    const code128 = imgs.find((i) => i.commandDescription[1].includes('Code 128'))!;
    expect(code128).toMatchObject({ x: 80, y: 720, height: 200 });
    expect(zxingDecode(bitmapOf(code128), [BarcodeFormat.CODE_128])?.text).toBe(SHIPPING_LABEL_TRACKING);
    expect(accounted(job)).toBe(shippingLabelBytes.length);
    expect(job.bytesReceived).toBe(shippingLabelBytes.length);
  });

  it('prints a product label with a readable EAN-13, two copies', () => {
    const { job } = run(productLabelBytes);
    expect(job.errorMessages).toEqual([]);
    expect(job.canvases).toHaveLength(2);
    for (const c of job.canvases) {
      expect(c).toMatchObject({ widthInDots: 406, heightInDots: 203 });
      const [ean] = images(c);
      expect(zxingDecode(bitmapOf(ean), [BarcodeFormat.EAN_13])?.text).toBe(PRODUCT_EAN13);
      expect(texts(c).map((t) => t.text)).toContain(PRODUCT_EAN13);
      expect(texts(c).find((t) => t.text === ' $4.99 ')?.isReverse).toBe(true);
    }
    // Debug elements only in the first copy.
    expect(job.canvases[1].items.every((i) => i.type !== 'debug')).toBe(true);
    expect(accounted(job)).toBe(productLabelBytes.length);
  });

  it('prints serialized labels from a form, the counter advancing between labels', () => {
    const { job } = run(serializedFormBytes);
    expect(job.errorMessages).toEqual([]);
    expect(job.canvases).toHaveLength(SERIALIZED_COUNT);
    job.canvases.forEach((c, i) => {
      const serial = String(SERIALIZED_FIRST + i).padStart(6, '0');
      const t = texts(c).map((x) => x.text);
      expect(t).toEqual(['ASSET TAG', 'WIDGET-42', `S/N ${serial}`]);
      const [bc] = images(c);
      expect(zxingDecode(bitmapOf(bc), [BarcodeFormat.CODE_128])?.text).toBe(`WIDGET-42-${serial}`);
    });
    const data = debugs(job).filter((d) => d.debugType === 'variableData');
    expect(data.map((d) => d.parameters.value)).toEqual(['WIDGET-42', '000100']);
    expect(accounted(job)).toBe(serializedFormBytes.length);
  });

  it('prints a GW logo whose raster contains CR and LF bytes', () => {
    const { widthBytes, height, data } = logoRaster();
    expect(data.includes(0x0a) || data.includes(0x0d)).toBe(true);
    const { job } = run(logoLabelBytes);
    expect(job.errorMessages).toEqual([]);
    const c = job.canvases[0];
    const [logo] = images(c);
    expect(logo).toMatchObject({ x: 20, y: 20, width: widthBytes * 8, height });
    const bmp = bitmapOf(logo);
    expect(bmp.get(31, 2)).toBe(true); // ring
    expect(bmp.get(31, 12)).toBe(false); // inside the ring
    expect(bmp.get(31, 31)).toBe(true); // bar
    expect(texts(c).map((t) => t.text)).toEqual(['SLIPSTREAM', 'Label printer emulation']);
    expect(accounted(job)).toBe(logoLabelBytes.length);
  });

  it('renders every fixture identically whatever the chunking', () => {
    for (const fx of [shippingLabelBytes, productLabelBytes, serializedFormBytes, logoLabelBytes]) {
      const whole = JSON.stringify(run(fx).job);
      for (const chunk of [1, 2, 3, 7, 64]) expect(JSON.stringify(run(fx, { chunk }).job)).toBe(whole);
    }
  });
});
