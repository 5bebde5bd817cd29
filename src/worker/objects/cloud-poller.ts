import type { PrinterRow } from '../data/rows.ts';
import type { CloudPrintSettings } from '../schemas/cloud-print.ts';
import { settingFromRow } from '../schemas/printer-settings.ts';
import { pollCloudPrnt } from '../services/cloudprnt/cloudprnt-cycle.ts';
import { pollServerDirectPrint } from '../services/server-direct-print/sdp-cycle.ts';
import type { CloudPrntClient } from '../services/cloudprnt/star-cloudprnt.ts';
import { CLOUD_REQUEST_TIMEOUT_MS, type CloudPollerHost } from '../services/cloud-fetch.ts';

export type { ArrivedJob, CloudPollerHost } from '../services/cloud-fetch.ts';

/**
 * The printer's cloud polling (extensions.md "Cloud printers"): while the printer is Started
 * and has `settings.cloudPrint`, one poll every `intervalSeconds`, driven by the printer
 * object's alarm. Polls never overlap: the next is due an interval after the last began, or as
 * soon as it ended when it took longer. Whatever the server does (down, slow, 500, garbage,
 * redirect), the poll ends with an error reported and the next one is scheduled.
 */
export class CloudPoller {
  private settings: CloudPrintSettings | null = null;
  private dueAt: number | null = null;
  private running: Promise<void> | null = null;
  /** Something asked for a poll while one was under way: the next comes as soon as it ends. */
  private pollAgain = false;
  /** The CloudPRNT client's memory: the id a server set with SetID, kept while the object lives (a real printer keeps it in flash). */
  private uniqueId: string | null = null;

  constructor(private readonly host: CloudPollerHost) {}

  /**
   * The printer row changed (settings, start/stop, delete, flags): polling follows it. A
   * CloudPRNT printer whose status changed polls at once ("if an event occurs, such as a
   * printer status change, … a poll to the server will be triggered immediately").
   */
  async follow(row: PrinterRow, statusChanged = false): Promise<void> {
    const next = row.deleted_at || row.runtime_state !== 'Started' ? null : settingFromRow(row, 'cloudPrint') ?? null;
    const changed = JSON.stringify(next) !== JSON.stringify(this.settings);
    this.settings = next;
    if (!next) { this.dueAt = null; return; }
    if (changed || this.dueAt === null || (statusChanged && next.kind === 'StarCloudPrnt')) {
      this.dueAt = Date.now();
      if (this.running) this.pollAgain = true;
      else await this.host.wakeBy(this.dueAt);
    }
  }

  get isPolling(): boolean {
    return this.settings !== null;
  }

  /** The alarm rang: poll when due, and make sure the alarm rings for the next poll. */
  async onAlarm(): Promise<void> {
    if (!this.settings || this.dueAt === null || this.running) return;
    if (Date.now() < this.dueAt) { await this.host.wakeBy(this.dueAt); return; }
    const settings = this.settings;
    const began = Date.now();
    this.pollAgain = false;
    this.running = this.pollOnce(settings);
    try {
      await this.running;
    } finally {
      this.running = null;
    }
    if (this.settings === null) return; // stopped or deleted meanwhile
    this.dueAt = this.pollAgain ? Date.now() : Math.max(began + this.settings.intervalSeconds * 1000, Date.now());
    await this.host.wakeBy(this.dueAt);
  }

  private async pollOnce(settings: CloudPrintSettings): Promise<void> {
    let error: string | null = null;
    try {
      if (settings.kind === 'StarCloudPrnt') {
        const client: CloudPrntClient = { printerId: this.host.printerId(), uniqueId: this.uniqueId, intervalSeconds: settings.intervalSeconds };
        await pollCloudPrnt(settings.url, this.host, client);
        this.uniqueId = client.uniqueId;
      }
      else await pollServerDirectPrint(settings.url, this.host, { id: this.host.printerId(), name: this.host.displayName() });
    } catch (e) {
      error = e instanceof Error ? (e.name === 'TimeoutError' ? `The server did not answer within ${CLOUD_REQUEST_TIMEOUT_MS / 1000} s` : e.message) : String(e);
    }
    this.host.report(new Date().toISOString(), error);
  }
}
