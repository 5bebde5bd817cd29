-- A printer's `last_document_received_at` follows its per-hour document counters: the counter
-- outbox's one upsert per flush sets it too, instead of a second statement per flush (the
-- printing path's D1 budget: ~1 statement per printer per 30 s; docs/decisions.md).
CREATE TRIGGER document_counters_stamp_insert AFTER INSERT ON document_counters
WHEN NEW.last_at IS NOT NULL AND NEW.last_at <> ''
BEGIN
  UPDATE printers SET last_document_received_at = NEW.last_at
  WHERE id = NEW.printer_id AND COALESCE(last_document_received_at, '') < NEW.last_at;
END;

CREATE TRIGGER document_counters_stamp_update AFTER UPDATE OF last_at ON document_counters
WHEN NEW.last_at IS NOT NULL AND NEW.last_at <> ''
BEGIN
  UPDATE printers SET last_document_received_at = NEW.last_at
  WHERE id = NEW.printer_id AND COALESCE(last_document_received_at, '') < NEW.last_at;
END;
