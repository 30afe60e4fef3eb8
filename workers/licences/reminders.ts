/**
 * Licence reminders (docs/decisions/0028): 30 and 7 days before a licence ends, one e-mail to the
 * school's contact address listing what ends. Run by the hourly scheduled job: each (licence, last
 * day, notice) is claimed in D1 before its e-mail goes, so a retried or overlapping job sends it
 * once; a failed send gives its claims back for the next run. Without a mail transport
 * (Development Mode) the reminder is logged instead.
 */
import { sql } from "drizzle-orm";
import { addDays, dayOf } from "#shared/rules/licence.ts";
import type { Db } from "../db/client.ts";
import type { AppConfig } from "../kernel/config.ts";
import { log } from "../kernel/log.ts";
import { licenceReminderEmail } from "../mail/licence-email.ts";
import { sendSmtp } from "../mail/smtp.ts";

/** The notices, in days before the last day: a licence within 7 days gets the 7-day one, within 30 the 30-day one. */
export const REMINDER_DAYS = [30, 7] as const;

interface Due {
  licenceId: number;
  endsOn: string;
  daysBefore: number;
  schoolId: number;
  schoolName: string;
  schoolEmail: string;
  title: string;
}

/** Sends what is due; returns how many e-mails went and how many licences they named. */
export async function sendLicenceReminders(db: Db, config: AppConfig, now = Date.now()): Promise<{ emails: number; licences: number }> {
  const today = dayOf(now);
  // The 7-day notice for a last day within a week; the 30-day one for a last day 8 to 30 days away.
  const due = await db.all<Due>(sql`
    SELECT l.id AS licenceId, l.ends_on AS endsOn,
           CASE WHEN l.ends_on <= ${addDays(today, 7)} THEN 7 ELSE 30 END AS daysBefore,
           s.id AS schoolId, s.name AS schoolName, s.email AS schoolEmail, b.title AS title
    FROM book_access AS l JOIN schools AS s ON s.id = l.school_id JOIN books AS b ON b.id = l.book_id
    WHERE l.ends_on BETWEEN ${today} AND ${addDays(today, 30)} AND l.starts_on <= l.ends_on
      AND NOT EXISTS (SELECT 1 FROM licence_reminders AS r WHERE r.licence_id = l.id AND r.ends_on = l.ends_on
        AND r.days_before = CASE WHEN l.ends_on <= ${addDays(today, 7)} THEN 7 ELSE 30 END)
    ORDER BY s.id, l.ends_on`);
  const bySchool = new Map<number, Due[]>();
  for (const row of due) bySchool.set(row.schoolId, [...(bySchool.get(row.schoolId) ?? []), row]);
  let emails = 0;
  let licences = 0;
  for (const rows of bySchool.values()) {
    const { schoolName, schoolEmail } = rows[0]!;
    if (!schoolEmail.trim()) {
      log.warn("Licences end soon at a school with no contact address", { school: rows[0]!.schoolId, licences: rows.length });
      continue;
    }
    const claimed = await claim(db, rows, now);
    if (!claimed.length) continue;
    const content = licenceReminderEmail({ schoolName, licences: claimed, publisher: config.publisher });
    if (!config.mail) {
      log.info(`[Development Mode] licence reminder to ${schoolEmail}: ${content.subject}`, { text: content.text });
    } else {
      try {
        await sendSmtp(config.mail.smtpUrl, { from: config.mail.from, to: schoolEmail, ...content });
      } catch (error) {
        log.error("Licence reminder not sent; the next run tries again", { school: rows[0]!.schoolId, error });
        await release(db, claimed);
        continue;
      }
    }
    emails++;
    licences += claimed.length;
  }
  return { emails, licences };
}

/** Claims the reminders this run sends; the ones another run claimed first are not returned. */
async function claim(db: Db, rows: Due[], now: number): Promise<Due[]> {
  const claims = JSON.stringify(rows.map((row) => [row.licenceId, row.endsOn, row.daysBefore]));
  const won = await db.all<{ licenceId: number }>(sql`
    INSERT INTO licence_reminders (licence_id, ends_on, days_before, sent_at)
    SELECT value ->> 0, value ->> 1, value ->> 2, ${now} FROM json_each(${claims}) WHERE true
    ON CONFLICT DO NOTHING RETURNING licence_id AS licenceId`);
  const ids = new Set(won.map((row) => row.licenceId));
  return rows.filter((row) => ids.has(row.licenceId));
}

async function release(db: Db, rows: Due[]) {
  const claims = JSON.stringify(rows.map((row) => [row.licenceId, row.endsOn, row.daysBefore]));
  await db.run(sql`DELETE FROM licence_reminders WHERE (licence_id, ends_on, days_before) IN
    (SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${claims}))`);
}
