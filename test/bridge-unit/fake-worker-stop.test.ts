/**
 * The fake Worker's outage must be a real one: `stop` drops every socket, including a session
 * upgrade it received but had not completed (the bridge opens warm spares right after each
 * bind, so an outage test that starts then always has some in flight). Such an upgrade used
 * to complete after `stop`: a spare stayed open through the "outage" and `stop` hung on it
 * until the bridge closed it (the flaky 60 s timeout of bridge-fake.test.ts's outage test).
 */
import { afterEach, expect, it } from 'vitest';
import { openSessionSocket } from '../../tcp-bridge/session-socket.ts';
import { FakeWorker } from './support/fake-worker.ts';

let fake: FakeWorker;

afterEach(async () => {
  await fake.stop();
});

it('stop drops a session upgrade still in progress, and returns', async () => {
  fake = new FakeWorker();
  await fake.start();
  fake.upgradeDelayMs = 3_000;
  const spare = openSessionSocket(fake.url, fake.secret, 'printer-0', null);
  let opened = false;
  spare.on('open', () => (opened = true));
  spare.on('error', () => {});
  const closed = new Promise((r) => spare.once('close', r));
  await fake.waitFor(() => fake.pendingUpgrades === 1, 5_000, 'upgrade received');
  const stopped = await Promise.race([fake.stop().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('still running'), 2_000))]);
  expect(stopped).toBe('stopped');
  await closed;
  expect(opened).toBe(false);
});
