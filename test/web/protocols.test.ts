import { describe, expect, it } from 'vitest';
import { isLabelProtocol, physicalSize, printerDefaults } from '../../web/src/protocols.ts';

describe('web protocol helpers', () => {
  it('tells label protocols from receipt protocols', () => {
    expect(isLabelProtocol('Epl')).toBe(true);
    expect(isLabelProtocol('Zpl')).toBe(true);
    expect(isLabelProtocol('EscPos')).toBe(false);
    expect(isLabelProtocol(undefined)).toBe(false);
  });

  it('defaults to a 4 x 6 in label at 203 dpi and 80 mm continuous receipt paper', () => {
    expect(printerDefaults('Epl')).toEqual({ widthInDots: 812, heightInDots: 1218, dpi: 203 });
    expect(printerDefaults('EscPos')).toEqual({ widthInDots: 576, heightInDots: null, dpi: 203 });
  });

  it('gives the physical size in inches and millimetres', () => {
    // 812 / 203 = 4 in = 101.6 mm; 1218 / 203 = 6 in = 152.4 mm.
    expect(physicalSize(812, 1218)).toBe('4 × 6 in (101.6 × 152.4 mm)');
    // 576 dots at 203 dpi: 2.84 in = 72.1 mm (the printable width of 80 mm paper).
    expect(physicalSize(576, null)).toBe('2.84 in (72.1 mm) wide, continuous');
    expect(physicalSize(600, 300, 300)).toBe('2 × 1 in (50.8 × 25.4 mm)');
  });
});
