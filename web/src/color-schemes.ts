/**
 * Colour scheme presets for the web UI: how each preset looks. The preset names are the
 * Worker's (it validates `lightColorScheme` / `darkColorScheme` against them).
 */
import { DARK_SCHEMES, LIGHT_SCHEMES } from '../../src/worker/services/color-schemes.ts';

export const LIGHT_COLOR_SCHEMES = LIGHT_SCHEMES;
export const DARK_COLOR_SCHEMES = DARK_SCHEMES;
export const COLOR_SCHEMES = [...LIGHT_COLOR_SCHEMES, ...DARK_COLOR_SCHEMES] as const;

export type LightColorScheme = (typeof LIGHT_COLOR_SCHEMES)[number];
export type DarkColorScheme = (typeof DARK_COLOR_SCHEMES)[number];
export type ColorSchemeName = LightColorScheme | DarkColorScheme;

export const DEFAULT_LIGHT_COLOR_SCHEME: LightColorScheme = 'paper';
export const DEFAULT_DARK_COLOR_SCHEME: DarkColorScheme = 'midnight';

export function isLightColorScheme(value: unknown): value is LightColorScheme {
  return typeof value === 'string' && (LIGHT_COLOR_SCHEMES as readonly string[]).includes(value);
}

export function isDarkColorScheme(value: unknown): value is DarkColorScheme {
  return typeof value === 'string' && (DARK_COLOR_SCHEMES as readonly string[]).includes(value);
}

/** CSS custom properties of one scheme (UI chrome plus the simulated paper and ink). */
export interface ColorSchemePalette {
  label: string;
  bg: string;
  surface: string;
  surface2: string;
  text: string;
  muted: string;
  border: string;
  accent: string;
  accentText: string;
  danger: string;
  ok: string;
  warn: string;
  paper: string;
  ink: string;
  labelStock: string;
}

export const COLOR_SCHEME_PALETTES: Record<ColorSchemeName, ColorSchemePalette> = {
  paper: {
    label: 'Paper', bg: '#f3f4f6', surface: '#ffffff', surface2: '#e9ebef', text: '#1c1f24',
    muted: '#5b6270', border: '#c9ced6', accent: '#1f5fbf', accentText: '#ffffff',
    danger: '#b3261e', ok: '#1b7f3b', warn: '#9a5b00', paper: '#ffffff', ink: '#111111',
    labelStock: '#fffdf7',
  },
  sepia: {
    label: 'Sepia', bg: '#efe6d6', surface: '#fbf5ea', surface2: '#e6dac4', text: '#3b2f20',
    muted: '#6d5c45', border: '#cdbb9c', accent: '#8a4b12', accentText: '#ffffff',
    danger: '#a3271b', ok: '#2f6b2a', warn: '#8a5600', paper: '#fdf8ee', ink: '#2a2218',
    labelStock: '#fff9ec',
  },
  contrast: {
    label: 'High contrast', bg: '#ffffff', surface: '#ffffff', surface2: '#e8e8e8', text: '#000000',
    muted: '#2b2b2b', border: '#000000', accent: '#0030b0', accentText: '#ffffff',
    danger: '#a00000', ok: '#005a1e', warn: '#6b3d00', paper: '#ffffff', ink: '#000000',
    labelStock: '#ffffff',
  },
  ocean: {
    label: 'Ocean', bg: '#e7f0f5', surface: '#f8fbfd', surface2: '#d6e6ef', text: '#102a3a',
    muted: '#476577', border: '#a9c4d4', accent: '#006b8f', accentText: '#ffffff',
    danger: '#b3261e', ok: '#1b7053', warn: '#8a5a00', paper: '#ffffff', ink: '#0d1b24',
    labelStock: '#fbfeff',
  },
  midnight: {
    label: 'Midnight', bg: '#0f1420', surface: '#171e2e', surface2: '#222b3f', text: '#e6e9f0',
    muted: '#a3adc2', border: '#34405a', accent: '#7aa7ff', accentText: '#0b1020',
    danger: '#ff8a80', ok: '#7bd88f', warn: '#ffc266', paper: '#f4f4f0', ink: '#111111',
    labelStock: '#fbf9f1',
  },
  graphite: {
    label: 'Graphite', bg: '#1b1b1d', surface: '#252528', surface2: '#313135', text: '#ececec',
    muted: '#b0b0b6', border: '#47474d', accent: '#c7c7ff', accentText: '#16161a',
    danger: '#ff8f85', ok: '#8fd6a0', warn: '#f2c46b', paper: '#ececea', ink: '#121212',
    labelStock: '#f5f3ec',
  },
  'contrast-dark': {
    label: 'High contrast (dark)', bg: '#000000', surface: '#000000', surface2: '#1a1a1a',
    text: '#ffffff', muted: '#e0e0e0', border: '#ffffff', accent: '#ffd400', accentText: '#000000',
    danger: '#ff6b6b', ok: '#5dff8a', warn: '#ffd400', paper: '#ffffff', ink: '#000000',
    labelStock: '#ffffff',
  },
  forest: {
    label: 'Forest', bg: '#0f1a14', surface: '#16251c', surface2: '#203327', text: '#e3efe6',
    muted: '#a5bfad', border: '#345240', accent: '#8fd19e', accentText: '#0c1a10',
    danger: '#ff9a8f', ok: '#8fd19e', warn: '#f0c36a', paper: '#f3f2ea', ink: '#141414',
    labelStock: '#f8f6ec',
  },
};
