// Builds the RFC 5322 / MIME text of one message. Bodies are always quoted-printable UTF-8, so the
// message is 7-bit clean and needs nothing from the server beyond plain SMTP.

export interface MailMessage {
  /** `Name <address>` or a bare address. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailbox {
  name: string;
  address: string;
}

const encoder = new TextEncoder();
// Deliberately narrow: no spaces, brackets, quotes, commas or line breaks, which is what keeps an
// address from smuggling extra headers or SMTP commands.
const ADDRESS = /^[^\s<>"(),;:\\@]+@[^\s<>"(),;:\\@]+$/;

/** Splits `Lectern <no-reply@lectern.example>` into its display name and address. */
export function parseMailbox(value: string): Mailbox {
  const match = /^\s*(.*?)\s*<([^<>]*)>\s*$/s.exec(value);
  const name = (match ? match[1]! : "").replace(/^"(.*)"$/s, "$1");
  const address = (match ? match[2]! : value).trim();
  if (!ADDRESS.test(address) || /[\r\n]/.test(name)) throw new Error(`Invalid mail address: ${JSON.stringify(value)}`);
  return { name, address };
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1);
}

/** The full message, CRLF line endings, ready for DATA (before dot-stuffing). */
export function buildMessage(message: MailMessage, now = new Date()): string {
  const from = parseMailbox(message.from);
  const to = parseMailbox(message.to);
  const headers = [
    `Date: ${formatDate(now)}`,
    `Message-ID: <${crypto.randomUUID()}@${domainOf(from.address)}>`,
    `From: ${formatMailbox(from)}`,
    `To: ${formatMailbox(to)}`,
    `Subject: ${encodeHeaderText(message.subject)}`,
    "MIME-Version: 1.0",
  ];
  if (message.html === undefined) return [...headers, ...textPart("plain", message.text)].join("\r\n");

  // "=_" can never occur in quoted-printable output, so the boundary cannot collide with a body.
  const boundary = `=_${crypto.randomUUID()}`;
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    ...textPart("plain", message.text),
    `--${boundary}`,
    ...textPart("html", message.html),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

function textPart(subtype: "plain" | "html", body: string): string[] {
  return [`Content-Type: text/${subtype}; charset=UTF-8`, "Content-Transfer-Encoding: quoted-printable", "", encodeQuotedPrintable(body)];
}

/** RFC 5322 date in UTC, e.g. `Tue, 01 Jul 2025 09:30:00 +0000`. */
export function formatDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}

function formatMailbox({ name, address }: Mailbox): string {
  if (!name) return address;
  const display = isAscii(name) ? `"${name.replace(/["\\]/g, "\\$&")}"` : encodeWords(name);
  return `${display} <${address}>`;
}

/** Header text as-is when plain ASCII, else RFC 2047 encoded-words; line breaks never survive. */
export function encodeHeaderText(value: string): string {
  const flat = value.replace(/[\r\n]+/g, " ");
  return isAscii(flat) ? flat : encodeWords(flat);
}

// Each encoded-word stays within RFC 2047's 75 characters: 45 bytes of UTF-8 become 60 of base64.
// Words split on character boundaries only, because a decoder may decode each word on its own.
function encodeWords(value: string): string {
  const words: number[][] = [];
  const chunk: number[] = [];
  for (const char of value) {
    const bytes = encoder.encode(char);
    if (chunk.length + bytes.length > 45) {
      words.push(chunk.splice(0));
    }
    chunk.push(...bytes);
  }
  if (chunk.length) words.push(chunk);
  return words.map((bytes) => `=?UTF-8?B?${toBase64(Uint8Array.from(bytes))}?=`).join("\r\n ");
}

/** RFC 2045 quoted-printable of UTF-8 text: CRLF hard breaks, soft breaks keep lines to 76. */
export function encodeQuotedPrintable(text: string): string {
  return normaliseNewlines(text).split("\r\n").map(encodeQuotedPrintableLine).join("\r\n");
}

function encodeQuotedPrintableLine(line: string): string {
  const bytes = encoder.encode(line);
  let out = "";
  let current = "";
  bytes.forEach((byte, i) => {
    const printable = byte >= 33 && byte <= 126 && byte !== 61;
    // Trailing spaces and tabs are stripped by some relays, so the last one on a line is encoded.
    const blank = (byte === 32 || byte === 9) && i < bytes.length - 1;
    const token = printable || blank ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    if (current.length + token.length > 75) {
      out += `${current}=\r\n`;
      current = "";
    }
    current += token;
  });
  return out + current;
}

export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n|\r|\n/g, "\r\n");
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function isAscii(value: string): boolean {
  return /^[\x20-\x7e\t]*$/.test(value);
}
