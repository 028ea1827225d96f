/**
 * Child process for SMPP benchmarks: two test SMSCs on loopback ports, one answering with Nagle (a plain
 * net.Server) and one with TCP_NODELAY, counting submit_sm without keeping them. Tells its parent both ports,
 * then answers each 'state' message with the submit_sm received and the CPU used so far.
 */
import { startSmppServer } from '../../apps/server/test/helpers/smpp-server.js';

const nagle = await startSmppServer({ record: false });
const noDelay = await startSmppServer({ record: false, noDelay: true });
process.send?.({ ports: { nagle: nagle.port, noDelay: noDelay.port } });
process.on('message', (message) => {
  if (message !== 'state') return;
  const cpu = process.cpuUsage();
  process.send?.({ count: nagle.submitCount + noDelay.submitCount, cpuMicros: cpu.user + cpu.system });
});
process.on('disconnect', () => {
  void Promise.all([nagle.close(), noDelay.close()]).then(() => process.exit(0));
});
