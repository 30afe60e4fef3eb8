import { type ReactNode, useEffect, useState } from "react";
import { NavLink, useLocation } from "react-router";
import type { PublicSchool } from "#shared/rules/public-school.ts";
import { schoolInitials } from "../../lib/teacher-name.ts";
import { useLateOfflineContact } from "../offline/late-offline-contact.ts";
import { Icon } from "../ui/icon.tsx";
import { LogoMark } from "../ui/logo.tsx";
import { ThemeToggle } from "../ui/theme-toggle.tsx";
import { AccountMenu, useSignOut } from "./account-menu.tsx";

/** The signed-in school area: sidebar with the school, header with the teacher, page in the middle. */
export function SchoolShell({
  school,
  teacherName,
  basePath,
  search,
  coordinator = false,
  children,
}: {
  school: PublicSchool;
  teacherName: string;
  basePath: string;
  search?: ReactNode;
  /** A school coordinator (docs/decisions/0030): the sidebar leads to "My school" too. */
  coordinator?: boolean;
  children: ReactNode;
}) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  // Every school page's load, and the connection coming back, checks this device's offline copies (issue 45).
  useLateOfflineContact();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer whenever the page changes
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <div className="min-h-dvh lg:grid lg:grid-cols-[16rem_1fr]">
      {/* The first thing Tab reaches: past the sidebar and the header, straight to the page. */}
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-lg focus:bg-indigo-600 focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-white focus:shadow-lg"
      >
        Skip to main content
      </a>
      <aside
        id="school-sidebar"
        className={`${menuOpen ? "fixed inset-0 z-40 flex" : "hidden"} flex-col border-r border-slate-200 bg-white lg:sticky lg:top-0 lg:flex lg:h-dvh dark:border-slate-800 dark:bg-slate-900`}
      >
        <SchoolIdentity school={school} />
        <nav aria-label="School" className="flex-1 px-3 py-4">
          <SideLink to={`${basePath}/dashboard`} icon="M4 5a2 2 0 0 1 2-2h11v16H6a2 2 0 0 0-2 2zM4 21V5">
            Dashboard
          </SideLink>
          {/* The library page (/books: an explicit search over the whole shelf), reachable from every school page. */}
          <SideLink to={`${basePath}/books`} icon="M5 4h4v16H5zM10 4h4v16h-4zM15.5 5l3.8-1 3 14.7-3.8 1z" className="mt-1">
            Library
          </SideLink>
          {coordinator && (
            <SideLink to={`${basePath}/my-school`} icon="M3 21h18M5 21V9l7-5 7 5v12M9 21v-6h6v6M10 11h4" className="mt-1">
              My school
            </SideLink>
          )}
        </nav>
        <div className="flex items-center gap-2 border-t border-slate-200 px-5 py-4 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
          <LogoMark className="h-5 w-5" /> Powered by Lectern
        </div>
        <button
          type="button"
          className="absolute top-3 right-3 rounded-lg p-2 lg:hidden"
          onClick={() => setMenuOpen(false)}
          aria-label="Close menu"
        >
          ✕
        </button>
      </aside>
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-950/85">
          <button
            type="button"
            className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 lg:hidden dark:text-slate-300 dark:hover:bg-slate-800"
            onClick={() => setMenuOpen(true)}
            aria-label="Open menu"
            aria-controls="school-sidebar"
            aria-expanded={menuOpen}
          >
            <Icon className="h-5 w-5">
              <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
            </Icon>
          </button>
          <div className="min-w-0 flex-1">{search}</div>
          <ThemeToggle />
          <TeacherMenu teacherName={teacherName} basePath={basePath} />
        </header>
        <main id="main-content" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}

function SchoolIdentity({ school }: { school: PublicSchool }) {
  const lines = [
    school.address1,
    school.address2,
    school.address3,
    [school.city, school.state, school.zipCode].filter(Boolean).join(", "),
  ].filter(Boolean);
  return (
    <div className="border-b border-slate-200 px-5 py-5 dark:border-slate-800">
      <div
        aria-hidden="true"
        className="flex h-12 w-12 items-center justify-center rounded-xl bg-gradient-to-br from-indigo-500 to-violet-600 text-lg font-bold text-white shadow-sm"
      >
        {schoolInitials(school.schoolName)}
      </div>
      <p className="mt-3 font-semibold leading-snug">{school.schoolName}</p>
      <address className="mt-1 text-xs not-italic leading-relaxed text-slate-500 dark:text-slate-400">
        {lines.map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))}
      </address>
    </div>
  );
}

/**
 * The teacher in the header: the greeting (from small tablets up), the avatar menu with the name,
 * "My account" and "Sign out" (on phones the menu is the way to both), and a labelled Sign out
 * button beside it on wider screens.
 */
function TeacherMenu({ teacherName, basePath }: { teacherName: string; basePath: string }) {
  const { signOut, signingOut } = useSignOut(basePath);
  return (
    <div className="flex items-center gap-1 sm:gap-3">
      <span className="hidden text-sm text-slate-700 sm:block dark:text-slate-200">Welcome, {teacherName}</span>
      <AccountMenu teacherName={teacherName} basePath={basePath} />
      <button
        type="button"
        onClick={signOut}
        disabled={signingOut}
        className="hidden items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 disabled:opacity-60 sm:flex dark:text-slate-300 dark:hover:bg-slate-800"
      >
        {signingOut ? "Signing out..." : "Sign out"}
      </button>
    </div>
  );
}

/** A sidebar link with its icon (one SVG path), marked while its page is open. */
function SideLink({ to, icon, className = "", children }: { to: string; icon: string; className?: string; children: ReactNode }) {
  return (
    <NavLink
      to={to}
      className={({ isActive }) =>
        `${className} flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
          isActive
            ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-200"
            : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
        }`
      }
    >
      <Icon className="h-5 w-5">
        <path d={icon} strokeLinecap="round" strokeLinejoin="round" />
      </Icon>
      {children}
    </NavLink>
  );
}
