/** Light/dark mode (auto, or fixed per browser) and the workspace's colour scheme presets. */
import {
  COLOR_SCHEME_PALETTES, DEFAULT_DARK_COLOR_SCHEME, DEFAULT_LIGHT_COLOR_SCHEME, isDarkColorScheme, isLightColorScheme,
  type ColorSchemeName, type ColorSchemePalette,
} from './color-schemes.ts';

export type ThemeMode = 'auto' | 'light' | 'dark';
const KEY = 'slipstream.themeMode';

let light: ColorSchemeName = DEFAULT_LIGHT_COLOR_SCHEME;
let dark: ColorSchemeName = DEFAULT_DARK_COLOR_SCHEME;
const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

export function getMode(): ThemeMode {
  try {
    const v = localStorage.getItem(KEY);
    if (v === 'light' || v === 'dark' || v === 'auto') return v;
  } catch { /* ignore */ }
  return 'auto';
}

const modeListeners = new Set<(mode: ThemeMode) => void>();

/** Every control showing the mode (top bar button, Settings select) follows every change. */
export function onModeChange(listener: (mode: ThemeMode) => void): () => void {
  modeListeners.add(listener);
  return () => modeListeners.delete(listener);
}

export function setMode(mode: ThemeMode): void {
  try { localStorage.setItem(KEY, mode); } catch { /* ignore */ }
  apply();
  for (const l of modeListeners) l(mode);
}

export function setSchemes(lightName: string | null | undefined, darkName: string | null | undefined): void {
  light = isLightColorScheme(lightName) ? lightName : DEFAULT_LIGHT_COLOR_SCHEME;
  dark = isDarkColorScheme(darkName) ? darkName : DEFAULT_DARK_COLOR_SCHEME;
  apply();
}

export function isDark(): boolean {
  const mode = getMode();
  return mode === 'dark' || (mode === 'auto' && !!media?.matches);
}

function vars(p: ColorSchemePalette): string {
  return `--bg:${p.bg};--surface:${p.surface};--surface2:${p.surface2};--text:${p.text};--muted:${p.muted};`
    + `--border:${p.border};--accent:${p.accent};--accent-text:${p.accentText};--danger:${p.danger};--ok:${p.ok};`
    + `--warn:${p.warn};--paper:${p.paper};--ink:${p.ink};--label-stock:${p.labelStock};`;
}

export function apply(): void {
  const darkNow = isDark();
  const palette = COLOR_SCHEME_PALETTES[darkNow ? dark : light];
  const root = document.documentElement;
  root.dataset.theme = darkNow ? 'dark' : 'light';
  root.dataset.scheme = darkNow ? dark : light;
  root.style.cssText = `${vars(palette)}color-scheme:${darkNow ? 'dark' : 'light'};`;
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', palette.surface);
}

media?.addEventListener('change', () => apply());
