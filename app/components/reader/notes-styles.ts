/** The Notes panel's controls' classes (notes-panel.tsx and its forms and list items). */
export const field =
  "w-full rounded-lg border border-white/15 bg-slate-950 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:border-indigo-400 focus:outline-none focus:ring-2 focus:ring-indigo-400/40";
export const smallButton =
  "rounded-md px-2 py-1 text-xs font-semibold text-slate-200 hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400";
export const secondary =
  "rounded-lg border border-white/15 px-3 py-1.5 text-sm font-semibold hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400";
export const primary =
  "rounded-lg bg-indigo-500 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-400 disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-300";
