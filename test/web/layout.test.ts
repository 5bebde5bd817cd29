import { describe, expect, it } from 'vitest';
import {
  boxCss, boxStyle, layoutCanvas, spacedHex, type BarBox, type ImageBox, type RectBox, type TextBox,
} from '../../web/src/render/layout.ts';
import type { ApiCanvasElement, CanvasDto } from '../../web/src/types.ts';

const src = { commandRaw: '41', commandDescription: ['Text'], lengthInBytes: 1 };

function text(over: Partial<Extract<ApiCanvasElement, { type: 'text' }>> = {}): ApiCanvasElement {
  return {
    ...src, type: 'text', text: 'HELLO', x: 10, y: 20, width: 60, height: 24, fontName: 'FontA',
    charSpacing: 0, isBold: false, isUnderline: false, isReverse: false, charScaleX: 1, charScaleY: 1,
    rotation: 'none', ...over,
  };
}

function canvas(items: ApiCanvasElement[], widthInDots = 576, heightInDots?: number): CanvasDto {
  return { widthInDots, ...(heightInDots !== undefined && { heightInDots }), items };
}

describe('layoutCanvas', () => {
  it('keeps the canvas width in dots and grows continuous paper to its content', () => {
    const l = layoutCanvas(canvas([text({ y: 100, height: 48, charScaleY: 2 })]));
    expect(l.width).toBe(576);
    expect(l.height).toBe(148);
    expect(l.isLabel).toBe(false);
  });

  it('uses the fixed height of a label', () => {
    const l = layoutCanvas(canvas([text()], 812, 1218));
    expect(l).toMatchObject({ width: 812, height: 1218, isLabel: true });
  });

  it('gives an empty receipt canvas a minimum height and skips debug elements', () => {
    const l = layoutCanvas(canvas([{ ...src, type: 'debug', debugType: 'command', parameters: {} }]));
    expect(l.boxes).toHaveLength(0);
    expect(l.height).toBe(24);
  });

  it('places plain text at its dots with the font size from height / charScaleY', () => {
    const [b] = layoutCanvas(canvas([text()]), { monoAdvance: 0.6 }).boxes as TextBox[];
    expect(b).toMatchObject({ kind: 'text', left: 10, top: 20, width: 60, height: 24, fontSize: 24, scaleY: 1, rotation: 0 });
    // 5 characters of 12 dots with a 0.6 em face at 24 px (14.4 px advance): squeeze to 12.
    expect(b.scaleX).toBeCloseTo(12 / 14.4, 3);
    const s = boxStyle(b);
    expect(s).toMatchObject({
      position: 'absolute', left: '10px', top: '20px', 'font-size': '24px', 'line-height': '24px',
      'font-weight': '400', color: 'var(--ink)', 'transform-origin': '0 0',
    });
    // Unscaled width times scaleX covers the element width exactly.
    expect(parseFloat(s.width) * b.scaleX).toBeCloseTo(60, 1);
    expect(s.transform).toBe(`scale(${b.scaleX},1)`);
  });

  it('maps double height and width, spacing and the style flags', () => {
    const [b] = layoutCanvas(canvas([text({
      text: 'AB', width: 52, height: 48, charScaleX: 2, charScaleY: 2, charSpacing: 2,
      isBold: true, isUnderline: true, underlineThickness: 2, isReverse: true, isItalic: true,
    })]), { monoAdvance: 0.5 }).boxes as TextBox[];
    expect(b.fontSize).toBe(24);
    expect(b.scaleY).toBe(2);
    expect(b.letterSpacing).toBe(1);
    // spacing 2 dots on paper = 1 px before the x2 scale; per character 26 dots = (24 * 0.5 + 1) * scaleX
    expect(b.scaleX).toBe(2);
    const s = boxStyle(b);
    expect(s).toMatchObject({
      'font-weight': '700', 'font-style': 'italic', 'text-decoration': 'underline',
      'text-decoration-thickness': '2px', 'letter-spacing': '1px', color: 'var(--paper)', background: 'var(--ink)',
      transform: 'scale(2,2)',
    });
  });

  it('rotates text into its bounding box', () => {
    const l = layoutCanvas(canvas([
      text({ rotation: '90', x: 100, y: 50, width: 24, height: 60 }),
      text({ rotation: '180', x: 0, y: 0, width: 60, height: 24 }),
      text({ rotation: '270', x: 0, y: 0, width: 24, height: 60 }),
    ]), { monoAdvance: 0.6 });
    const [r90, r180, r270] = l.boxes as TextBox[];
    expect(r90.rotation).toBe(90);
    expect(r90.fontSize).toBe(24); // run height is the box width when sideways
    expect(boxStyle(r90).transform).toBe(`translate(24px,0px) rotate(90deg) scale(${r90.scaleX},1)`);
    expect(parseFloat(boxStyle(r90).width) * r90.scaleX).toBeCloseTo(60, 1);
    expect(boxStyle(r180).transform).toBe(`translate(60px,24px) rotate(180deg) scale(${r180.scaleX},1)`);
    expect(boxStyle(r270).transform).toBe(`translate(0px,60px) rotate(270deg) scale(${r270.scaleX},1)`);
  });

  it('treats upside-down text as a half turn', () => {
    const [b] = layoutCanvas(canvas([text({ isUpsideDown: true })])).boxes as TextBox[];
    expect(b.rotation).toBe(180);
  });

  it('renders images from their media url at their box', () => {
    const img: ApiCanvasElement = {
      ...src, type: 'image', x: 8, y: 30, width: 200, height: 100, rotation: 'none',
      media: { contentType: 'image/png', size: 123, url: '/api/media/abc', storageKey: 'k' },
    };
    const [b] = layoutCanvas(canvas([img])).boxes as ImageBox[];
    expect(b).toMatchObject({ kind: 'image', src: '/api/media/abc', left: 8, top: 30, width: 200, height: 100 });
    expect(boxStyle(b)).toEqual({ position: 'absolute', left: '8px', top: '30px', width: '200px', height: '100px' });
    const [r] = layoutCanvas(canvas([{ ...img, rotation: '90' } as ApiCanvasElement])).boxes as ImageBox[];
    expect(boxStyle(r)).toMatchObject({ width: '100px', height: '200px', transform: 'translate(200px,0px) rotate(90deg)' });
  });

  it('draws white and XOR images (ZPL W, ^FR) as their dots masking a paper or difference layer', () => {
    const img = (drawMode?: 'white' | 'xor'): ApiCanvasElement => ({
      ...src, type: 'image', x: 8, y: 30, width: 200, height: 100, rotation: 'none', ...(drawMode && { drawMode }),
      media: { contentType: 'image/png', size: 123, url: '/api/media/a(b)"c', storageKey: 'k' },
    });
    const [black, white, xor] = layoutCanvas(canvas([img(), img('white'), img('xor')])).boxes.map((b) => boxStyle(b));
    expect(black.mask).toBeUndefined();
    const url = 'url("/api/media/a%28b%29%22c") 0 0 / 100% 100% no-repeat';
    expect(white).toMatchObject({ background: 'var(--paper)', mask: url, '-webkit-mask': url });
    expect(white['mix-blend-mode']).toBeUndefined();
    expect(xor).toMatchObject({ background: '#ffffff', mask: url, 'mix-blend-mode': 'difference' });
  });

  it('flips mirrored text (ZPL ^PM) inside its own box before scaling and turning it', () => {
    const [b] = layoutCanvas(canvas([text({ isMirrored: true, rotation: '90', width: 24, height: 60 })])).boxes as TextBox[];
    expect(b.mirrored).toBe(true);
    const t = boxStyle(b).transform;
    expect(t.startsWith('translate(24px,0px) rotate(90deg) scale(')).toBe(true);
    expect(t).toMatch(/\) translate\([\d.]+px,0px\) scale\(-1,1\)$/);
  });

  it('gives XOR text (ZPL ^FR) a difference blend', () => {
    const [b] = layoutCanvas(canvas([text({ drawMode: 'xor' })])).boxes as TextBox[];
    expect(b.mode).toBe('xor');
    expect(boxStyle(b)).toMatchObject({ color: '#ffffff', 'mix-blend-mode': 'difference' });
  });

  it('turns axis-aligned lines into rectangles and others into rotated bars', () => {
    const l = layoutCanvas(canvas([
      { ...src, type: 'line', x1: 0, y1: 10, x2: 576, y2: 10, thickness: 2 },
      { ...src, type: 'line', x1: 50, y1: 100, x2: 50, y2: 20, thickness: 3 },
      { ...src, type: 'line', x1: 0, y1: 0, x2: 100, y2: 100, thickness: 4 },
    ]));
    const [h, v, d] = l.boxes as [RectBox, RectBox, BarBox];
    expect(h).toMatchObject({ kind: 'rect', left: 0, top: 10, width: 576, height: 2, border: 0 });
    expect(v).toMatchObject({ kind: 'rect', left: 50, top: 20, width: 3, height: 80 });
    expect(d.kind).toBe('bar');
    expect(d.angle).toBe(45);
    expect(d.length).toBeCloseTo(141.421, 2);
    expect(boxStyle(d)).toMatchObject({ transform: 'rotate(45deg)', height: '4px', background: 'var(--ink)' });
    expect(boxStyle(h)).toMatchObject({ background: 'var(--ink)', width: '576px', height: '2px' });
    expect(l.height).toBe(104);
  });

  it('draws boxes outlined or filled, with the EPL draw modes', () => {
    const l = layoutCanvas(canvas([
      { ...src, type: 'box', x: 10, y: 10, width: 100, height: 50, thickness: 3, isFilled: false },
      { ...src, type: 'box', x: 10, y: 70, width: 100, height: 50, thickness: 1, isFilled: true },
      { ...src, type: 'box', x: 10, y: 70, width: 100, height: 50, thickness: 1, isFilled: true, drawMode: 'white' },
      { ...src, type: 'box', x: 10, y: 70, width: 100, height: 50, thickness: 1, isFilled: true, drawMode: 'xor' },
    ]));
    const [outline, filled, white, xor] = l.boxes.map((b) => boxStyle(b));
    expect(outline).toMatchObject({ border: '3px solid var(--ink)', 'box-sizing': 'border-box', width: '100px', height: '50px' });
    expect(filled).toMatchObject({ background: 'var(--ink)' });
    expect(white).toMatchObject({ background: 'var(--paper)' });
    expect(xor).toMatchObject({ background: '#ffffff', 'mix-blend-mode': 'difference' });
    expect(boxCss(l.boxes[0])).toContain('left:10px;top:10px;');
  });
});

describe('hex helpers', () => {
  it('spaces hex pairs', () => {
    expect(spacedHex('1B401d5630')).toBe('1B 40 1D 56 30');
    expect(spacedHex(undefined)).toBe('');
  });
});
