import { redirect } from "react-router";
import { appContext } from "../../workers/kernel/context.ts";
import { AdminLoginForm } from "../components/admin/login-form.tsx";
import type { Route } from "./+types/admin-login";

export const meta: Route.MetaFunction = () => [{ title: "Admin sign-in · Lectern" }];

export function loader({ context }: Route.LoaderArgs) {
  const { admin, tenant } = context.get(appContext);
  if (tenant.host.kind === "school" || tenant.host.kind === "invalid") throw new Response("Not Found", { status: 404 });
  if (admin) throw redirect("/admin");
  return null;
}

export default function AdminLogin() {
  return <AdminLoginForm kind="admin" title="Admin Login" home="/admin" />;
}
