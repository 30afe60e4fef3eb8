import { useEffect, useState } from "react";
import { NavLink, Outlet, useNavigate } from "react-router";
import { AdminSearch } from "../components/admin/admin-search.tsx";
import { PreparationBanner } from "../components/admin/preparation/preparation-banner.tsx";
import { LogoMark } from "../components/ui/logo.tsx";
import { ThemeToggle } from "../components/ui/theme-toggle.tsx";
import { clearAdminFlag, markAdminSignedIn } from "../lib/admin-flag.ts";
import { api, call } from "../lib/api-client.ts";
import { adminContext } from "../lib/guards/admin.server.ts";
import { requireRole } from "../lib/guards/role.server.ts";
import type { Route } from "./+types/admin-layout";

export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    args.context.set(adminContext, requireRole("admin", args));
    return next();
  },
];

export function loader({ context }: Route.LoaderArgs) {
  const { admin, expiresAt } = context.get(adminContext);
  return { admin, expiresAt };
}

const NAV = [
  { to: "/admin/all-schools", label: "All Schools" },
  { to: "/admin/add-school", label: "Add Schools" },
  { to: "/admin/add-books", label: "Add Books" },
  { to: "/admin/assign-book", label: "Assign Book" },
  { to: "/admin/books", label: "Books" },
  { to: "/admin/preparation", label: "Preparation" },
  { to: "/admin/licences", label: "Licences" },
  { to: "/admin/codes", label: "Codes" },
  { to: "/admin/leaks", label: "Trace a leak" },
];

const MORE = [
  { to: "/admin/preview-add-schools", label: "Import Schools (CSV)" },
  { to: "/admin/increase-login-count", label: "Increase Login Count" },
  { to: "/admin/delete-school", label: "Delete School" },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { admin, expiresAt } = loaderData;
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);

  // The session ends 2.5 hours after sign-in on the server; the page follows it to the login then.
  useEffect(() => {
    markAdminSignedIn(expiresAt);
    const timer = setTimeout(
      () => {
        clearAdminFlag();
        navigate("/admin/login", { replace: true });
      },
      Math.max(0, expiresAt - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [expiresAt, navigate]);

  async function signOut() {
    await call(() => api.api.admin.logout.$post(), "Sign out failed").catch(() => null);
    clearAdminFlag();
    navigate("/admin/login", { replace: true });
  }

  return (
    <div className="min-h-dvh bg-slate-50 lg:grid lg:grid-cols-[15rem_1fr] dark:bg-slate-950">
      <aside
        className={`${menuOpen ? "fixed inset-0 z-40 flex" : "hidden"} flex-col bg-slate-900 text-slate-100 lg:sticky lg:top-0 lg:flex lg:h-dvh`}
      >
        <div className="flex items-center gap-2 px-5 py-5">
          <LogoMark className="h-7 w-7" />
          <span className="font-semibold">Admin Panel</span>
        </div>
        <nav aria-label="Admin" className="flex-1 space-y-1 overflow-y-auto px-3">
          {[...NAV, ...MORE].map((item, i) => (
            <NavLink
              key={item.to}
              to={item.to}
              end
              onClick={() => setMenuOpen(false)}
              className={({ isActive }) =>
                `block rounded-lg px-3 py-2 text-sm font-medium ${i === NAV.length ? "mt-4" : ""} ${isActive ? "bg-white/10 text-white" : "text-slate-300 hover:bg-white/5 hover:text-white"}`
              }
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="border-t border-white/10 px-5 py-4 text-xs text-slate-400">
          <p className="truncate text-slate-200">{admin.name}</p>
          <p className="truncate">{admin.email}</p>
          <button
            type="button"
            onClick={signOut}
            className="mt-3 rounded-md bg-white/10 px-3 py-1.5 text-sm font-medium text-white hover:bg-white/20"
          >
            Sign out
          </button>
        </div>
      </aside>
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-950/85">
          <button
            type="button"
            className="rounded-lg p-2 lg:hidden"
            aria-label="Open menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((o) => !o)}
          >
            ☰
          </button>
          <AdminSearch />
          <div className="ml-auto">
            <ThemeToggle />
          </div>
        </header>
        <PreparationBanner adminId={admin.id} />
        <main className="flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
