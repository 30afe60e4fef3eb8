import type { ReactNode } from "react";

const tones = {
  neutral: "border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900",
  error: "border-red-200 bg-red-50 dark:border-red-900/60 dark:bg-red-950/40",
};

/** A centred card for page-level states: not found, errors. */
export function StatusPanel({
  title,
  children,
  actions,
  tone = "neutral",
  icon,
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  tone?: keyof typeof tones;
  icon?: ReactNode;
}) {
  return (
    <section
      className={`mx-auto w-full max-w-lg rounded-2xl border p-8 text-center shadow-sm ${tones[tone]}`}
      aria-labelledby="status-title"
    >
      {icon && <div className="mb-4 flex justify-center">{icon}</div>}
      <h1 id="status-title" className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
        {title}
      </h1>
      {children && <div className="mt-3 text-slate-600 dark:text-slate-300">{children}</div>}
      {actions && <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>}
    </section>
  );
}
