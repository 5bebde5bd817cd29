/** The contract's skip list says why, and names only tests the contract has. */
import { describe, expect, it } from 'vitest';
import { runEngineContract, type ContractTest } from './contract.ts';

const statusQuery = { bytes: Uint8Array.of(0x10, 0x04, 0x01), isReply: () => true };

describe('engine contract skips', () => {
  it('refuses a skip without a reason, and one naming no contract test', () => {
    expect(() => runEngineContract('EscPos', { jobs: [], statusQuery, skip: [{ reason: ' ', tests: ['has samples that print'] }] }))
      .toThrow('a skip must say why');
    expect(() => runEngineContract('EscPos', { jobs: [], statusQuery, skip: [{ reason: 'no paper', tests: ['prints on paper' as ContractTest] }] }))
      .toThrow('no contract test "prints on paper"');
  });
});
