import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryReport } from '../../src/channels/types.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await signUp(t.app));
});
afterAll(() => t.close());

describe('sandbox channels', () => {
  it('keep every message of a send in the inbox and report each one’s simulated receipt there and to the engine', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: { 'x-token': token },
      payload: { name: 'Receipts now', type: 'sandbox-sms', settings: { receiptDelaySeconds: 0, deliveredShare: 100 } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const row = await t.database.db
      .selectFrom('provider_configs')
      .selectAll()
      .where('id', '=', created.json().id)
      .executeTakeFirstOrThrow();
    const reports: DeliveryReport[] = [];
    const everyReport = new Promise<void>((resolve) =>
      t.app.channels.onDeliveryReport((_configId, report) => {
        reports.push(report);
        if (reports.length === 120) resolve();
      }),
    );
    const messages = Array.from({ length: 120 }, (_, i) => ({
      id: i + 1,
      to: `+1555010${String(i).padStart(4, '0')}`,
      text: `Code ${i}`,
    }));
    const results = await t.app.channels.get(row).send(messages);
    expect(results.map((result) => result.accepted)).toEqual(messages.map(() => true));
    await everyReport;
    expect(new Set(reports.map((report) => report.providerMessageId))).toEqual(
      new Set(results.map((result) => result.providerMessageId)),
    );

    const items: { recipient: string; body: string; status: string }[] = [];
    for (const page of [1, 2]) {
      const inbox = await t.app.inject({
        method: 'GET',
        url: `/api/data/sandbox/messages?category=SMS&page=${page}&size=100`,
        headers: { 'x-token': token },
      });
      expect(inbox.statusCode, inbox.body).toBe(200);
      items.push(...inbox.json().items);
    }
    expect(items).toHaveLength(120);
    expect(items.every((item) => item.status === 'delivered')).toBe(true);
    expect(items.map((item) => item.body).sort()).toEqual(messages.map((message) => message.text).sort());
  });
});
