// The texts of the account e-mails. Each has a plain-text body that reads well on its own (many
// school mail systems show only that) and a simple inline-styled HTML twin.

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export interface OtpEmailArgs {
  code: string;
  schoolName: string;
  purpose: "register" | "reset";
  minutesValid: number;
  productName?: string;
}

const PURPOSE = {
  register: "finish creating your account",
  reset: "reset your password",
} as const;

/** The one-time code e-mail sent when registering or resetting a password. */
export function otpEmail({ code, schoolName, purpose, minutesValid, productName = "Lectern" }: OtpEmailArgs): EmailContent {
  const action = `${PURPOSE[purpose]} at ${schoolName}`;
  const validity = `The code is valid for ${minutesValid} minutes.`;
  const ignore = "If you did not ask for this, ignore this e-mail; nothing changes without the code.";
  return {
    subject: `Your ${productName} verification code`,
    text: [
      `Your ${productName} verification code is:`,
      "",
      `    ${code}`,
      "",
      `Enter it to ${action}.`,
      validity,
      "",
      ignore,
      "",
      `-- ${productName}`,
    ].join("\n"),
    html: layout(productName, [
      paragraph(`Your ${escapeHtml(productName)} verification code is:`),
      `<p style="margin:24px 0;font-size:32px;font-weight:bold;letter-spacing:6px;font-family:'Courier New',monospace;color:#111">${escapeHtml(code)}</p>`,
      paragraph(`Enter it to ${escapeHtml(action)}.<br>${escapeHtml(validity)}`),
      paragraph(escapeHtml(ignore), "#666"),
    ]),
  };
}

export interface AccountExistsEmailArgs {
  schoolName: string;
  loginUrl: string;
  productName?: string;
}

/**
 * Sent instead of a code when someone registers an address that already has an account, so the
 * registration form never reveals which addresses exist.
 */
export function accountExistsEmail({ schoolName, loginUrl, productName = "Lectern" }: AccountExistsEmailArgs): EmailContent {
  const intro = `Someone, probably you, tried to create a ${productName} account at ${schoolName} with this e-mail address. You already have an account there.`;
  const next = 'Log in with your password, or use "Forgot password" on the login page to choose a new one:';
  const ignore = "If you did not ask for this, ignore this e-mail; your account is unchanged.";
  return {
    subject: `You already have a ${productName} account`,
    text: [intro, "", next, loginUrl, "", ignore, "", `-- ${productName}`].join("\n"),
    html: layout(productName, [
      paragraph(escapeHtml(intro)),
      paragraph(escapeHtml(next)),
      `<p style="margin:24px 0"><a href="${escapeHtml(loginUrl)}" style="background:#1f4e79;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">Log in to ${escapeHtml(schoolName)}</a></p>`,
      paragraph(`Or open this link: <a href="${escapeHtml(loginUrl)}">${escapeHtml(loginUrl)}</a>`, "#666"),
      paragraph(escapeHtml(ignore), "#666"),
    ]),
  };
}

/** To an address with no account asking for a password reset: the same work as a real reset, and a pointer. */
export function noAccountEmail({ schoolName, loginUrl, productName = "Lectern" }: AccountExistsEmailArgs): EmailContent {
  const intro = `Someone, probably you, asked to reset a ${productName} password at ${schoolName} for this e-mail address. There is no account with this address there.`;
  const next = "If you are a teacher at this school, register on the school's page:";
  const ignore = "If you did not ask for this, ignore this e-mail.";
  return {
    subject: `No ${productName} account for this address`,
    text: [intro, "", next, loginUrl, "", ignore, "", `-- ${productName}`].join("\n"),
    html: layout(productName, [
      paragraph(escapeHtml(intro)),
      paragraph(escapeHtml(next)),
      paragraph(`<a href="${escapeHtml(loginUrl)}">${escapeHtml(loginUrl)}</a>`),
      paragraph(escapeHtml(ignore), "#666"),
    ]),
  };
}

export function layout(productName: string, blocks: string[]): string {
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:24px;background:#f5f5f5">',
    '<div style="max-width:480px;margin:0 auto;padding:24px;background:#fff;border-radius:6px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#222">',
    ...blocks,
    `<p style="margin:24px 0 0;font-size:13px;color:#888">${escapeHtml(productName)}</p>`,
    "</div></body></html>",
  ].join("\n");
}

export function paragraph(html: string, color = "#222"): string {
  return `<p style="margin:0 0 12px;color:${color}">${html}</p>`;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
