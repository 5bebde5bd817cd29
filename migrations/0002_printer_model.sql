-- The printer model a printer emulates (src/engines/models) and the multi-byte encoding of its
-- regional unit. NULL (printers created before models existed) reads as the protocol's default
-- model and that model's default encoding (src/worker/services/printer-models.ts), so the
-- defaults live in one place, not in this file.
ALTER TABLE printers ADD COLUMN model TEXT;
ALTER TABLE printers ADD COLUMN multi_byte_encoding TEXT;
