// A real SMTP server for the notification suites (issue 46): smtp-server speaks the protocol, mailparser reads each
// message as a mail client would. A test awaits messages as they arrive, never a fixed time.
import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { whenEmitted } from "./poll";

export type Received = { to: string[]; from: string; mail: ParsedMail };

export type SmtpReceiver = {
  url: string;
  received: Received[];
  /** Resolves once at least `count` messages arrived (all of them), or rejects after timeoutMs. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Recipients whose RCPT TO is answered with a temporary failure (451) from now on. */
  refuse: Set<string>;
  /** How many RCPT TO were refused so far. */
  refused(): number;
  close(): Promise<void>;
};

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: Received[] = [];
  const refuse = new Set<string>();
  const events = new EventEmitter();
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        refusals += 1;
        events.emit("refused");
        const error = Object.assign(new Error("try again later"), { responseCode: 451 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const from = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address;
          received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), from, mail });
          events.emit("message");
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    refused: () => refusals,
    waitFor: (count, timeoutMs = 15_000) =>
      whenEmitted(
        events,
        "message",
        () => received.length >= count,
        () => received,
        () => `${count} messages, got ${received.length}`,
        timeoutMs,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
