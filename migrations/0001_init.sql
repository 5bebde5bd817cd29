-- Slipstream relational data (D1). Media and large document bodies live in R2.

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  document_retention_days INTEGER NOT NULL DEFAULT 30,
  tcp_whitelist_enabled INTEGER NOT NULL DEFAULT 0,
  tcp_whitelist_entries TEXT NOT NULL DEFAULT '',
  last_api_read_at TEXT,
  last_web_read_at TEXT,
  light_color_scheme TEXT,
  dark_color_scheme TEXT
);

-- Highest port ever assigned. Ports are never reused, even after a printer or its whole
-- workspace is deleted, so the high-water mark cannot be derived from the printers table.
CREATE TABLE port_allocator (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  highest_port INTEGER NOT NULL
);

CREATE TABLE printers (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  display_name TEXT NOT NULL,
  is_pinned INTEGER NOT NULL DEFAULT 0,
  last_viewed_document_id TEXT,
  last_document_received_at TEXT,
  last_api_read_at TEXT,
  last_web_read_at TEXT,
  protocol TEXT NOT NULL,
  width_in_dots INTEGER NOT NULL,
  height_in_dots INTEGER,
  tcp_listen_port INTEGER NOT NULL UNIQUE,
  emulate_buffer_capacity INTEGER NOT NULL DEFAULT 0,
  buffer_drain_rate REAL,
  buffer_max_capacity INTEGER,
  target_state TEXT NOT NULL DEFAULT 'Started',
  is_cover_open INTEGER NOT NULL DEFAULT 0,
  is_paper_out INTEGER NOT NULL DEFAULT 0,
  is_offline INTEGER NOT NULL DEFAULT 0,
  has_error INTEGER NOT NULL DEFAULT 0,
  is_paper_near_end INTEGER NOT NULL DEFAULT 0,
  flags_updated_at TEXT NOT NULL,
  -- Mirror of the runtime status owned by the printer's Durable Object / the bridge hub,
  -- kept here so lists and the sidebar need no Durable Object round trip.
  runtime_state TEXT NOT NULL DEFAULT 'Starting',
  runtime_updated_at TEXT NOT NULL,
  drawer1_state TEXT NOT NULL DEFAULT 'Closed',
  drawer2_state TEXT NOT NULL DEFAULT 'Closed',
  created_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX printers_by_workspace ON printers (workspace_id, deleted_at);

CREATE TABLE documents (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  print_job_id TEXT NOT NULL UNIQUE,
  printer_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  protocol TEXT NOT NULL,
  client_address TEXT,
  bytes_received INTEGER NOT NULL,
  bytes_sent INTEGER NOT NULL,
  -- The RenderedDocumentDto JSON when small; otherwise NULL and the body is in R2 at body_key.
  body TEXT,
  body_key TEXT,
  -- The raw job bytes, so the document can be rendered again identically: inline when small
  -- (most receipts), else in R2 at raw_key.
  raw BLOB,
  raw_key TEXT,
  engine_version TEXT NOT NULL
);
CREATE INDEX documents_by_printer ON documents (printer_id, seq);
CREATE INDEX documents_by_workspace_time ON documents (workspace_id, created_at);
CREATE INDEX documents_by_time ON documents (created_at);

-- One row per use of an image. Bytes are in R2 under storage_key (content-addressed,
-- shared between rows with equal bytes).
CREATE TABLE media (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  printer_id TEXT NOT NULL,
  document_id TEXT,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX media_by_document ON media (document_id);
CREATE INDEX media_by_workspace ON media (workspace_id, created_at);
CREATE INDEX media_by_key ON media (storage_key);

CREATE TABLE nv_images (
  printer_id TEXT NOT NULL,
  slot INTEGER NOT NULL,
  width_in_dots INTEGER NOT NULL,
  height_in_dots INTEGER NOT NULL,
  media_id TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (printer_id, slot)
);

CREATE TABLE tcp_connections (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id TEXT NOT NULL,
  printer_id TEXT NOT NULL,
  client_ip TEXT NOT NULL,
  connected_at TEXT NOT NULL,
  allowed INTEGER NOT NULL,
  connection_type TEXT NOT NULL DEFAULT 'Tcp'
);
CREATE INDEX tcp_connections_by_workspace ON tcp_connections (workspace_id, connected_at);
