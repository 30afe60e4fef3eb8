import { AdminPageHeader } from "../components/admin/admin-page.tsx";
import { LeakTrace } from "../components/admin/leak-trace.tsx";
import type { Route } from "./+types/admin-leaks";

export const meta: Route.MetaFunction = () => [{ title: "Trace a leak · Lectern Admin" }];

/** The admin layout's middleware checks the session; the trace itself is POST /api/leaks/trace, from the page. */
export default function AdminLeaks() {
  return (
    <>
      <AdminPageHeader
        title="Trace a leak"
        description="Every page a teacher receives carries a hidden mark naming them and the day. Drop a leaked page image (a screenshot, a photo export, a crop) to find who received it. Every trace is recorded in the audit log."
      />
      <LeakTrace />
    </>
  );
}
