// Issue 46: email through the operator's SMTP server, with nodemailer. One transport per URL, pooled, so a burst of
// notices reuses a connection instead of opening one per message.
import "server-only";
import nodemailer, { type Transporter } from "nodemailer";

export type Email = {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  /** This message's id, and the thread it belongs to (the same for every notice about one session's plan). */
  messageId: string;
  thread: string;
};

const transports = new Map<string, Transporter>();

function transportFor(url: string, timeoutMs: number): Transporter {
  let t = transports.get(url);
  if (!t) {
    const parsed = new URL(url);
    t = nodemailer.createTransport({
      host: parsed.hostname.replace(/^\[|\]$/g, ""),
      port: Number(parsed.port) || (parsed.protocol === "smtps:" ? 465 : 587),
      secure: parsed.protocol === "smtps:",
      // A password never crosses the network in the clear: with credentials, smtp:// must upgrade with STARTTLS.
      requireTLS: parsed.protocol === "smtp:" && Boolean(parsed.username),
      auth: parsed.username
        ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
        : undefined,
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    transports.set(url, t);
  }
  return t;
}

/** Sends one message; throws what the server or the connection said. */
export async function sendEmail(smtp: { url: string; from: string; timeoutMs: number }, email: Email): Promise<void> {
  await transportFor(smtp.url, smtp.timeoutMs).sendMail({
    from: smtp.from,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: email.messageId,
    // A thread per session's plan: every version's notice, its reminder and its decision stack in one conversation.
    references: [email.thread],
    inReplyTo: email.thread,
    headers: { "Auto-Submitted": "auto-generated", "X-Plangate-Notice": "1" },
  });
}

/** Closes the pooled connections (tests, shutdown). */
export function closeEmailTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}
