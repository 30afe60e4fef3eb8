/** 'All Books' plus one chip per category; a radio group, so arrow keys move between chips. */
export function CategoryChips({ chips, selected, onSelect }: { chips: string[]; selected: string; onSelect: (value: string) => void }) {
  const options = [{ value: "all", label: "All Books" }, ...chips.map((chip) => ({ value: chip, label: chip }))];
  return (
    <div role="radiogroup" aria-label="Filter by category" className="flex flex-wrap gap-2">
      {options.map((option, index) => {
        const active = option.value === selected;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a styled chip row; role=radio with roving focus is the ARIA pattern
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={active}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(option.value)}
            onKeyDown={(event) => {
              const step =
                event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 0;
              if (!step) return;
              event.preventDefault();
              const next = options[(index + step + options.length) % options.length]!;
              onSelect(next.value);
              (
                event.currentTarget.parentElement?.children[(index + step + options.length) % options.length] as HTMLElement | undefined
              )?.focus();
            }}
            className={`rounded-full border px-3 py-1.5 text-sm font-medium transition-colors ${
              active
                ? "border-indigo-600 bg-indigo-600 text-white dark:border-indigo-500 dark:bg-indigo-500"
                : "border-slate-300 bg-white text-slate-700 hover:border-indigo-400 hover:text-indigo-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300 dark:hover:text-indigo-300"
            }`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
