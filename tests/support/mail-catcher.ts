// A real SMTP server on loopback that keeps every message it receives, plus a tiny HTTP API to read
// them back, so tests can check the mail the Worker actually put on the wire.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { CATCHER_LOGIN, type CaughtMessage, REJECTED_DOMAIN } from "./caught-mail.ts";

export { type CaughtMessage, extractCode } from "./caught-mail.ts";

export interface MailCatcher {
  smtpPort: number;
  httpPort: number;
  /** Live list, oldest first. */
  messages: CaughtMessage[];
  close(): Promise<void>;
}

/**
 * Plain SMTP only (STARTTLS disabled): it listens on 127.0.0.1 and nothing leaves the machine.
 * AUTH is optional; when a client does log in, only CATCHER_LOGIN is accepted.
 */
export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMessage[] = [];

  const smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      if (auth.username === CATCHER_LOGIN.user && auth.password === CATCHER_LOGIN.password) return callback(null, { user: auth.username });
      callback(smtpError(535, "5.7.8 Authentication credentials invalid"));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.toLowerCase().endsWith(`@${REJECTED_DOMAIN}`)) return callback(smtpError(550, "5.1.1 Mailbox unavailable"));
      callback();
    },
    onData(stream, session, callback) {
      readAll(stream).then(
        (raw) => {
          if (stream.sizeExceeded) return callback(smtpError(552, "5.3.4 Message too big"));
          const parsed = parseMessage(raw);
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
          const user = typeof session.user === "string" ? session.user : null;
          const receivedAt = new Date().toISOString();
          for (const rcpt of session.envelope.rcptTo) {
            messages.push({ to: rcpt.address.toLowerCase(), from, ...parsed, raw, user, receivedAt });
          }
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(0, "127.0.0.1", () => resolve());
  });

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/messages") return send(res, 404, { error: "not found" });
    if (req.method === "DELETE") {
      messages.length = 0;
      return send(res, 200, { deleted: true });
    }
    if (req.method !== "GET") return send(res, 405, { error: "method not allowed" });
    const to = url.searchParams.get("to")?.toLowerCase();
    send(res, 200, to ? messages.filter((m) => m.to === to) : messages);
  });
  await listen(http);

  return {
    smtpPort: (smtp.server.address() as AddressInfo).port,
    httpPort: (http.address() as AddressInfo).port,
    messages,
    async close() {
      http.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => smtp.close(() => resolve())), new Promise((resolve) => http.close(resolve))]);
    },
  };
}

function send(res: import("node:http").ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

function listen(server: Server) {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
}

function smtpError(code: number, message: string) {
  return Object.assign(new Error(message), { responseCode: code });
}

async function readAll(stream: SMTPServerDataStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

// A light MIME reader: enough for what our client sends (text, or multipart/alternative with
// quoted-printable or base64 parts) and for encoded-word subjects.
function parseMessage(raw: string): Pick<CaughtMessage, "subject" | "text" | "html"> {
  const { headers, body } = splitEntity(raw);
  const leaves = leafParts(headers, body);
  return {
    subject: decodeWords(headers.get("subject") ?? ""),
    text: leaves.find((part) => part.type === "text/plain")?.body ?? "",
    html: leaves.find((part) => part.type === "text/html")?.body ?? null,
  };
}

function splitEntity(entity: string): { headers: Map<string, string>; body: string } {
  const end = /\r?\n\r?\n/.exec(entity);
  const head = end ? entity.slice(0, end.index) : entity;
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n(?=[ \t])/g, "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end ? entity.slice(end.index + end[0].length) : "" };
}

function leafParts(headers: Map<string, string>, body: string): Array<{ type: string; body: string }> {
  const contentType = headers.get("content-type") ?? "text/plain";
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (type.startsWith("multipart/") && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    return sections
      .filter((section) => !section.startsWith("--"))
      .flatMap((section) => {
        const part = splitEntity(section.replace(/^\r?\n/, "").replace(/\r?\n$/, ""));
        return leafParts(part.headers, part.body);
      });
  }
  return [{ type, body: decodeBody(body, headers.get("content-transfer-encoding") ?? "").replace(/\r\n/g, "\n") }];
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case "quoted-printable":
      // Quoted-printable is 7-bit: each =XX becomes one byte, and the bytes are UTF-8.
      return Buffer.from(unhex(body.replace(/=\r?\n/g, "")), "latin1").toString("utf8");
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

/** RFC 2047: `=?UTF-8?B?...?=` and `=?UTF-8?Q?...?=`; blanks between adjacent words vanish. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, charset: string, kind: string, data: string) => {
      const bytes = kind.toUpperCase() === "B" ? Buffer.from(data, "base64") : Buffer.from(unhex(data.replace(/_/g, " ")), "latin1");
      return new TextDecoder(charset).decode(bytes);
    });
}

function unhex(value: string): string {
  return value.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
