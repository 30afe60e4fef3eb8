import { isRouteErrorResponse, useRouteError } from "react-router";
import { errorText } from "../../../lib/error-text.ts";
import { AdminPageHeader, cardClasses, TableState } from "../admin-page.tsx";

/** The text of a route's error: the message a loader or action threw with `data()`, else `fallback`. */
export function routeErrorText(error: unknown, fallback: string): string {
  if (!isRouteErrorResponse(error)) return fallback;
  return errorText(error.data) ?? fallback;
}

/**
 * A school page whose data could not be read: its message where the page shows its data, under
 * the page's heading when it has a fixed one.
 */
export function SchoolPageError({ fallback, title, description }: { fallback: string; title?: string; description?: string }) {
  const text = routeErrorText(useRouteError(), fallback);
  const state = <TableState loading={false} error={new Error(text)} empty={false} />;
  if (!title) return state;
  return (
    <div>
      <AdminPageHeader title={title} description={description} />
      <div className={cardClasses}>{state}</div>
    </div>
  );
}
