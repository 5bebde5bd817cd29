import { CommandTable, type CommandEntry, type LenFn, type Outcome } from '../core/commands.ts';
import { hexByte } from '../core/hex.ts';
import type { StarCommand, StarFamily } from './define.ts';
import type { StarMachine } from './machine.ts';

/**
 * Builds the framework's command table from Star command definitions.
 *
 * The framework keys commands on one control byte or on a prefix byte and one more. Star
 * commands that share their first two bytes (ESC GS a, ESC GS t, ESC GS y S 0, ...) become
 * ONE table entry backed by a trie of the definitions: its length parser and handler walk
 * the bytes after the prefix to the definition they name. A node may also hold a definition
 * of its own, used when no longer definition matches (ESC # * LF NUL beside the other
 * ESC # ... LF NUL commands). Two definitions with the same bytes throw when the table is
 * built, so every test catches them.
 */

interface Node {
  def: StarCommand | null;
  /** By next byte; null for a leaf. An array, not a Map: the framer walks on every header byte. */
  children: (Node | undefined)[] | null;
}

const newNode = (): Node => ({ def: null, children: null });

/**
 * The definition the bytes name; or, as a number, how many bytes are needed to tell (> 0),
 * or -(i + 1) when no definition has byte i. Numbers, not objects: the framer asks on every
 * byte of a command's header, and allocation there showed in the benchmark.
 */
function walk(root: Node, start: number, b: Uint8Array, n: number): StarCommand | number {
  let node = root;
  for (let i = start; ; i++) {
    const children = node.children;
    if (children === null) return node.def ?? -i;
    if (i >= n) return i + 1;
    const next = children[b[i]];
    if (!next) return node.def ?? -(i + 1);
    node = next;
  }
}

function unknownOutcome(b: Uint8Array, at: number): Outcome {
  const seq = Array.from(b.subarray(0, at + 1), hexByte).join(' ');
  return { text: `Unknown command ${seq}`, kind: 'unknown', error: `no Star command starts with ${seq}` };
}

function groupEntry(prefix: readonly [number, number], root: Node): CommandEntry<StarMachine> {
  const defs: StarCommand[] = [];
  const collect = (n: Node): void => {
    if (n.def) defs.push(n.def);
    for (const c of n.children ?? []) if (c) collect(c);
  };
  collect(root);
  const length: LenFn = (b, n) => {
    const w = walk(root, 2, b, n);
    if (typeof w !== 'number') return w.length(b, n);
    return w > 0 ? w : -w; // need w bytes; or the unknown sequence ends at its unknown byte
  };
  return {
    prefix,
    name: defs.map((d) => d.name).join(' | '),
    summary: defs.map((d) => d.summary).join('; '),
    length,
    header: Math.max(...defs.map((d) => d.header ?? 12)),
    run(m, b, raw) {
      const w = walk(root, 2, b, b.length);
      if (typeof w !== 'number') return w.run(m, b, raw);
      return unknownOutcome(b, w < 0 ? -w - 1 : b.length - 1);
    },
  };
}

function entryOf(def: StarCommand): CommandEntry<StarMachine> {
  const prefix = def.bytes.length === 1 ? ([def.bytes[0]] as const) : ([def.bytes[0], def.bytes[1]] as const);
  return { prefix, name: def.name, summary: def.summary, length: def.length, header: def.header, run: def.run };
}

export function starTable(
  families: readonly StarFamily[],
  unknownSingle: CommandEntry<StarMachine>,
  unknownPrefixed: CommandEntry<StarMachine>,
): CommandTable<StarMachine> {
  const singles: StarCommand[] = [];
  const groups = new Map<number, Node>(); // key: first byte * 256 + second byte
  for (const family of families) {
    for (const def of family) {
      if (def.bytes.length === 1) {
        singles.push(def);
        continue;
      }
      const key = def.bytes[0] * 256 + def.bytes[1];
      let node: Node | undefined = groups.get(key);
      if (!node) groups.set(key, (node = newNode()));
      for (let i = 2; i < def.bytes.length; i++) {
        const children: (Node | undefined)[] = (node.children ??= new Array(256));
        let next = children[def.bytes[i]];
        if (!next) children[def.bytes[i]] = next = newNode();
        node = next;
      }
      if (node.def) throw new Error(`Two Star commands for ${def.name}: ${node.def.name}`);
      node.def = def;
    }
  }
  const entries: CommandEntry<StarMachine>[] = singles.map(entryOf);
  for (const [key, root] of groups) {
    const prefix = [Math.floor(key / 256), key % 256] as const;
    const only = root.children === null ? root.def : null;
    entries.push(only ? entryOf(only) : groupEntry(prefix, root));
  }
  return new CommandTable<StarMachine>([entries], unknownSingle, unknownPrefixed);
}
