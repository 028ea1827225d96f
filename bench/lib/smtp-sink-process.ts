/**
 * A loopback SMTP sink run as a child process (so its CPU is not the client's): accepts everything, keeps
 * nothing, counts messages. Tells its parent `{ port }` once listening and answers `'count'` with `{ count, cpuMs }`.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let received = 0;

const server = new SMTPServer({
  logger: false,
  disableReverseLookup: true,
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => {
      received += 1;
      callback(null, `OK: queued as B${received}`);
    });
  },
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.server.address() as AddressInfo).port });
});

process.on('message', (request) => {
  if (request !== 'count') return;
  const cpu = process.cpuUsage();
  process.send?.({ count: received, cpuMs: (cpu.user + cpu.system) / 1000 });
});

// Pools may still hold idle connections that smtp-server would wait 30 s for; nothing here needs a clean close.
process.on('disconnect', () => process.exit(0));
