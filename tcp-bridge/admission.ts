/**
 * Backpressure at the door (docs/contract/extensions.md "Limits"): at most `maxJobsInFlight` jobs per printer
 * and `maxTotal` in the whole bridge run at once (a job runs from accept to `finalised`).
 * Connections beyond that wait, accepted by the kernel but unread: the client's writes fill the
 * socket buffers and then block, as with a busy printer. Node has no way to stop calling
 * accept() on a listening socket without closing it (which would reset the kernel's backlog),
 * so "waiting in the backlog" is this userland queue; it costs a file descriptor and a few
 * hundred bytes per connection, never the job's bytes. A printer's open connections (running +
 * waiting) are capped at `maxConnections`; one more is refused (closed at once).
 */
export interface Admittable {
  /** Starts the job (reading the socket). */
  admit(): void;
  /** Still worth starting (the client may have given up while waiting). */
  readonly alive: boolean;
  /** Never started: close the connection (its listener went away). */
  abandon(): void;
}

interface Door {
  running: number;
  readonly waiting: Admittable[];
  limits: () => { maxJobsInFlight: number; maxConnections: number };
}

export type AdmissionResult = 'running' | 'waiting' | 'refused';

export class Admission {
  private readonly doors = new Map<string, Door>();
  private running = 0;
  private cursor = 0;
  private readonly maxTotal: number;

  /** Plain fields, no parameter properties: `node tcp-bridge/main.ts` runs with type stripping only. */
  constructor(maxTotal: number) {
    this.maxTotal = maxTotal;
  }

  get totalRunning(): number {
    return this.running;
  }

  get totalWaiting(): number {
    let n = 0;
    for (const d of this.doors.values()) n += d.waiting.length;
    return n;
  }

  open(printerId: string, limits: Door['limits']): void {
    if (!this.doors.has(printerId)) this.doors.set(printerId, { running: 0, waiting: [], limits });
  }

  /** The printer's listener is gone: its waiting connections are handed back (to be closed). */
  close(printerId: string): Admittable[] {
    const door = this.doors.get(printerId);
    this.doors.delete(printerId);
    if (!door) return [];
    this.running -= door.running;
    this.pump();
    return door.waiting.splice(0);
  }

  /** A connection arrived: started now, queued, or refused (over maxConnections). */
  arrive(printerId: string, job: Admittable): AdmissionResult {
    const door = this.doors.get(printerId);
    if (!door) return 'refused';
    const { maxJobsInFlight, maxConnections } = door.limits();
    door.waiting.splice(0, door.waiting.length, ...door.waiting.filter((w) => w.alive));
    if (door.running + door.waiting.length >= maxConnections) return 'refused';
    if (door.waiting.length === 0 && door.running < maxJobsInFlight && this.running < this.maxTotal) {
      this.start(door, job);
      return 'running';
    }
    door.waiting.push(job);
    return 'waiting';
  }

  /** A running job was finalised (or given up): the next waiting connection may start. */
  finished(printerId: string): void {
    const door = this.doors.get(printerId);
    if (!door) return;
    door.running--;
    this.running--;
    this.pump();
  }

  /** Starts waiting jobs while there is room, taking printers in turn so none starves. */
  private pump(): void {
    const doors = [...this.doors.values()];
    let progressed = true;
    while (progressed && this.running < this.maxTotal) {
      progressed = false;
      for (let i = 0; i < doors.length && this.running < this.maxTotal; i++) {
        const door = doors[(this.cursor + i) % doors.length];
        while (door.waiting.length > 0 && !door.waiting[0].alive) door.waiting.shift();
        if (door.waiting.length === 0 || door.running >= door.limits().maxJobsInFlight) continue;
        this.start(door, door.waiting.shift()!);
        progressed = true;
      }
      this.cursor = doors.length ? (this.cursor + 1) % doors.length : 0;
    }
  }

  private start(door: Door, job: Admittable): void {
    door.running++;
    this.running++;
    job.admit();
  }
}
