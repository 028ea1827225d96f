/**
 * A long SMS an SMSC took in part before it refused a part: the retry, or the next config of the group, sends only
 * the parts not taken, under the same concatenation reference, so the handset gets each part once.
 */
import { SMS_MAX_PARTS } from '@herald/shared';
import type smpp from 'smpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { type SmppTestServer, startSmppServer } from '../helpers/smpp-server.js';
import { accountIdOf, dispatcherFor, insert } from './helpers.js';

const LONG_TEXT = 'Привет, это Herald. '.repeat(15);
const PARTS = 5;

let t: TestApp;
const servers: SmppTestServer[] = [];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await Promise.all(servers.map((server) => server.close()));
});

/** The concatenation header of a submitted part: [IEI, length, reference, total, sequence]. */
const udhOf = (pdu: smpp.PDU) => [...(pdu.short_message as { udh: Buffer[] }).udh[0]!];

/** An SMSC that throttles the first submit of part 2 and takes everything else. */
async function smscThrottlingPartTwoOnce(): Promise<SmppTestServer> {
  let throttled = false;
  const server = await startSmppServer({
    systemId: 'herald',
    password: 'secret',
    submitStatus: (pdu) => {
      if (udhOf(pdu)[4] !== 2 || throttled) return 0;
      throttled = true;
      return 0x58;
    },
  });
  servers.push(server);
  return server;
}

async function setUp(smscs: SmppTestServer[], text = LONG_TEXT) {
  const { token, email } = await signUp(t.app);
  const accountId = await accountIdOf(t, email);
  const headers = { 'x-token': token };
  const configs: number[] = [];
  for (const [index, server] of smscs.entries()) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers,
      payload: {
        name: `SMSC ${index + 1}`,
        type: 'smpp',
        settings: { host: '127.0.0.1', port: server.port, systemId: 'herald', password: 'secret', sender: 'Herald' },
      },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    configs.push(res.json().id as number);
  }
  const group = await t.app.inject({
    method: 'POST',
    url: '/api/provider-configurations/groups',
    headers,
    payload: { name: 'SMSCs', category: 'SMS', configs: configs.map((id) => ({ providerConfigId: id })) },
  });
  if (group.statusCode !== 200) throw new Error(group.body);
  const [id] = await insert(t, [
    {
      accountId,
      campaignId: null,
      lane: 0,
      channel: 'SMS',
      recipient: '+380501234567',
      payload: JSON.stringify({ text }),
      routeGroupId: group.json().id as number,
    },
  ]);
  return { id: id!, configs };
}

const messageRow = (id: number) =>
  t.database.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('a long SMS', () => {
  it('fails without a part sent when it is longer than Herald sends', async () => {
    const smsc = await startSmppServer({ systemId: 'herald', password: 'secret' });
    servers.push(smsc);
    const { id } = await setUp([smsc], 'y'.repeat(153 * SMS_MAX_PARTS + 1));
    await dispatcherFor(t).runOnce();
    expect(await messageRow(id)).toMatchObject({
      status: 'failed',
      detail: `the SMS is too long: ${SMS_MAX_PARTS + 1} parts, at most ${SMS_MAX_PARTS}`,
    });
    expect(smsc.submits).toHaveLength(0);
  });
});

describe('a long SMS taken in part', () => {
  it('is retried with only the part the SMSC refused, and is sent once every part is taken', async () => {
    const smsc = await smscThrottlingPartTwoOnce();
    const { id, configs } = await setUp([smsc]);
    const dispatcher = dispatcherFor(t);
    await dispatcher.runOnce();
    const waiting = await messageRow(id);
    expect(waiting).toMatchObject({ status: 'resending', attempts: 1, config_id: configs[0] });
    expect(smsc.submits).toHaveLength(PARTS);
    const reference = udhOf(smsc.submits[0]!.pdu)[2];

    await t.database.db.updateTable('messages').set({ next_attempt_at: Date.now() }).where('id', '=', id).execute();
    await dispatcher.runOnce();
    const sent = await messageRow(id);
    expect(sent).toMatchObject({ status: 'sent', provider_message_id: smsc.submits[0]!.messageId });
    expect(smsc.submits).toHaveLength(PARTS + 1);
    expect(udhOf(smsc.submits[PARTS]!.pdu)).toEqual([0x00, 0x03, reference, PARTS, 2]);
    // Every part reached the SMSC exactly once.
    const taken = smsc.submits.filter((submit) => submit.messageId !== undefined).map((submit) => udhOf(submit.pdu)[4]);
    expect(taken.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("goes to the group's next config with only the part the first one refused", async () => {
    const first = await smscThrottlingPartTwoOnce();
    const second = await startSmppServer({ systemId: 'herald', password: 'secret' });
    servers.push(second);
    const { id, configs } = await setUp([first, second]);
    await dispatcherFor(t).runOnce();
    expect(await messageRow(id)).toMatchObject({ status: 'sent', config_id: configs[1] });
    expect(first.submits).toHaveLength(PARTS);
    expect(second.submits.map((submit) => udhOf(submit.pdu))).toEqual([[0x00, 0x03, udhOf(first.submits[0]!.pdu)[2], PARTS, 2]]);
  });
});
