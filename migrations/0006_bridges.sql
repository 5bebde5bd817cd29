-- Bridges per workspace (extensions.md "Sites: a bridge per LAN"): a tcp-bridge on a shop's
-- LAN authenticates with its own token (only the SHA-256 is stored, like workspace tokens)
-- and serves only the printers assigned to it. Revoking deletes the row: the token stops
-- working at once.
CREATE TABLE bridges (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  name TEXT NOT NULL,
  public_host TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  -- Written by the bridge's hub on connect and disconnect (not per document or ping).
  last_seen_at TEXT,
  remote_address TEXT,
  version TEXT
);
CREATE INDEX bridges_by_workspace ON bridges (workspace_id);

-- NULL: the deployment's shared bridge (BRIDGE_SECRET, the one `npm start` runs).
ALTER TABLE printers ADD COLUMN bridge_id TEXT;
CREATE INDEX printers_by_bridge ON printers (bridge_id, target_state);
