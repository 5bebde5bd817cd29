/**
 * `npm start`'s printer port block check (scripts/port-block.ts, issue 31), with the ephemeral
 * range given; test/e2e/start.test.ts runs it through `npm start` with the system's range.
 */
import { describe, expect, it } from 'vitest';
import { inspectorPort, portBlockProblem } from '../../scripts/port-block.ts';

const linux = { first: 32768, last: 60999 };
const fixed = { PORT: 8787, INSPECT: undefined };

describe('printer port block check', () => {
  it('accepts the defaults (9101–19100) and a block above the ephemeral range', () => {
    expect(portBlockProblem({}, fixed, linux)).toBeNull();
    expect(portBlockProblem({ PRINTER_PORT_BASE: '61000', PRINTER_PORT_COUNT: '4000' }, fixed, linux)).toBeNull();
  });

  it('refuses a block reaching into the ephemeral range by its base or by its size, naming both settings and the range', () => {
    expect(portBlockProblem({ PRINTER_PORT_BASE: '40000' }, fixed, linux)).toMatch(/PRINTER_PORT_BASE=40000.*overlaps the operating system's ephemeral port range 32768–60999/);
    expect(portBlockProblem({ PRINTER_PORT_BASE: '30000' }, fixed, linux)).toMatch(/30001–40000 .*PRINTER_PORT_COUNT=10000/);
    expect(portBlockProblem({ PRINTER_PORT_BASE: '30000', PRINTER_PORT_COUNT: '2767' }, fixed, linux)).toBeNull();
  });

  it('without a known ephemeral range (not Linux) checks only the service\'s own ports', () => {
    expect(portBlockProblem({ PRINTER_PORT_BASE: '40000' }, fixed, null)).toBeNull();
    expect(portBlockProblem({ PRINTER_PORT_BASE: '40000' }, { PORT: 40001, INSPECT: undefined }, null)).toMatch(/^PORT=40001 is inside/);
  });

  it('INSPECT: off by default, 1 on a port the system picks, a port number outside the block', () => {
    expect([undefined, '', '0', '1', '9229', 'yes'].map(inspectorPort)).toEqual([null, null, null, 0, 9229, undefined]);
    expect(portBlockProblem({}, { PORT: 8787, INSPECT: '1' }, linux)).toBeNull();
    expect(portBlockProblem({}, { PORT: 8787, INSPECT: '9229' }, linux)).toMatch(/^INSPECT=9229 is inside the printer port block 9101–19100/);
    expect(portBlockProblem({}, { PORT: 8787, INSPECT: '9099' }, linux)).toBeNull();
    expect(portBlockProblem({}, { PORT: 8787, INSPECT: 'yes' }, linux)).toMatch(/INSPECT=yes/);
  });
});
