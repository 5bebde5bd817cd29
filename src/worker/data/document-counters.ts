/** The per-hour document counters of a printer in D1 (statistics); the printing path adds to them through objects/counter-outbox.ts. */

/** Replaces the printer's counters with these hours (a rebuild from the printer object's documents). */
export async function replacePrinterCounters(
  db: D1Database,
  owner: { printerId: string; workspaceId: string },
  hours: { hour: string; documents: number; lastAt: string }[],
): Promise<void> {
  await db.batch([
    db.prepare('DELETE FROM document_counters WHERE printer_id = ?').bind(owner.printerId),
    ...hours.map((h) =>
      db.prepare('INSERT INTO document_counters (printer_id, workspace_id, hour, documents, last_at) VALUES (?, ?, ?, ?, ?)')
        .bind(owner.printerId, owner.workspaceId, h.hour, h.documents, h.lastAt)),
  ]);
}
