import { createContext, redirect } from "react-router";
import type { AdminSession } from "../../../workers/auth/sessions.ts";
import { appContext } from "../../../workers/kernel/context.ts";

/** Set by the admin layout's middleware: the signed-in admin. */
export const adminContext = createContext<AdminSession>();

type Args = { request: Request; context: { get: typeof import("react-router").RouterContextProvider.prototype.get } };

/**
 * The signed-in admin (checked once by the request context), or a redirect to the admin login
 * that comes back here afterwards. The admin area is never served on a school's host.
 */
export function requireAdmin({ request, context }: Args): AdminSession {
  const { admin, tenant } = context.get(appContext);
  if (tenant.host.kind === "school" || tenant.host.kind === "invalid") throw new Response("Not Found", { status: 404 });
  if (!admin) {
    const back = new URL(request.url).pathname.replace(/\.data$/, "");
    const login = back.startsWith("/superadmin") ? "/superadmin/login" : "/admin/login";
    throw redirect(`${login}?redirectTo=${encodeURIComponent(back)}`);
  }
  return admin;
}
