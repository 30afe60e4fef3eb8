import { isRouteErrorResponse } from "react-router";
import { ButtonLink } from "../ui/button-link.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";
import { AskToRenew } from "./ask-to-renew.tsx";

/** What a book page's loader throws when the school's licence for the book has ended (app/lib/school-book.server.ts). */
export function licenceEndedOf(error: unknown): { error: string; schoolEmail: string } | null {
  if (!isRouteErrorResponse(error) || error.status !== 403) return null;
  const body: unknown = error.data;
  if (!body || typeof body !== "object" || !("reason" in body) || body.reason !== "licence-ended") return null;
  const text = "error" in body && typeof body.error === "string" ? body.error : "Your school's licence for this book has ended.";
  const email = "schoolEmail" in body && typeof body.schoolEmail === "string" ? body.schoolEmail : "";
  return { error: text, schoolEmail: email };
}

/**
 * The book page of a book whose licence ended: the day it ended, and whom to ask (the school's own
 * address), instead of 'not found'.
 */
export function LicenceEnded({ ended, backHref }: { ended: { error: string; schoolEmail: string }; backHref: string }) {
  return (
    <StatusPanel title="This book is no longer available" actions={<ButtonLink to={backHref}>Back to Books</ButtonLink>}>
      <p>{ended.error}</p>
      <AskToRenew schoolEmail={ended.schoolEmail} className="mt-2" linkClassName="text-indigo-700 dark:text-indigo-300" />
    </StatusPanel>
  );
}
