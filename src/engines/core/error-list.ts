/**
 * A document's error messages, capped: a job of garbage could otherwise carry one message per
 * byte. Past the cap the messages are counted, and the list ends with how many were left out.
 */
export const MAX_ERROR_MESSAGES = 200;

export class ErrorList {
  private readonly kept: string[] = [];
  private dropped = 0;
  /** Comes first whatever the cap (the summary of an elided job). */
  private lead: string | null = null;

  add(message: string): void {
    if (this.kept.length < MAX_ERROR_MESSAGES) this.kept.push(message);
    else this.dropped++;
  }

  /** A message placed before all others, outside the cap. */
  setLead(message: string): void {
    this.lead = message;
  }

  messages(): string[] {
    const out = this.lead === null ? [...this.kept] : [this.lead, ...this.kept];
    if (this.dropped > 0) out.push(`${this.dropped} more errors not listed`);
    return out;
  }
}
