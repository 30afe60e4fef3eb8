import type { FacetOption } from "#shared/rules/shelf-query.ts";

/** A chip's or an option's name with its count: 'Science (4)'. */
export const withCount = (option: { label: string; count: number }) => `${option.label} (${option.count})`;

/**
 * The chips' looks, set once on their row (the `*:` variants style each chip, `aria-checked` the
 * chosen one): a shelf with many subjects and grades does not repeat them in every chip's HTML.
 */
const CHIP_ROW = [
  "flex flex-wrap gap-2",
  "*:inline-flex *:shrink-0 *:items-center *:gap-1.5 *:whitespace-nowrap *:rounded-full *:border *:py-1.5 *:pr-1.5 *:pl-3 *:text-sm *:font-medium *:transition-colors",
  "*:border-slate-300 *:bg-white *:text-slate-700 *:dark:border-slate-700 *:dark:bg-slate-900 *:dark:text-slate-300",
  "*:not-aria-checked:hover:border-indigo-400 *:not-aria-checked:hover:text-indigo-700 *:dark:not-aria-checked:hover:text-indigo-300",
  "*:aria-checked:border-indigo-600 *:aria-checked:bg-indigo-600 *:aria-checked:text-white *:dark:aria-checked:border-indigo-500 *:dark:aria-checked:bg-indigo-500",
].join(" ");

/**
 * One single-choice filter as a row of chips with count badges ('All subjects', 'Art', 'Science',
 * ...): a radio group, so arrow keys move between chips and Tab leaves the row.
 */
export function FilterChips<T extends string | number | boolean | null>({
  label,
  options,
  selected,
  onSelect,
  className = "",
}: {
  label: string;
  options: FacetOption<T>[];
  selected: T;
  onSelect: (value: T) => void;
  className?: string;
}) {
  const selectedIndex = Math.max(
    0,
    options.findIndex((option) => option.value === selected),
  );
  return (
    <div role="radiogroup" aria-label={label} className={`${CHIP_ROW} ${className}`}>
      {options.map((option, index) => {
        const active = index === selectedIndex;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a styled chip row; role=radio with roving focus is the ARIA pattern
          <button
            key={String(option.value)}
            type="button"
            role="radio"
            aria-checked={active}
            aria-label={withCount(option)}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(option.value)}
            onKeyDown={(event) => {
              const step =
                event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
              if (!step) return;
              event.preventDefault();
              const next = (index + step + options.length) % options.length;
              onSelect(options[next]!.value);
              (event.currentTarget.parentElement?.children[next] as HTMLElement | undefined)?.focus();
            }}
          >
            {option.label}
            <span
              aria-hidden="true"
              className={`min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums ${
                active ? "bg-indigo-800 text-white" : "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300"
              }`}
            >
              {option.count}
            </span>
          </button>
        );
      })}
    </div>
  );
}
