import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the receiver got it: the envelope and the raw message (latin1, byte for byte). */
export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 (a port the OS picks unless given) that keeps every message it is given:
 * the outside world for the mailer's tests and for Postfix's relay in the mail daemon test. Like a
 * real one it refuses some recipients: `bounce-…@` for good (550), `defer-…@` for now (450).
 */
export async function startSmtpReceiver(port = 0) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const local = address.address.split('@')[0] ?? '';
      if (local.startsWith('bounce-')) return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      if (local.startsWith('defer-')) return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 450 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          mailFrom: mailFrom ? mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('latin1'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return { received, port: address.port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
