import type { ReactNode } from "react";

/**
 * A line icon on a 24 px grid, drawn in the text colour (the shapes are its children), hidden from
 * screen readers: the control or text next to it carries the name.
 */
export function Icon({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      {children}
    </svg>
  );
}
