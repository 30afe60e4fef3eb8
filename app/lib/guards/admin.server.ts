import { createContext, redirect } from "react-router";
import { type AdminSession, getAdminSession } from "../../../workers/auth/sessions.ts";
import { getDb } from "../../../workers/db/client.ts";
import { appContext } from "../../../workers/http/context.ts";

/** Set by the admin layout's middleware: the signed-in admin, looked up once per request. */
export const adminContext = createContext<AdminSession>();

type Args = { request: Request; context: { get: typeof import("react-router").RouterContextProvider.prototype.get } };

/** The signed-in admin, or a redirect to the admin login that comes back here afterwards. */
export async function requireAdmin({ request, context }: Args): Promise<AdminSession> {
  const { env, tenant } = context.get(appContext);
  // The admin area is never served on a school's subdomain.
  if (tenant.host.kind === "school" || tenant.host.kind === "invalid") throw new Response("Not Found", { status: 404 });
  const session = await getAdminSession(getDb(env.DB), request);
  if (!session) {
    const back = new URL(request.url).pathname.replace(/\.data$/, "");
    const login = back.startsWith("/superadmin") ? "/superadmin/login" : "/admin/login";
    throw redirect(`${login}?redirectTo=${encodeURIComponent(back)}`);
  }
  return session;
}
