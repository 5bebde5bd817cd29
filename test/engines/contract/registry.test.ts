/** The protocol registry: every protocol has an engine, its contract test and the API enum. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../../../src/engines/registry.ts';
import { PROTOCOLS, PROTOCOL_NAMES } from '../../../src/engines/protocols.ts';
import { Protocol } from '../../../src/worker/schemas/printer.ts';
import { testPrinterContext } from '../../support/printer-context.ts';

describe('protocol registry', () => {
  it('lists each protocol once, with an engine and a contract test file', () => {
    expect(new Set(PROTOCOL_NAMES).size).toBe(PROTOCOL_NAMES.length);
    expect(Object.keys(ENGINES).sort()).toEqual([...PROTOCOL_NAMES].sort());
    for (const p of PROTOCOL_NAMES) {
      expect(existsSync(new URL(`./${p}.test.ts`, import.meta.url)), `test/engines/contract/${p}.test.ts`).toBe(true);
      const job = ENGINES[p](() => testPrinterContext(), undefined).finish();
      expect(job.bytesReceived).toBe(0);
      expect(['receipt', 'label']).toContain(PROTOCOLS[p].kind);
    }
  });

  it('is the API enum', () => {
    expect(Protocol.options).toEqual(PROTOCOL_NAMES);
    expect(Protocol.safeParse('Zzz').success).toBe(false);
  });
});
