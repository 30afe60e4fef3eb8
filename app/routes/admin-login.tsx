import { redirect } from "react-router";
import { getAdminSession } from "../../workers/auth/sessions.ts";
import { getDb } from "../../workers/db/client.ts";
import { appContext } from "../../workers/http/context.ts";
import { AdminLoginForm } from "../components/admin/login-form.tsx";
import type { Route } from "./+types/admin-login";

export const meta: Route.MetaFunction = () => [{ title: "Admin sign-in · Lectern" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, tenant } = context.get(appContext);
  if (tenant.host.kind === "school" || tenant.host.kind === "invalid") throw new Response("Not Found", { status: 404 });
  if (await getAdminSession(getDb(env.DB), request)) throw redirect("/admin");
  return null;
}

export default function AdminLogin() {
  return <AdminLoginForm kind="admin" title="Admin Login" home="/admin" />;
}
