/** Wires the bridge together: control channel -> listener registry -> sessions -> recovery. */
import { join } from 'node:path';
import type { BridgeConfig } from './config.ts';
import { ControlChannel } from './control.ts';
import { ListenerRegistry } from './listeners.ts';
import type { Logger } from './log.ts';
import { RecoveryQueue } from './recovery.ts';
import { bridgeCertificate, type TlsCredentials } from './certificate.ts';
import { errorMessage } from './log.ts';
import { LpdServer } from './lpd.ts';

export interface RunningBridge {
  registry: ListenerRegistry;
  control: ControlChannel;
  recovery: RecoveryQueue;
  /** Graceful: open jobs are finalised with the Worker (bounded), what is left goes to disk. */
  stop(): Promise<void>;
  /**
   * The Worker is going away with this bridge (its supervisor died): stop accepting, send
   * nothing more, and write every open or queued job to STATE_DIR/recovery within about a second.
   */
  abandon(): Promise<void>;
}

/**
 * Shutdown's budget: `npm start` must be gone within 10 s of SIGTERM (Docker and many CI runners
 * kill then), the Worker's stop after the bridge's included. Jobs not finalised by then are
 * handed to recovery and kept on disk: nothing is lost, it is stored at the next start.
 */
const STOP_FINALISE_MS = 4_500;
const STOP_DRAIN_MS = 1_000;

/** How long `abandon` lets open jobs end (and be finalised, if the Worker is still there). */
const ABANDON_WITHIN_MS = 1_000;

export interface BridgeTuning {
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  finaliseQuietMs?: number;
}

export function startBridge(config: BridgeConfig, log: Logger, tuning: BridgeTuning = {}): RunningBridge {
  const recovery = new RecoveryQueue({
    workerUrl: config.workerUrl,
    secret: config.secret,
    log,
    spillDir: config.stateDir ? join(config.stateDir, 'recovery') : null,
  });
  // Jobs the previous run could not send (shutdown, or a crash after spilling) go first.
  recovery.loadSpilled();
  // HTTPS on printer ports: the certificate kept in STATE_DIR (made on first start).
  let tls: TlsCredentials | null = null;
  void bridgeCertificate(config.stateDir, config.publicHost ?? '').then(
    (c) => { tls = c; },
    (e) => log.error('bridge.certificate_failed', { error: errorMessage(e) }),
  );
  // The registry needs the control channel and vice versa; the sink indirection breaks the cycle.
  let control: ControlChannel;
  const registry = new ListenerRegistry({
    bindHost: config.bindHost,
    maxJobsTotal: config.maxJobsTotal,
    finaliseQuietMs: tuning.finaliseQuietMs,
    tls: () => tls,
    workerUrl: config.workerUrl,
    secret: config.secret,
    log,
    recovery,
    control: {
      send: (m) => control.send(m),
      sendOrQueue: (m) => control.sendOrQueue(m),
    },
  });
  const lpd = config.lpdPort ? new LpdServer({ workerUrl: config.workerUrl, secret: config.secret, log, queue: (name) => registry.lpdQueue(name) }) : null;
  control = new ControlChannel({
    workerUrl: config.workerUrl,
    secret: config.secret,
    log,
    pingIntervalMs: tuning.pingIntervalMs,
    pongTimeoutMs: tuning.pongTimeoutMs,
    onListeners: (listeners, resync) => void registry.apply(listeners, resync),
    onConnected: () => recovery.kick(),
    // A refused bridge (revoked while away, or a wrong token) must not keep taking print jobs
    // it can never deliver: it listens for nothing until the Worker accepts it again.
    onRefused: () => void registry.apply([], true),
    hello: () => ({ type: 'hello', lpdPort: lpd?.port ?? null }),
  });
  control.start();
  // The Worker shows the LPD port once it listens (the hello of a connection made before says null).
  void lpd?.listen(config.lpdPort!, config.bindHost).then(() => { if (lpd.port !== null) control.send({ type: 'hello', lpdPort: lpd.port }); });

  let stopping: Promise<void> | null = null;
  return {
    registry,
    control,
    recovery,
    stop(): Promise<void> {
      stopping ??= (async () => {
        log.info('bridge.stopping', { listeners: registry.listenerCount, openConnections: registry.sessionCount });
        lpd?.close();
        const closed = registry.closeAll();
        await Promise.race([closed, new Promise((r) => setTimeout(r, STOP_FINALISE_MS))]);
        const handedOver = registry.handOverOpenSessions();
        if (handedOver > 0) log.warn('bridge.unfinalised_at_shutdown', { sessions: handedOver });
        const left = await recovery.drain(STOP_DRAIN_MS);
        recovery.stop();
        if (left > 0) {
          // Sent at the next start (loadSpilled); without a state directory they are lost, loudly.
          const onDisk = recovery.persist();
          if (onDisk > 0) log.warn('recovery.persisted_at_shutdown', { jobs: onDisk, dir: join(config.stateDir, 'recovery') });
          if (onDisk < left) log.error('recovery.unsent_at_shutdown', { jobs: left - onDisk });
        }
        await control.stop();
        log.info('bridge.stopped', {});
      })();
      return stopping;
    },
    async abandon(): Promise<void> {
      log.warn('bridge.abandoning', { listeners: registry.listenerCount, openConnections: registry.sessionCount, queued: recovery.size });
      recovery.stop();
      await Promise.race([registry.closeAll(), new Promise((r) => setTimeout(r, ABANDON_WITHIN_MS))]);
      registry.handOverOpenSessions();
      const onDisk = recovery.persist();
      if (onDisk > 0) log.warn('recovery.persisted_at_shutdown', { jobs: onDisk, dir: join(config.stateDir, 'recovery') });
      if (onDisk < recovery.size) log.error('recovery.unsent_at_shutdown', { jobs: recovery.size - onDisk });
    },
  };
}
