import { AdminLoginForm } from "../components/admin/login-form.tsx";
import type { Route } from "./+types/superadmin-login";

export const meta: Route.MetaFunction = () => [{ title: "Superadmin sign-in · Lectern" }];

export default function SuperadminLogin() {
  return <AdminLoginForm kind="superadmin" title="Superadmin Login" home="/superadmin/dashboard" />;
}
