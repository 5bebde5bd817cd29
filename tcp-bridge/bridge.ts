/** Wires the bridge together: control channel -> listener registry -> sessions -> recovery. */
import type { BridgeConfig } from './config.ts';
import { ControlChannel } from './control.ts';
import { ListenerRegistry } from './listeners.ts';
import type { Logger } from './log.ts';
import { RecoveryQueue } from './recovery.ts';

export interface RunningBridge {
  registry: ListenerRegistry;
  control: ControlChannel;
  recovery: RecoveryQueue;
  stop(): Promise<void>;
}

export interface BridgeTuning {
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
}

export function startBridge(config: BridgeConfig, log: Logger, tuning: BridgeTuning = {}): RunningBridge {
  const recovery = new RecoveryQueue({ workerUrl: config.workerUrl, secret: config.secret, log });
  // The registry needs the control channel and vice versa; the sink indirection breaks the cycle.
  let control: ControlChannel;
  const registry = new ListenerRegistry({
    bindHost: config.bindHost,
    workerUrl: config.workerUrl,
    secret: config.secret,
    log,
    recovery,
    control: {
      send: (m) => control.send(m),
      sendOrQueue: (m) => control.sendOrQueue(m),
    },
  });
  control = new ControlChannel({
    workerUrl: config.workerUrl,
    secret: config.secret,
    log,
    pingIntervalMs: tuning.pingIntervalMs,
    pongTimeoutMs: tuning.pongTimeoutMs,
    onListeners: (listeners, resync) => void registry.apply(listeners, resync),
    onConnected: () => recovery.kick(),
  });
  control.start();

  let stopping: Promise<void> | null = null;
  return {
    registry,
    control,
    recovery,
    stop(): Promise<void> {
      stopping ??= (async () => {
        log.info('bridge.stopping', { listeners: registry.listenerCount, openConnections: registry.sessionCount });
        const closed = registry.closeAll();
        await Promise.race([closed, new Promise((r) => setTimeout(r, 8_000))]);
        const left = await recovery.drain(3_000);
        if (left > 0) log.error('recovery.unsent_at_shutdown', { jobs: left });
        recovery.stop();
        await control.stop();
        log.info('bridge.stopped', {});
      })();
      return stopping;
    },
  };
}
