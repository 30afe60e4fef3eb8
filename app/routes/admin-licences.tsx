import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { dayOf, type LicenceState } from "#shared/rules/licence.ts";
import { OFFLINE_DAYS_DEFAULT } from "#shared/rules/offline.ts";
import { appContext } from "../../workers/kernel/context.ts";
import { failure } from "../../workers/kernel/failure.ts";
import { changeLicencesCommand, EndingWithinSchema, LicenceStateSchema, renewLicencesCommand } from "../../workers/licences/commands.ts";
import { listLicences } from "../../workers/licences/list.ts";
import { licenceSeatUse } from "../../workers/licences/seat-use.ts";
import { lastDays } from "../../workers/reports/range.ts";
import { flushForReport } from "../../workers/school-object/objects.ts";
import { IdTextSchema, paramOrNull } from "../../workers/validation/schemas.ts";
import { AdminPageHeader, cardClasses, TableState } from "../components/admin/admin-page.tsx";
import { OfflineTermsFields } from "../components/admin/licence-terms.tsx";
import { LICENCE_STATES, LicencesTable } from "../components/admin/licences-table.tsx";
import { Button } from "../components/ui/button.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { Dialog } from "../components/ui/dialog.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { FieldError, fieldError, invalidProps, useFocusInvalid } from "../components/ui/field-error.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { Options } from "../components/ui/options.tsx";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-licences";

export const meta: Route.MetaFunction = () => [{ title: "Licences · Lectern Admin" }];

/** The days the seat column looks back over. */
const SEAT_DAYS = 30;

/** Every licence, or those the URL's filters keep: `?schoolId=`, `?bookId=`, `?state=`, `?ending=` (days). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url).searchParams;
  // Read with the API's own schemas; a value the page did not make is no filter (as /admin/books does).
  const read = <T,>(schema: Parameters<typeof paramOrNull>[0], key: string) => {
    const raw = url.get(key)?.trim();
    return raw ? ((paramOrNull(schema, raw) ?? undefined) as T | undefined) : undefined;
  };
  const filter = {
    schoolId: read<number>(IdTextSchema(), "schoolId"),
    bookId: read<number>(IdTextSchema(), "bookId"),
    state: read<LicenceState>(LicenceStateSchema, "state"),
    endingWithinDays: read<number>(EndingWithinSchema, "ending"),
  };
  const today = dayOf(Date.now());
  const { db, env } = context.get(appContext);
  const range = lastDays(SEAT_DAYS);
  // One school's licences: its object sends its seat figures first, so they are up to the minute
  // (across schools they are at most one flush interval behind).
  if (filter.schoolId !== undefined) await flushForReport(env, filter.schoolId, range);
  const listed = await listLicences(db, filter, today, 500);
  // Each licence's seats over the last 30 days (the upsell signal), for the licences listed.
  const uses = await licenceSeatUse(db, { ids: listed.map((licence) => licence.id) }, range);
  const useById = new Map(uses.map((use) => [use.licenceId, use]));
  const licences = listed.map((licence) => ({ ...licence, use: useById.get(licence.id) ?? null }));
  return { licences, filter, today };
}

/** The bulk actions, for the licences picked: renew for the next school year, change seats or offline reading, end now. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const intent = String(form.get("intent") ?? "");
  const ids = form.getAll("id").map(Number);
  if (intent === "renew") {
    const outcome = await runCommand({ context, request }, renewLicencesCommand, { ids });
    return reply(outcome, {}, ({ renewed, openEnded }) => {
      const skipped = openEnded ? ` ${openEnded} open-ended licence(s) had nothing to renew.` : "";
      return { message: `${renewed} licence(s) renewed for the next school year.${skipped}` };
    });
  }
  if (intent === "offline") {
    // Turned off (the box, OfflineTermsFields, posts "true" only when ticked), the days stay as they
    // were: they apply again if it is turned back on.
    const offlineAllowed = form.get("offlineAllowed") === "true";
    const days = String(form.get("offlineDays") ?? "").trim();
    const change = offlineAllowed ? { offlineAllowed, offlineDays: days === "" ? Number.NaN : Number(days) } : { offlineAllowed };
    const outcome = await runCommand({ context, request }, changeLicencesCommand, { ids, ...change });
    return reply(outcome, {}, ({ changed }) => ({ message: `${changed} licence(s) changed.` }));
  }
  if (intent === "seats" || intent === "end") {
    const rawSeats = String(form.get("seats") ?? "").trim();
    const change = intent === "end" ? { endNow: true } : { seats: rawSeats === "" ? null : Number(rawSeats) };
    const outcome = await runCommand({ context, request }, changeLicencesCommand, { ids, ...change });
    return reply(outcome, {}, ({ changed }) => ({
      message: intent === "end" ? `${changed} licence(s) ended today.` : `${changed} licence(s) changed.`,
    }));
  }
  return reply(failure("invalid", "Unknown action"));
}

/** The CSV of the licences shown (for invoicing): the API's export with the page's filters. */
function exportHref(filter: { schoolId?: number; bookId?: number; state?: string; endingWithinDays?: number }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return `/api/licences/export${query ? `?${query}` : ""}`;
}

type Bulk = "renew" | "seats" | "offline" | "end";
const BULK_TITLES: Record<Bulk, (n: number) => string> = {
  renew: (n) => `Renew ${n} licence(s) for the next school year?`,
  seats: (n) => `Change the seats of ${n} licence(s)?`,
  offline: (n) => `Change offline reading for ${n} licence(s)?`,
  end: (n) => `End ${n} licence(s) now?`,
};

export default function AdminLicences({ loaderData, actionData }: Route.ComponentProps) {
  const { licences, filter, today } = loaderData;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState<Bulk | null>(null);
  const [seats, setSeats] = useState("");
  const [offline, setOffline] = useState({ allowed: true, days: String(OFFLINE_DAYS_DEFAULT) });
  // A new list (other filters, or after an action) starts with nothing picked.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the list changes
  useEffect(() => {
    setPicked(new Set());
    setConfirming(null);
  }, [licences]);
  const toggle = (id: number) =>
    setPicked((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const allPicked = licences.length > 0 && picked.size === licences.length;
  const notice =
    actionData && ("message" in actionData ? { text: actionData.message, tone: "success" as const } : { text: actionData.error });
  // A refused number of seats is marked in the dialog, which stays open (a refusal reloads nothing).
  const seatsError = busy ? null : fieldError(actionData, "seats");
  const offlineDaysError = busy ? null : fieldError(actionData, "offlineDays");
  const bulkForm = useRef<HTMLFormElement>(null);
  useFocusInvalid(bulkForm, actionData);

  return (
    <div>
      <AdminPageHeader
        title="Licences"
        description="What each school bought: for which days and for how many readers at once. Pick licences to renew, change or end them."
        actions={
          <ButtonLink to="/admin/licences/import" variant="secondary">
            Import CSV
          </ButtonLink>
        }
      />
      <div className={cardClasses}>
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          {filter.schoolId !== undefined && <input type="hidden" name="schoolId" value={filter.schoolId} />}
          {filter.bookId !== undefined && <input type="hidden" name="bookId" value={filter.bookId} />}
          <label className="text-sm">
            <span className="mb-1 block font-medium">State</span>
            <select name="state" defaultValue={params.get("state") ?? ""} className={`${inputClasses} w-auto`}>
              <option value="">Any</option>
              <Options labels={LICENCE_STATES} />
            </select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium">Ending within (days)</span>
            <input
              name="ending"
              inputMode="numeric"
              pattern="\d{1,4}"
              defaultValue={params.get("ending") ?? ""}
              className={`${inputClasses} w-28`}
            />
          </label>
          <Button type="submit" variant="secondary">
            Show
          </Button>
          <a href={exportHref(filter)} className="text-sm text-indigo-700 underline dark:text-indigo-300" download>
            Download CSV
          </a>
          {(filter.schoolId !== undefined || filter.bookId !== undefined) && (
            <Link to="/admin/licences" className="text-sm text-indigo-700 underline dark:text-indigo-300">
              All schools and books
            </Link>
          )}
        </Form>
        {notice && (
          <div className="mb-4">
            <MessageBox tone={notice.tone ?? "error"} text={notice.text} />
          </div>
        )}
        <fieldset className="mb-3 flex flex-wrap items-center gap-2">
          <legend className="sr-only">With the licences picked</legend>
          <span className="mr-2 text-sm text-slate-600 dark:text-slate-300">{`${picked.size} picked`}</span>
          <Button variant="secondary" disabled={!picked.size || busy} onClick={() => setConfirming("renew")}>
            Renew for next school year
          </Button>
          <Button variant="secondary" disabled={!picked.size || busy} onClick={() => setConfirming("seats")}>
            Change seats
          </Button>
          <Button variant="secondary" disabled={!picked.size || busy} onClick={() => setConfirming("offline")}>
            Change offline reading
          </Button>
          <Button variant="secondary" disabled={!picked.size || busy} onClick={() => setConfirming("end")}>
            End now
          </Button>
        </fieldset>
        <TableState loading={false} error={null} empty={licences.length === 0} />
        {licences.length > 0 && <LicencesTable licences={licences} picked={picked} onToggle={toggle} today={today} seatDays={SEAT_DAYS} />}
        {licences.length > 0 && (
          <label className="mt-3 flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={allPicked}
              onChange={() => setPicked(allPicked ? new Set() : new Set(licences.map((l) => l.id)))}
            />
            Pick all {licences.length} shown
          </label>
        )}
      </div>
      <Dialog
        id="licences-bulk-dialog"
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? BULK_TITLES[confirming](picked.size) : ""}
        description={
          confirming === "end"
            ? "Their teachers stop reading these books today. You can renew them later."
            : confirming === "renew"
              ? "Each runs to the end of the school year after the one it ends in; an ended one runs for this school year."
              : confirming === "offline"
                ? "Whether teachers may keep these books on their device, and for how long. Turned off, the copies kept now are erased when their device next reaches Lectern."
                : "Leave the box empty for no limit."
        }
      >
        <Form ref={bulkForm} method="post" className="space-y-4">
          <input type="hidden" name="intent" value={confirming ?? ""} />
          {[...picked].map((id) => (
            <input key={id} type="hidden" name="id" value={id} />
          ))}
          {confirming === "seats" && (
            <div>
              <label className="block text-sm">
                <span className="mb-1 block font-medium">Readers at once</span>
                <input
                  id="licences-seats"
                  name="seats"
                  inputMode="numeric"
                  pattern="[1-9]\d{0,5}"
                  value={seats}
                  onChange={(e) => setSeats(e.target.value.replace(/\D/g, "").slice(0, 6))}
                  className={`${inputClasses} w-32`}
                  {...invalidProps("licences-seats", seatsError)}
                />
              </label>
              <FieldError inputId="licences-seats" message={seatsError} className="mt-1" />
            </div>
          )}
          {confirming === "offline" && (
            <div className="space-y-3">
              <OfflineTermsFields id="licences" named strong value={offline} onChange={setOffline} error={offlineDaysError} />
            </div>
          )}
          <div className="flex justify-end gap-3">
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy
                ? "Saving..."
                : { end: "End them", renew: "Renew them", seats: "Change seats", offline: "Change offline reading" }[confirming ?? "seats"]}
            </Button>
          </div>
        </Form>
      </Dialog>
    </div>
  );
}
