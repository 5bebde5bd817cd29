import { describe, expect, it } from 'vitest';
import { Backoff } from '../../tcp-bridge/backoff.ts';
import { TokenBucket } from '../../tcp-bridge/bucket.ts';
import { parseConfig, toHttpUrl, toWebSocketUrl } from '../../tcp-bridge/config.ts';
import { planReconcile, type CurrentListener } from '../../tcp-bridge/reconcile.ts';
import { sanitizeListener, type ListenerSpec } from '../../tcp-bridge/types.ts';
import { compileWhitelist, normalizeClientAddress } from '../../tcp-bridge/whitelist.ts';

describe('backoff', () => {
  it('doubles from 250 ms to a 10 s ceiling and resets', () => {
    const b = new Backoff();
    const seq = Array.from({ length: 9 }, () => b.next());
    expect(seq).toEqual([250, 500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
    b.reset();
    expect(b.next()).toBe(250);
  });
  it('jitter only shortens, within the fraction', () => {
    const b = new Backoff({ jitter: 0.5, random: () => 1 });
    expect(b.next()).toBe(125);
    const c = new Backoff({ jitter: 0.5, random: () => 0 });
    expect(c.next()).toBe(250);
  });
});

describe('whitelist', () => {
  it('normalises IPv4-mapped IPv6 and zones', () => {
    expect(normalizeClientAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normalizeClientAddress('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(normalizeClientAddress('::1')).toBe('::1');
    expect(normalizeClientAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeClientAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeClientAddress(undefined)).toBe('unknown');
  });
  it('disabled allows everyone; enabled with no entries refuses everyone', () => {
    expect(compileWhitelist({ enabled: false, entries: [] }).allows('1.2.3.4')).toBe(true);
    expect(compileWhitelist(null).allows('1.2.3.4')).toBe(true);
    const none = compileWhitelist({ enabled: true, entries: [] });
    expect(none.allows('127.0.0.1')).toBe(false);
    expect(none.allows('::1')).toBe(false);
  });
  it('matches IPv4 addresses and CIDR ranges, including mapped clients', () => {
    const wl = compileWhitelist({ enabled: true, entries: ['10.0.0.0/8', '192.168.1.7', '172.16.0.0/12'] });
    expect(wl.allows('10.255.0.1')).toBe(true);
    expect(wl.allows('::ffff:10.2.3.4')).toBe(true);
    expect(wl.allows('11.0.0.1')).toBe(false);
    expect(wl.allows('192.168.1.7')).toBe(true);
    expect(wl.allows('192.168.1.8')).toBe(false);
    expect(wl.allows('172.31.255.255')).toBe(true);
    expect(wl.allows('172.32.0.0')).toBe(false);
    expect(wl.allows('::1')).toBe(false);
  });
  it('matches IPv6 addresses and ranges; never mixes families', () => {
    const wl = compileWhitelist({ enabled: true, entries: ['::1', '2001:db8::/32', '0.0.0.0/0'] });
    expect(wl.allows('::1')).toBe(true);
    expect(wl.allows('2001:db8:abcd::5')).toBe(true);
    expect(wl.allows('2001:db9::5')).toBe(false);
    expect(wl.allows('8.8.8.8')).toBe(true); // 0.0.0.0/0 covers IPv4 only
    expect(compileWhitelist({ enabled: true, entries: ['::/0'] }).allows('8.8.8.8')).toBe(false);
    expect(compileWhitelist({ enabled: true, entries: ['::/0'] }).allows('fe80::1')).toBe(true);
  });
  it('accepts IPv4-mapped entries and ignores unparsable ones', () => {
    const wl = compileWhitelist({ enabled: true, entries: ['::ffff:127.0.0.1', '::ffff:10.0.0.0/104', 'nonsense', ' '] });
    expect(wl.invalid).toEqual(['nonsense']);
    expect(wl.allows('127.0.0.1')).toBe(true);
    expect(wl.allows('10.9.9.9')).toBe(true);
    expect(wl.allows('garbage')).toBe(false);
  });
});

describe('token bucket', () => {
  it('admits up to capacity and drains at the rate', () => {
    const b = new TokenBucket(1000, 500, 0);
    expect(b.admit(1500, 0)).toBe(1000);
    expect(b.isFull(0)).toBe(true);
    expect(b.room(1000)).toBe(500);
    expect(b.level(1000)).toBe(500);
    expect(b.admit(200, 1000)).toBe(200);
    expect(b.level(1000)).toBe(700);
    expect(b.level(10_000)).toBe(0);
    expect(b.admittedTotal()).toBe(1200);
    expect(b.drainedTotal(10_000)).toBe(1200);
  });
  it('computes waits for room and for a cumulative position to drain', () => {
    const b = new TokenBucket(100, 50, 0);
    b.admit(100, 0);
    expect(b.msUntilRoom(25, 0)).toBe(500);
    expect(b.msUntilRoom(1000, 0)).toBe(2000); // clamped to capacity
    expect(b.msUntilDrained(60, 0)).toBe(1200);
    expect(b.msUntilDrained(60, 1200)).toBe(0);
    expect(b.msUntilRoom(10, 5000)).toBe(0);
  });
  it('reconfigures capacity and rate keeping the level', () => {
    const b = new TokenBucket(100, 10, 0);
    b.admit(100, 0);
    b.reconfigure(50, 100, 0);
    expect(b.room(0)).toBe(0);
    expect(b.level(500)).toBe(50);
    expect(b.room(500)).toBe(0);
    expect(b.room(600)).toBe(10);
  });
});

const spec = (id: string, port: number, extra: Partial<ListenerSpec> = {}): ListenerSpec => ({
  printerId: id,
  workspaceId: 'w',
  port,
  displayName: `Printer ${port}`,
  protocol: 'EscPos',
  whitelist: { enabled: false, entries: [] },
  buffer: null,
  idleTimeoutMs: 2000,
  maxJobBytes: 1000,
  maxConnections: 32,
  maxJobsInFlight: 8,
  maxJobSeconds: 300,
  ...extra,
});

describe('reconcile plan', () => {
  const cur = (...items: Array<[ListenerSpec, CurrentListener['status']]>) => new Map(items.map(([s, status]) => [s.printerId, { spec: s, status }]));

  it('binds new, closes removed, keeps unchanged', () => {
    const plan = planReconcile(cur([spec('a', 1), 'bound'], [spec('b', 2), 'bound']), [spec('a', 1), spec('c', 3)]);
    expect(plan.close).toEqual(['b']);
    expect(plan.bind.map((s) => s.printerId)).toEqual(['c']);
    expect(plan.unchanged.map((s) => s.printerId)).toEqual(['a']);
    expect(plan.update).toEqual([]);
  });
  it('rebinds on port change and retries failed binds', () => {
    const plan = planReconcile(cur([spec('a', 1), 'bound'], [spec('b', 2), 'failed']), [spec('a', 9), spec('b', 2)]);
    expect(plan.close.sort()).toEqual(['a', 'b']);
    expect(plan.bind.map((s) => s.printerId).sort()).toEqual(['a', 'b']);
  });
  it('updates whitelist, buffer and limits in place', () => {
    const current = cur([spec('a', 1), 'bound'], [spec('b', 2), 'bound'], [spec('c', 3), 'bound'], [spec('d', 4), 'binding']);
    const plan = planReconcile(current, [
      spec('a', 1, { whitelist: { enabled: true, entries: [] } }),
      spec('b', 2, { buffer: { maxCapacity: 10, drainRate: 5 } }),
      spec('c', 3, { idleTimeoutMs: 100 }),
      spec('d', 4),
    ]);
    expect(plan.update.map((s) => s.printerId)).toEqual(['a', 'b', 'c']);
    expect(plan.unchanged.map((s) => s.printerId)).toEqual(['d']);
    expect(plan.bind).toEqual([]);
    expect(plan.close).toEqual([]);
  });
  it('an empty set closes everything; duplicates collapse to the last', () => {
    expect(planReconcile(cur([spec('a', 1), 'bound']), []).close).toEqual(['a']);
    const plan = planReconcile(new Map(), [spec('a', 1), spec('a', 2)]);
    expect(plan.bind).toHaveLength(1);
    expect(plan.bind[0].port).toBe(2);
  });
});

describe('listener sanitising', () => {
  it('fills defaults and drops unusable listeners', () => {
    expect(sanitizeListener({ port: 1 })).toBeNull();
    expect(sanitizeListener({ printerId: 'p', port: 70000 })).toBeNull();
    const s = sanitizeListener({ printerId: 'p', port: 9101, buffer: { maxCapacity: 0, drainRate: 1 } })!;
    expect(s.buffer).toBeNull();
    expect(s.idleTimeoutMs).toBe(2000);
    expect(s.maxJobBytes).toBe(16 * 1024 * 1024);
    expect(s.whitelist).toEqual({ enabled: false, entries: [] });
  });
});

describe('config', () => {
  it('requires the bridge secret and names it', () => {
    const r = parseConfig([], {});
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.message).toContain('BRIDGE_SECRET');
  });
  it('reads env, flags win, defaults apply', () => {
    const r = parseConfig(['--worker-url', 'http://h:1/', '--bind-host=127.0.0.1'], { BRIDGE_SECRET: 's', WORKER_URL: 'http://x:2', BIND_HOST: '::' });
    expect(r).toEqual({ kind: 'ok', config: { workerUrl: 'http://h:1', secret: 's', bindHost: '127.0.0.1', logLevel: 'info', stateDir: '', maxJobsTotal: 64, publicHost: '', lpdPort: 8515 } });
    const d = parseConfig(['--secret', 'z'], {});
    expect(d.kind === 'ok' && d.config).toEqual({ workerUrl: 'http://127.0.0.1:8787', secret: 'z', bindHost: '0.0.0.0', logLevel: 'info', stateDir: '', maxJobsTotal: 64, publicHost: '', lpdPort: 8515 });
  });
  it('a site\'s BRIDGE_TOKEN is what the bridge authenticates with, ahead of the shared secret', () => {
    const r = parseConfig([], { BRIDGE_TOKEN: 'ssb_site', BRIDGE_SECRET: 'shared' });
    expect(r.kind === 'ok' && r.config.secret).toBe('ssb_site');
    const f = parseConfig(['--token', 'ssb_flag'], { BRIDGE_TOKEN: 'ssb_env' });
    expect(f.kind === 'ok' && f.config.secret).toBe('ssb_flag');
    const missing = parseConfig([], {});
    expect(missing.kind === 'error' && missing.message).toContain('BRIDGE_TOKEN');
  });
  it('--help wins; unknown flags and bad URLs are errors', () => {
    expect(parseConfig(['--secret', 'x', '--help'], {}).kind).toBe('help');
    expect(parseConfig(['--nope'], { BRIDGE_SECRET: 's' }).kind).toBe('error');
    expect(parseConfig(['--worker-url', 'ftp://x'], { BRIDGE_SECRET: 's' }).kind).toBe('error');
  });
  it('maps http to ws URLs', () => {
    expect(toWebSocketUrl('http://127.0.0.1:8787', '/internal/bridge/control')).toBe('ws://127.0.0.1:8787/internal/bridge/control');
    expect(toWebSocketUrl('https://x.example/base/', '/a')).toBe('wss://x.example/base/a');
    expect(toHttpUrl('ws://h:1', '/j')).toBe('http://h:1/j');
  });
});
