-- One webhook per workspace (extensions.md "Documents outside the browser"). The signing
-- secret is kept as is: HMAC signing needs it, and it is shown to the user only once (PUT).
-- Deliveries go through the WEBHOOKS queue; the last delivery's time and HTTP status (0: no
-- answer) are written back here for the Settings page.
CREATE TABLE webhooks (
  workspace_id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  signing_secret TEXT NOT NULL,
  is_enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  last_delivery_at TEXT,
  last_delivery_status INTEGER
);
