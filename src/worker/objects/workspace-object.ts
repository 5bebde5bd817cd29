import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import { SseHub } from '../services/sse.ts';
import { DirtySet } from './dirty-set.ts';
import { ALL_WORKSPACES, printerStub, workspaceStub } from '../services/notify.ts';

/**
 * Per-workspace hub for the sidebar stream: every printer of the workspace reports here. It
 * also knows which of the workspace's printers hold counters and stamps not yet in D1
 * (objects/dirty-set.ts); the object named ALL_WORKSPACES knows which workspaces do.
 */
export class WorkspaceObject extends DurableObject<Env> {
  private readonly sidebar = new SseHub();
  private readonly dirty: DirtySet;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.dirty = new DirtySet(ctx.storage.sql);
  }

  override async fetch(_request: Request): Promise<Response> {
    return this.sidebar.open(undefined).response;
  }

  async publishSidebar(snapshot: unknown): Promise<void> {
    this.sidebar.broadcast('sidebar', snapshot);
  }

  /** The printer's outbox holds what D1 has not seen; answered once this is known here (and above). */
  async printerDirty(workspaceId: string, printerId: string): Promise<void> {
    if (this.dirty.add(`printer:${printerId}`)) await workspaceStub(this.env, ALL_WORKSPACES).workspaceDirty(workspaceId);
  }

  /** (ALL_WORKSPACES only) The workspace has printers with pending writes. */
  async workspaceDirty(workspaceId: string): Promise<void> {
    this.dirty.add(`workspace:${workspaceId}`);
  }

  /** Flushes to D1 whatever was pending when this was called (the caller reads D1 next). */
  async settle(): Promise<void> {
    await this.dirty.settle(async (member) => {
      const [kind, id] = member.split(':', 2);
      if (kind === 'printer') await printerStub(this.env, id).settle();
      else await workspaceStub(this.env, id).settle();
    });
  }
}
