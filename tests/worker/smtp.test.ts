// The SMTP client, from inside workerd, against a real SMTP server (tests/support/mail-catcher.ts).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountExistsEmail, otpEmail } from "../../workers/mail/otp-email.ts";
import { parseSmtpUrl, sendSmtp } from "../../workers/mail/smtp.ts";
import { CATCHER_LOGIN, type CaughtMessage, extractCode, REJECTED_DOMAIN } from "../support/caught-mail.ts";

const FROM = "Lectern <no-reply@lectern.example>";

/** A fresh address per test: the catcher is shared by every test file running in parallel. */
const mailbox = () => `reader-${crypto.randomUUID().slice(0, 8)}@school.test`;

async function caught(to: string): Promise<CaughtMessage[]> {
  const response = await fetch(`${env.MAIL_CATCHER_URL}/messages?to=${encodeURIComponent(to)}`);
  expect(response.status).toBe(200);
  return response.json();
}

describe("sendSmtp", () => {
  it("delivers a one-time code e-mail that a person can read and use", async () => {
    const to = mailbox();
    const email = otpEmail({ code: "482913", schoolName: "Springfield Elementary", purpose: "register", minutesValid: 10 });
    await sendSmtp(env.SMTP_TEST_URL, { from: FROM, to, ...email });

    const [message, ...rest] = await caught(to);
    expect(rest).toEqual([]);
    expect(message).toMatchObject({ to, from: "no-reply@lectern.example", subject: "Your Lectern verification code", user: null });
    expect(extractCode(message!.text)).toBe("482913");
    expect(message!.text).toContain("Enter it to finish creating your account at Springfield Elementary.");
    expect(message!.text).toContain("valid for 10 minutes");
    expect(message!.text).toContain("If you did not ask for this, ignore this e-mail");
    expect(message!.html).toContain(">482913</p>");
    expect(message!.raw).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r$/m);
    expect(message!.raw).toMatch(/^Message-ID: <[0-9a-f-]{36}@lectern\.example>\r$/m);
    expect(message!.raw).toContain('\r\nFrom: "Lectern" <no-reply@lectern.example>\r\n');
    expect(message!.raw).toContain(`\r\nTo: ${to}\r\n`);
    expect(message!.raw).toContain("\r\nMIME-Version: 1.0\r\n");
    expect(message!.raw).toMatch(/Content-Type: multipart\/alternative; boundary="=_[0-9a-f-]{36}"/);
  });

  it("round-trips a UTF-8 subject, sender name and body as 7-bit headers and quoted-printable", async () => {
    const to = mailbox();
    const subject = "Código de verificación für die Schüler der École Ærøskøbing – 📚 ".repeat(2).trim();
    const text = `Grüße aus der Bibliothek — naïve café, 日本語, and a long line: ${"é".repeat(60)}`;
    await sendSmtp(env.SMTP_TEST_URL, { from: "Bücherei Lectern <no-reply@lectern.example>", to, subject, text });

    const [message] = await caught(to);
    expect(message!.subject).toBe(subject);
    // A single-part body ends with the CRLF of its last line.
    expect(message!.text).toBe(`${text}\n`);
    expect(message!.html).toBeNull();
    expect(message!.raw).toMatch(/^Content-Type: text\/plain; charset=UTF-8\r$/m);
    expect(message!.raw).toMatch(/^From: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <no-reply@lectern\.example>\r$/m);
    // Nothing but printable ASCII on the wire, and no line longer than RFC 5322's 78 characters
    // apart from the first encoded-word's header line.
    expect(message!.raw).toMatch(/^[\x20-\x7e\r\n]*$/);
    const longLines = message!.raw.split("\r\n").filter((line) => line.length > 78);
    expect(longLines.every((line) => line.startsWith("Subject: =?UTF-8?B?"))).toBe(true);
  });

  it("dot-stuffs lines that start with a dot and normalises line endings", async () => {
    const to = mailbox();
    const text = "first line\r\n.hidden line\n.\rafter a lone dot\n..two dots\n";
    await sendSmtp(env.SMTP_TEST_URL, { from: FROM, to, subject: "Dots", text });

    const [message] = await caught(to);
    expect(message!.text).toBe("first line\n.hidden line\n.\nafter a lone dot\n..two dots\n");
  });

  it("logs in with AUTH when the URL has (URL-encoded) credentials", async () => {
    const to = mailbox();
    const port = new URL(env.SMTP_TEST_URL).port;
    const url = `smtp://${encodeURIComponent(CATCHER_LOGIN.user)}:${encodeURIComponent(CATCHER_LOGIN.password)}@127.0.0.1:${port}`;
    await sendSmtp(url, { from: FROM, to, subject: "Signed in", text: "hello" });

    const [message] = await caught(to);
    expect(message!.user).toBe(CATCHER_LOGIN.user);
  });

  it("names the step and the server's reply on a refused login, never the password", async () => {
    const port = new URL(env.SMTP_TEST_URL).port;
    const password = "not-the-password-8731";
    const error = await sendSmtp(`smtp://someone:${password}@127.0.0.1:${port}`, {
      from: FROM,
      to: mailbox(),
      subject: "x",
      text: "x",
    }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^SMTP AUTH PLAIN failed: 535 /);
    expect((error as Error).message).not.toContain(password);
  });

  it("throws with the 550 reply when the server refuses the recipient, and delivers nothing", async () => {
    const to = `someone@${REJECTED_DOMAIN}`;
    const sent = sendSmtp(env.SMTP_TEST_URL, { from: FROM, to, subject: "Nope", text: "x" });
    await expect(sent).rejects.toThrow(`SMTP RCPT TO <${to}> failed: 550 5.1.1 Mailbox unavailable`);
    expect(await caught(to)).toEqual([]);
  });

  it("fails fast when nothing listens on the port", async () => {
    const started = Date.now();
    await expect(sendSmtp("smtp://127.0.0.1:1", { from: FROM, to: mailbox(), subject: "x", text: "x" })).rejects.toThrow(
      /^SMTP connect to 127\.0\.0\.1:1 failed/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("gives up within the timeout when the server never answers", async () => {
    // The catcher's HTTP port accepts the connection and then waits for a request: no greeting.
    const silent = `smtp://127.0.0.1:${new URL(env.MAIL_CATCHER_URL).port}`;
    const started = Date.now();
    await expect(sendSmtp(silent, { from: FROM, to: mailbox(), subject: "x", text: "x" }, { timeoutMs: 600 })).rejects.toThrow(
      /^SMTP greeting failed: no reply from 127\.0\.0\.1:\d+ within 600 ms$|timed out after 600 ms/,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("parseSmtpUrl", () => {
  it("reads the three forms, with defaults and URL-decoded credentials", () => {
    expect(parseSmtpUrl("smtp://us%40er:p%3Ass%2F@mail.example.com:587")).toEqual({
      hostname: "mail.example.com",
      port: 587,
      tls: "starttls",
      user: "us@er",
      password: "p:ss/",
    });
    expect(parseSmtpUrl("smtps://u:p@mail.example.com")).toMatchObject({ port: 465, tls: "on" });
    expect(parseSmtpUrl("smtp://mail.example.com")).toMatchObject({ port: 587, tls: "starttls", user: undefined });
    expect(parseSmtpUrl("smtp://127.0.0.1:2525?tls=off")).toMatchObject({ port: 2525, tls: "off" });
  });

  it("rejects other schemes and options without echoing the password", () => {
    for (const url of ["http://u:hunter2@mail.example.com", "smtp://u:hunter2@mail.example.com?tls=maybe", "not a url hunter2"]) {
      expect(() => parseSmtpUrl(url)).toThrow(/SMTP_URL/);
      expect(() => parseSmtpUrl(url)).not.toThrow(/hunter2/);
    }
  });
});

describe("account e-mails", () => {
  it("escape the school name in HTML and keep the plain text readable", () => {
    const email = otpEmail({ code: "123456", schoolName: `<b>Smith & "Jones"</b>`, purpose: "reset", minutesValid: 15 });
    expect(email.html).toContain("&#60;b&#62;Smith &#38; &#34;Jones&#34;&#60;/b&#62;");
    expect(email.html).not.toContain("<b>Smith");
    expect(email.text).toContain(`Enter it to reset your password at <b>Smith & "Jones"</b>.`);
    expect(email.text).toContain("valid for 15 minutes");
  });

  it("tell an existing account holder to log in, with no code in the message", () => {
    const email = accountExistsEmail({ schoolName: "Springfield Elementary", loginUrl: "https://springfield.lectern.example/login" });
    expect(email.subject).toBe("You already have a Lectern account");
    expect(email.text).toContain("https://springfield.lectern.example/login");
    expect(email.text).toContain("Forgot password");
    expect(email.html).toContain('href="https://springfield.lectern.example/login"');
    expect(extractCode(email.text)).toBeNull();
    expect(extractCode(email.html)).toBeNull();
  });
});
