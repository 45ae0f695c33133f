import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string | false;
  messageId: string;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

/** A real SMTP server on loopback that keeps what it receives. */
/** `port`: listen there (to bring a stopped server back at the same address). */
export async function startSmtp(port = 0): Promise<{ url: string; mails: ReceivedMail[]; waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Its bundled certificate has expired: plain SMTP on loopback.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((m) => {
          const to = Array.isArray(m.to) ? m.to[0]?.text : m.to?.text;
          mails.push({ to: to ?? '', subject: m.subject ?? '', text: m.text ?? '', html: m.html, messageId: m.messageId ?? '', attachments: m.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content })) });
          callback();
        })
        .catch(callback);
    },
  });
  // A sender killed mid-message (kill -9 of an instance) resets its connection: without a listener that 'error' would stop this process.
  server.on('error', () => {});
  const bound = await new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)));
  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    async waitFor(to, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find((m) => m.to.includes(to));
        if (found) return found;
        if (Date.now() > end) throw new Error(`no mail to ${to} within ${timeoutMs} ms (got ${mails.map((m) => m.to).join(', ') || 'none'})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
