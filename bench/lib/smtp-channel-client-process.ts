/**
 * One dispatch worker for the multi-process SMTP benchmark: sends its share through its own smtp channel.
 * Gets a ClientJob, warms up, answers 'ready', starts on 'go', and reports a ClientReport.
 */
import { smtpChannel } from '../../apps/server/src/channels/smtp.js';
import { type MessageForm, rawTemplate, SENDER, sendInBatches } from './smtp-load.js';

export interface ClientJob {
  port: number;
  form: MessageForm;
  first: number;
  count: number;
  warmup: number;
  batchSize: number;
  maxConnections: number;
}

export interface ClientReport {
  accepted: number;
  elapsedMs: number;
  cpuMs: number;
}

process.once('message', async (job: ClientJob) => {
  const channel = smtpChannel.create(
    {
      host: '127.0.0.1',
      port: job.port,
      security: 'none',
      senderName: 'Herald News',
      senderEmail: SENDER,
      maxConnections: job.maxConnections,
    },
    {},
  );
  const template = await rawTemplate();
  await sendInBatches(channel, job.form, template, job.first - job.warmup, job.warmup, job.batchSize);
  process.once('message', async () => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const accepted = await sendInBatches(channel, job.form, template, job.first, job.count, job.batchSize);
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const report: ClientReport = { accepted, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 };
    process.send?.(report);
    await channel.close();
    process.disconnect();
  });
  process.send?.('ready');
});
