import { describe, expect, it } from 'vitest';
import {
  COLOR_SCHEME_PALETTES, COLOR_SCHEMES, DARK_COLOR_SCHEMES, LIGHT_COLOR_SCHEMES, isDarkColorScheme, isLightColorScheme,
} from '../../web/src/color-schemes.ts';

describe('colour scheme presets', () => {
  it('is the fixed list the Worker validates against', () => {
    expect(LIGHT_COLOR_SCHEMES).toEqual(['paper', 'sepia', 'contrast', 'ocean']);
    expect(DARK_COLOR_SCHEMES).toEqual(['midnight', 'graphite', 'contrast-dark', 'forest']);
    expect(COLOR_SCHEMES).toHaveLength(8);
    expect(isLightColorScheme('sepia')).toBe(true);
    expect(isLightColorScheme('midnight')).toBe(false);
    expect(isDarkColorScheme('forest')).toBe(true);
    expect(isDarkColorScheme('Forest')).toBe(false);
  });

  it('has a complete palette for every preset, with dark ink on light paper', () => {
    for (const name of COLOR_SCHEMES) {
      const p = COLOR_SCHEME_PALETTES[name];
      for (const v of Object.values(p)) expect(typeof v).toBe('string');
      const lum = (hex: string) => {
        const n = parseInt(hex.slice(1), 16);
        return 0.2126 * (n >> 16) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255);
      };
      expect(lum(p.paper) - lum(p.ink)).toBeGreaterThan(180);
      expect(Math.abs(lum(p.bg) - lum(p.text))).toBeGreaterThan(150);
    }
  });
});
