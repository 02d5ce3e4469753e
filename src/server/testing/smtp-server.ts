import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeTo: string[];
  mail: ParsedMail;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives. `failFirst`: that many messages
 * are answered with a temporary failure (451) before any is accepted, as a mail server in trouble does.
 */
export async function startSmtpServer(options: { failFirst?: number; /** false: count messages, keep none (benchmarks). */ keep?: boolean } = {}) {
  const received: ReceivedMail[] = [];
  let refused = 0;
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      if (options.keep === false) {
        stream.on('end', () => {
          accepted++;
          callback();
        });
        stream.resume();
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          if (refused < (options.failFirst ?? 0)) {
            refused++;
            return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          }
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          accepted++;
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  // A client killed mid-session (the crash tests' SIGKILL) resets its connection: smtp-server
  // reports that as an 'error' event, which would be an uncaught exception without a listener.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, url: `smtp://127.0.0.1:${port}`, received, refused: () => refused, accepted: () => accepted, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
