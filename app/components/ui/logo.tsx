import { Link } from "react-router";

export const PRODUCT_NAME = "Lectern";

export function LogoMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-indigo-600 dark:fill-indigo-500" />
      <path d="M7 10.5c3-1.2 6-1 9 1 3-2 6-2.2 9-1v11c-3-1.2-6-1-9 1-3-2-6-2.2-9-1z" fill="#fff" opacity=".95" />
      <path d="M16 11.5v11" stroke="#4f46e5" strokeWidth="1.2" />
      <path d="M13 24.5h6l-1 3h-4z" fill="#c7d2fe" />
    </svg>
  );
}

/** Product logo and name, linking home. */
export function Logo({ to = "/" }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2.5 rounded-md font-semibold tracking-tight">
      <LogoMark />
      <span className="text-lg text-slate-900 dark:text-white">{PRODUCT_NAME}</span>
    </Link>
  );
}
