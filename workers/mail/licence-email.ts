import { formatDay } from "#shared/rules/licence.ts";
import { type EmailContent, escapeHtml, layout, paragraph } from "./otp-email.ts";

export interface EndingLicence {
  title: string;
  endsOn: string;
}

/**
 * The reminder to a school's contact address that licences end soon (docs/decisions/0028): what
 * ends and when, soonest first, and whom to write to renew.
 */
export function licenceReminderEmail({
  schoolName,
  licences,
  publisher,
  productName = "Lectern",
}: {
  schoolName: string;
  licences: EndingLicence[];
  publisher: { name: string; email: string };
  productName?: string;
}): EmailContent {
  const sorted = [...licences].sort((a, b) => a.endsOn.localeCompare(b.endsOn) || a.title.localeCompare(b.title));
  const count = sorted.length === 1 ? "A book licence" : `${sorted.length} book licences`;
  const lines = sorted.map((licence) => `${licence.title}: until ${formatDay(licence.endsOn)}`);
  const renew = `To go on reading, renew with ${publisher.name}${publisher.email ? ` (${publisher.email})` : ""}.`;
  const after = "After the last day your teachers can no longer open these books.";
  return {
    subject: `${count} ending soon at ${schoolName}`,
    text: [
      `${count} of ${schoolName} on ${productName} will end soon:`,
      "",
      ...lines.map((line) => `  - ${line}`),
      "",
      after,
      renew,
      "",
      `-- ${productName}`,
    ].join("\n"),
    html: layout(productName, [
      paragraph(`${escapeHtml(count)} of ${escapeHtml(schoolName)} on ${escapeHtml(productName)} will end soon:`),
      `<ul style="margin:16px 0;padding-left:20px;color:#222">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`,
      paragraph(`${escapeHtml(after)}<br>${escapeHtml(renew)}`),
    ]),
  };
}
