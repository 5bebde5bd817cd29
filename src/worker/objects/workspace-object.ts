import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import { SseHub } from '../services/sse.ts';

/** Per-workspace hub for the sidebar stream: every printer of the workspace reports here. */
export class WorkspaceObject extends DurableObject<Env> {
  private readonly sidebar = new SseHub();

  override async fetch(_request: Request): Promise<Response> {
    return this.sidebar.open(undefined).response;
  }

  async publishSidebar(snapshot: unknown): Promise<void> {
    this.sidebar.broadcast('sidebar', snapshot);
  }
}
