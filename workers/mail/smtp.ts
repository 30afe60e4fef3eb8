// A small SMTP submission client over `cloudflare:sockets`: Workers have no mail API of their own,
// and one-time codes only need a single message per connection.
import { connect } from "cloudflare:sockets";
import { z } from "zod";
import { buildMessage, domainOf, isAscii, type MailMessage, normaliseNewlines, parseMailbox, toBase64 } from "./mime.ts";

export type { MailMessage } from "./mime.ts";

export interface SmtpTarget {
  hostname: string;
  port: number;
  /** "on": TLS from the first byte (smtps://); "starttls": upgrade when offered; "off": never. */
  tls: "on" | "starttls" | "off";
  user?: string;
  password?: string;
}

export interface SmtpOptions {
  /** The whole exchange, from connect to the server accepting the message (default 15 s). */
  timeoutMs?: number;
  /** Any single wait for the server (default 10 s). */
  readTimeoutMs?: number;
}

const SmtpUrlSchema = z.object({
  protocol: z.enum(["smtp:", "smtps:"], { error: "SMTP_URL must start with smtp:// or smtps://" }),
  hostname: z.string().min(1, { error: "SMTP_URL has no host" }),
  port: z.coerce.number().int().min(1).max(65535, { error: "SMTP_URL has an invalid port" }),
  tls: z.enum(["off"], { error: 'SMTP_URL: the only tls option is "off"' }).optional(),
});

/** Reads `smtp://user:pass@host:587`, `smtps://user:pass@host:465` or `smtp://host:2525?tls=off`. */
export function parseSmtpUrl(raw: string): SmtpTarget {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // Never echo the URL: it carries the password.
    throw new Error("SMTP_URL is not a valid URL");
  }
  const parsed = SmtpUrlSchema.safeParse({
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port || (url.protocol === "smtps:" ? 465 : 587),
    tls: url.searchParams.get("tls") ?? undefined,
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join("; "));
  const { protocol, hostname, port, tls } = parsed.data;
  return {
    hostname,
    port,
    tls: protocol === "smtps:" ? "on" : tls === "off" ? "off" : "starttls",
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

/** Delivers one message through the server in `url`; resolves once the server has accepted it. */
export async function sendSmtp(url: string, message: MailMessage, options: SmtpOptions = {}): Promise<void> {
  const target = parseSmtpUrl(url);
  const from = parseMailbox(message.from).address;
  const to = parseMailbox(message.to).address;
  const data = buildMessage(message);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const session = openSession(target, Math.min(options.readTimeoutMs ?? 10_000, timeoutMs));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`SMTP to ${target.hostname}:${target.port} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([converse(session, target, { from, to, data }), deadline]);
    // The message is accepted: QUIT is a courtesy, and a slow reply to it must not turn into a
    // failure that makes the caller send the message again.
    await withTimeout(session.command("QUIT", "QUIT", [221]), 1_000, "QUIT").catch(() => {});
  } finally {
    clearTimeout(timer);
    await session.close();
  }
}

interface Reply {
  code: number;
  lines: string[];
}

type Session = ReturnType<typeof openSession>;

function openSession(target: SmtpTarget, readTimeoutMs: number) {
  const address = `${target.hostname}:${target.port}`;
  let socket: Socket;
  try {
    socket = connect({ hostname: target.hostname, port: target.port }, { secureTransport: target.tls, allowHalfOpen: false });
  } catch (error) {
    // e.g. Cloudflare refuses port 25 outright.
    throw new Error(`SMTP connect to ${address} failed: ${messageOf(error)}`);
  }
  // Failures surface through `opened` and the reads; these copies must not count as unhandled.
  socket.closed.catch(() => {});
  let reader = socket.readable.getReader();
  let writer = socket.writable.getWriter();
  const decoder = new TextDecoder();
  let buffer = "";

  async function opened() {
    try {
      await withTimeout(socket.opened, readTimeoutMs, `no connection within ${readTimeoutMs} ms`);
    } catch (error) {
      throw new Error(`SMTP connect to ${address} failed: ${messageOf(error)}`);
    }
  }

  async function read(step: string): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const end = buffer.indexOf("\r\n");
      if (end === -1) {
        const chunk = await withTimeout(reader.read(), readTimeoutMs, `no reply from ${address} within ${readTimeoutMs} ms`).catch(
          (error) => {
            // workerd's own errors (a failed TLS handshake is "internal error; reference = ...") need the context.
            throw new Error(`SMTP ${step} failed: ${messageOf(error)}`);
          },
        );
        if (chunk.done) throw new Error(`SMTP ${step} failed: ${address} closed the connection`);
        buffer += decoder.decode(chunk.value, { stream: true });
        continue;
      }
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      lines.push(line);
      // `250-...` continues a multi-line reply; `250 ...` (or a bare `250`) ends it.
      const match = /^(\d{3})(?: |$)/.exec(line);
      if (match) return { code: Number(match[1]), lines: lines.map((l) => l.slice(4)) };
      if (!/^\d{3}-/.test(line)) throw new Error(`SMTP ${step} failed: malformed reply ${JSON.stringify(line.slice(0, 200))}`);
    }
  }

  async function write(step: string, text: string) {
    await writer.write(new TextEncoder().encode(text)).catch((error) => {
      throw new Error(`SMTP ${step} failed: ${messageOf(error)}`);
    });
  }

  return {
    opened,
    read,
    write,
    /** Sends one command and insists on one of the `expect` codes. */
    async command(step: string, line: string, expect: number[]): Promise<Reply> {
      await write(step, `${line}\r\n`);
      return check(step, await read(step), expect);
    },
    startTls() {
      // The socket refuses to upgrade while its streams are locked.
      reader.releaseLock();
      writer.releaseLock();
      // The certificate is checked against the hostname given to connect().
      socket = socket.startTls();
      socket.closed.catch(() => {});
      reader = socket.readable.getReader();
      writer = socket.writable.getWriter();
      // Anything the server sent after its 220 came before TLS and must not be trusted.
      buffer = "";
    },
    async close() {
      await socket.close().catch(() => {});
    },
  };
}

async function converse(session: Session, target: SmtpTarget, envelope: { from: string; to: string; data: string }) {
  const { from, to, data } = envelope;
  await session.opened();
  check("greeting", await session.read("greeting"), [220]);
  const heloName = domainOf(from);
  let extensions = await hello(session, heloName);
  let encrypted = target.tls === "on";

  if (target.tls === "starttls" && extensions.has("STARTTLS")) {
    await session.command("STARTTLS", "STARTTLS", [220]);
    session.startTls();
    encrypted = true;
    // What the server said before TLS could have been tampered with, so it is asked again.
    extensions = await hello(session, heloName, "EHLO after STARTTLS");
  }

  if (target.user !== undefined && extensions.has("AUTH")) {
    // Only an explicit ?tls=off (or loopback) lets a password travel in the clear.
    if (!encrypted && target.tls !== "off" && !isLoopback(target.hostname)) {
      throw new Error("SMTP AUTH: the server offers no STARTTLS, so the password would travel unencrypted; use smtps:// or ?tls=off");
    }
    await authenticate(session, extensions.get("AUTH") ?? "", target.user, target.password ?? "");
  }

  const utf8 = !isAscii(from) || !isAscii(to);
  if (utf8 && !extensions.has("SMTPUTF8")) throw new Error("SMTP MAIL FROM: the server cannot take non-ASCII addresses");
  await session.command("MAIL FROM", `MAIL FROM:<${from}>${utf8 ? " SMTPUTF8" : ""}`, [250]);
  await session.command(`RCPT TO <${to}>`, `RCPT TO:<${to}>`, [250, 251]);
  await session.command("DATA", "DATA", [354]);
  // A line that starts with "." gets another one, so only the final "." ends the message.
  const body = normaliseNewlines(data).replace(/^\./gm, "..");
  await session.write("DATA (message)", `${body}${body.endsWith("\r\n") ? "" : "\r\n"}.\r\n`);
  check("DATA (end of message)", await session.read("DATA (end of message)"), [250]);
}

/** EHLO, or HELO for servers without ESMTP; returns the advertised extensions. */
async function hello(session: Session, name: string, step = "EHLO"): Promise<Map<string, string>> {
  await session.write(step, `EHLO ${name}\r\n`);
  const reply = await session.read(step);
  if (reply.code >= 500) {
    await session.command("HELO", `HELO ${name}`, [250]);
    return new Map();
  }
  check(step, reply, [250]);
  const extensions = new Map<string, string>();
  for (const line of reply.lines.slice(1)) {
    const [keyword = "", ...params] = line.trim().split(/[\s=]+/);
    extensions.set(keyword.toUpperCase(), params.join(" ").toUpperCase());
  }
  return extensions;
}

async function authenticate(session: Session, mechanisms: string, user: string, password: string) {
  const offered = mechanisms.split(" ");
  if (offered.includes("PLAIN")) {
    const reply = await session.command("AUTH PLAIN", `AUTH PLAIN ${base64(`\0${user}\0${password}`)}`, [235, 504]);
    if (reply.code === 235) return;
  }
  if (!offered.includes("LOGIN")) throw new Error(`SMTP AUTH: no supported mechanism (server offers ${mechanisms || "none"})`);
  await session.command("AUTH LOGIN", "AUTH LOGIN", [334]);
  await session.command("AUTH LOGIN username", base64(user), [334]);
  await session.command("AUTH LOGIN password", base64(password), [235]);
}

function check(step: string, reply: Reply, expect: number[]): Reply {
  if (!expect.includes(reply.code)) throw new Error(`SMTP ${step} failed: ${reply.code} ${reply.lines.join(" ").slice(0, 500)}`);
  return reply;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function base64(text: string): string {
  return toBase64(new TextEncoder().encode(text));
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || hostname.startsWith("127.");
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
