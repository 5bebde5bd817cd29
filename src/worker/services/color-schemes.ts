/**
 * Colour scheme presets a workspace may choose for the web UI (decisions.md: "a preset name
 * from a fixed, documented list"). The web UI defines how each looks.
 */
export const LIGHT_SCHEMES = ['paper', 'sepia', 'contrast', 'ocean'] as const;
export const DARK_SCHEMES = ['midnight', 'graphite', 'contrast-dark', 'forest'] as const;
