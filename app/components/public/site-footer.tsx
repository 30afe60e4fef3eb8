import { useRouteLoaderData } from "react-router";
import type { AppConfig } from "../../../workers/kernel/config.ts";
import type { loader as rootLoader } from "../../root.tsx";
import { LogoMark, PRODUCT_NAME } from "../ui/logo.tsx";

/** What the root route's loader gives every page (app/root.tsx). */
export interface RootData {
  publisher: AppConfig["publisher"];
  /** The school of a signed-in teacher's page (its name and where its pages live), else null. */
  school?: { name: string; basePath: string } | null;
}

/**
 * The publisher's address without its name in front ("Lectern Press, 1200 Printers Row, ..."), as
 * the name heads the address already: the footer says it once.
 */
export function addressWithoutName(publisher: { name: string; address: string }): string {
  const name = publisher.name.trim();
  const address = publisher.address.trim();
  if (!name || !address.toLowerCase().startsWith(name.toLowerCase())) return address;
  return address.slice(name.length).replace(/^[\s,;:.-]+/, "");
}

export function SiteFooter() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  const publisher = data?.publisher;
  return (
    <footer className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-3">
        <div>
          <div className="flex items-center gap-2 font-semibold">
            <LogoMark className="h-7 w-7" />
            <span>{PRODUCT_NAME}</span>
          </div>
          <p className="mt-3 max-w-xs text-sm text-slate-600 dark:text-slate-400">
            The digital library for the books your school already trusts.
          </p>
        </div>
        {publisher && (
          <>
            <address className="text-sm not-italic text-slate-600 dark:text-slate-400">
              <h2 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{publisher.name}</h2>
              {addressWithoutName(publisher)}
            </address>
            <div className="text-sm text-slate-600 dark:text-slate-400">
              <h2 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">Contact</h2>
              <ul className="space-y-1">
                {publisher.phones.map((phone) => (
                  <li key={phone}>
                    <a className="hover:text-indigo-600 dark:hover:text-indigo-400" href={`tel:${phone.replace(/[^+\d]/g, "")}`}>
                      {phone}
                    </a>
                  </li>
                ))}
                {publisher.email && (
                  <li>
                    <a className="hover:text-indigo-600 dark:hover:text-indigo-400" href={`mailto:${publisher.email}`}>
                      {publisher.email}
                    </a>
                  </li>
                )}
              </ul>
            </div>
          </>
        )}
      </div>
      <p className="border-t border-slate-200 py-4 text-center text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
        {/* The publisher's name heads its address above; without a publisher the product's name stands here. */}©{" "}
        {new Date().getFullYear()}
        {publisher ? "" : ` ${PRODUCT_NAME}`}. All rights reserved.
      </p>
    </footer>
  );
}
