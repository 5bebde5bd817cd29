import type { Env } from '../env.ts';
import type { Settings } from '../config.ts';
import type { WorkspaceRow } from '../data/rows.ts';
import type { Role } from '../auth/jwt.ts';

/** Who is calling: the authenticated workspace, its role, and which client kind reads. */
export interface Caller {
  workspace: WorkspaceRow;
  role: Role;
  /** `X-Client: web` marks the web UI; read stamps go to lastWebReadAt instead of lastApiReadAt. */
  client: 'web' | 'api';
}

export interface AppEnv {
  Bindings: Env;
  Variables: { settings: Settings; caller: Caller };
}
