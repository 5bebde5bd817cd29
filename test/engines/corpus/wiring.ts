import { it } from 'vitest';

/**
 * True once the engines read the printer model (code-table numbering, code tables, Thai cells,
 * multi-byte encoding, identity) from `ModelContext` — issue 13's engine framework. Until then
 * the cases listed where `itWhenModelsWired` is used are expected to fail (`it.fails`), so the
 * suite stays green and flipping this flag turns them into ordinary tests. If one of them
 * starts passing before the flag flips, `it.fails` reports it: flip the flag then.
 */
export const ENGINES_READ_MODELS = true;

/** `it` once models are wired into the engines, `it.fails` before. */
export const itWhenModelsWired: typeof it = ENGINES_READ_MODELS ? it : (it.fails as typeof it);

/** `it` for cases that pass today, `itWhenModelsWired` for those that need the models wired. */
export const itCase = (needsModels: boolean): typeof it => (needsModels ? itWhenModelsWired : it);

/**
 * True once commands a real Epson accepts silently are no longer errors (issue 13 item 5:
 * ESC 4 italic drawn italic, GS w 0 clamped, ...). Cases that exercise them use `itWhenQuiet`.
 */
export const ENGINES_QUIET_COMMANDS = true;

export const itWhenQuiet: typeof it = ENGINES_QUIET_COMMANDS ? it : (it.fails as typeof it);
