/**
 * Error messages are capped per document (src/engines/core/error-list.ts), in both engines:
 * a job of garbage keeps 200 messages and says how many more there were.
 */
import { describe, expect, it } from 'vitest';
import { ErrorList, MAX_ERROR_MESSAGES } from '../../../src/engines/core/error-list.ts';
import { createEscPosSession } from '../../../src/engines/escpos/index.ts';
import { createEplSession } from '../../../src/engines/epl/index.ts';
import { labelPrinterContext, testPrinterContext } from '../../support/printer-context.ts';

describe('ErrorList', () => {
  it('keeps the first 200 messages, counts the rest, and puts a lead message first', () => {
    const list = new ErrorList();
    for (let i = 0; i < MAX_ERROR_MESSAGES + 5; i++) list.add(`error ${i}`);
    list.setLead('summary');
    const messages = list.messages();
    expect(messages).toHaveLength(MAX_ERROR_MESSAGES + 2);
    expect(messages[0]).toBe('summary');
    expect(messages[1]).toBe('error 0');
    expect(messages.at(-2)).toBe(`error ${MAX_ERROR_MESSAGES - 1}`);
    expect(messages.at(-1)).toBe('5 more errors not listed');
  });

  it('says nothing more when under the cap', () => {
    const list = new ErrorList();
    list.add('only');
    expect(list.messages()).toEqual(['only']);
  });
});

describe('error cap in the engines', () => {
  it('ESC/POS: 300 unknown commands give 200 messages and the count of the rest', () => {
    const session = createEscPosSession(() => testPrinterContext());
    const job = new Uint8Array(300 * 2);
    for (let i = 0; i < 300; i++) job.set([0x1b, 0xfe], i * 2); // ESC 0xFE: no such command
    session.push(job);
    const { errorMessages, bytesReceived } = session.finish();
    expect(bytesReceived).toBe(job.length);
    expect(errorMessages).toHaveLength(MAX_ERROR_MESSAGES + 1);
    expect(errorMessages.at(-1)).toMatch(/^\d+ more errors not listed$/);
    expect(Number(errorMessages.at(-1)!.split(' ')[0]) + MAX_ERROR_MESSAGES).toBeGreaterThanOrEqual(300);
  });

  it('EPL: 300 unknown commands give 200 messages and the count of the rest', () => {
    const session = createEplSession(() => labelPrinterContext());
    session.push(new TextEncoder().encode('QQQ\n'.repeat(300)));
    const { errorMessages } = session.finish();
    expect(errorMessages).toHaveLength(MAX_ERROR_MESSAGES + 1);
    expect(errorMessages.at(-1)).toBe('100 more errors not listed');
  });
});
