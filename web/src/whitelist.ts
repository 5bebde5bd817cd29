/** Whitelist editing in the settings page; parsing and matching are shared with the Worker. */
export { isCovered, parseWhitelist, type ParsedWhitelist, type WhitelistProblem } from '../../src/shared/whitelist.ts';

/** Appends an entry on its own line, keeping the existing text and comments. */
export function addEntry(text: string, entry: string): string {
  const trimmed = text.replace(/\s+$/, '');
  return trimmed ? `${trimmed}\n${entry}` : entry;
}
