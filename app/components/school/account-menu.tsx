import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { api, call } from "../../lib/api-client.ts";
import { forgetTeacherName, initials } from "../../lib/teacher-name.ts";
import { Icon } from "../ui/icon.tsx";

/** Signs this browser out (the session ends on the server) and goes to the school's login page. */
export function useSignOut(basePath: string) {
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  // The offline clean-up's code, loaded once the page is up (not before it shows), so that it is
  // there when Sign out is pressed, offline too.
  const forget = useRef<Promise<typeof import("../../lib/offline/forget-offline.ts")> | null>(null);
  useEffect(() => {
    const loading = import("../../lib/offline/forget-offline.ts");
    forget.current ??= loading;
    // Not loaded (the connection dropped): Sign out asks for it again rather than skip the clean-up.
    loading.catch(() => {
      if (forget.current === loading) forget.current = null;
    });
  }, []);
  async function signOut() {
    setSigningOut(true);
    try {
      await call(() => api.api.teacher["sign-out"].$post(), "Sign out failed");
    } finally {
      forgetTeacherName();
      // This teacher's offline pages, kept books and unsent changes (forget-offline.ts).
      forget.current ??= import("../../lib/offline/forget-offline.ts");
      await forget.current.then(({ forgetOfflineTeacher }) => forgetOfflineTeacher()).catch(() => {});
      navigate(basePath || "/", { replace: true });
    }
  }
  return { signOut, signingOut };
}

/** The menu's items, in order. */
const menuItems = (menu: HTMLElement | null) => [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

const itemClasses =
  "flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm text-slate-700 outline-none hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60 dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800";

/**
 * The teacher's avatar (their initials) as a menu button: the name, "My account" and "Sign out".
 * The WAI-ARIA menu button pattern: Enter, Space or ArrowDown open it on the first item (ArrowUp
 * on the last), arrows, Home and End move between the items, Escape closes it and gives focus back
 * to the button, Tab or a click elsewhere closes it.
 */
export function AccountMenu({ teacherName, basePath }: { teacherName: string; basePath: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  // Which item gets focus once the menu is on screen: the first, the last, or none (closed).
  const [focusOnOpen, setFocusOnOpen] = useState<"first" | "last">("first");
  const { signOut, signingOut } = useSignOut(basePath);
  const location = useLocation();
  const menuId = useId();
  const buttonId = useId();

  function openMenu(at: "first" | "last") {
    setFocusOnOpen(at);
    setOpen(true);
  }

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  useEffect(() => {
    if (!open) return;
    const list = menuItems(menu.current);
    (focusOnOpen === "last" ? list[list.length - 1] : list[0])?.focus();
    // A pointer down outside the button and the menu closes it (focus stays where the pointer put it).
    function outside(event: PointerEvent) {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    }
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open, focusOnOpen]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the page changes
  useEffect(() => setOpen(false), [location.pathname]);

  function onButtonKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      openMenu(event.key === "ArrowUp" ? "last" : "first");
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      close(true);
    }
  }

  function onMenuKeyDown(event: KeyboardEvent) {
    const list = menuItems(menu.current);
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => list[(index + list.length) % list.length]?.focus();
    if (event.key === "ArrowDown") move(at + 1);
    else if (event.key === "ArrowUp") move(at - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(list.length - 1);
    else if (event.key === "Escape") close(true);
    // Space activates the link item as it does the button item (Enter follows a link by itself).
    else if (event.key === " " && document.activeElement instanceof HTMLAnchorElement) document.activeElement.click();
    else if (event.key === "Tab") {
      // Tab leaves the menu the way it would leave the button: the menu just closes.
      setOpen(false);
      return;
    } else return;
    event.preventDefault();
  }

  return (
    <div className="relative">
      <button
        ref={button}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openMenu("first"))}
        onKeyDown={onButtonKeyDown}
        className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700 outline-none hover:ring-2 hover:ring-indigo-300 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 dark:bg-indigo-900/60 dark:text-indigo-200 dark:focus-visible:ring-offset-slate-950"
      >
        <span aria-hidden="true">{initials(teacherName)}</span>
        <span className="sr-only">Account menu for {teacherName}</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-50 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <div role="none" className="border-b border-slate-200 px-3 pt-1.5 pb-2.5 dark:border-slate-700">
            <p className="text-xs text-slate-500 dark:text-slate-400">Signed in as</p>
            <p className="truncate text-sm font-semibold text-slate-900 dark:text-slate-100">{teacherName}</p>
          </div>
          <div role="none" className="pt-1.5">
            <Link role="menuitem" tabIndex={-1} to={`${basePath}/account`} className={itemClasses} onClick={() => setOpen(false)}>
              <Icon className="h-4 w-4">
                <circle cx="12" cy="8" r="4" />
                <path d="M4 21a8 8 0 0 1 16 0" strokeLinecap="round" />
              </Icon>
              My account
            </Link>
            <button role="menuitem" tabIndex={-1} type="button" className={itemClasses} onClick={signOut} disabled={signingOut}>
              <Icon className="h-4 w-4">
                <path d="M9 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h3M16 17l5-5-5-5M21 12H9" strokeLinecap="round" strokeLinejoin="round" />
              </Icon>
              {signingOut ? "Signing out..." : "Sign out"}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
