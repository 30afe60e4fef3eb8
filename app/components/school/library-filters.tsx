import { type ChangeEvent, useId } from "react";
import {
  type FacetOption,
  MAX_FILTER_TEXT,
  SHELF_SORTS,
  type ShelfFacets,
  type ShelfQuery,
  type ShelfSort,
} from "#shared/rules/shelf-query.ts";
import { inputClasses } from "../ui/field.tsx";
import { Icon } from "../ui/icon.tsx";
import { Options } from "../ui/options.tsx";
import { FilterChips, withCount } from "./category-chips.tsx";

const selectClasses =
  "block w-full min-w-0 rounded-lg border border-slate-300 bg-white py-2.5 pr-2 pl-3 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100";

const rowLabelClasses = "w-16 shrink-0 pt-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400";

/**
 * The library's controls: the grid's own text filter ('Filter this list', unlike the header's
 * 'Search books...' that opens a book), the sort, 'All Books' or 'My books', and one subject and
 * one grade that combine. From 640 px the subject and grade are rows of chips with counts; below,
 * two compact selects, so on a phone the books still start in the first screen.
 */
export function LibraryFilters({
  query,
  facets,
  text,
  onText,
  onChange,
}: {
  /** What the controls show as chosen (the URL, or where it is going). */
  query: ShelfQuery;
  facets: ShelfFacets;
  /** The text box's own value: it runs ahead of the URL while the teacher types. */
  text: string;
  onText: (text: string) => void;
  onChange: (change: Partial<ShelfQuery>) => void;
}) {
  const id = useId();
  const show: FacetOption<boolean>[] = [
    { value: false, label: "All Books", count: facets.all },
    { value: true, label: "My books", count: facets.mine },
  ];
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is unknown to happy-dom (the component tests) and to browsers before 2023
    <div role="search" aria-label="Filter the library" className="space-y-3">
      <div className="flex items-center gap-2 sm:gap-3">
        <label htmlFor="dashboard-search" className="sr-only">
          Filter this list
        </label>
        <div className="relative min-w-0 flex-1 sm:max-w-sm">
          <Icon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400">
            <path d="M4 5h16M7 12h10M10 19h4" strokeLinecap="round" />
          </Icon>
          <input
            id="dashboard-search"
            type="search"
            placeholder="Search books..."
            autoComplete="off"
            maxLength={MAX_FILTER_TEXT}
            className={`${inputClasses} pl-9`}
            value={text}
            onChange={(event) => onText(event.target.value)}
          />
        </div>
        <div className="flex shrink-0 items-center gap-2 sm:ml-auto">
          <label
            htmlFor={`${id}-sort`}
            className="sr-only shrink-0 text-sm font-medium text-slate-700 sm:not-sr-only sm:whitespace-nowrap dark:text-slate-300"
          >
            Sort by
          </label>
          <select
            id={`${id}-sort`}
            className={`${selectClasses} w-auto`}
            value={query.sort}
            onChange={(event) => onChange({ sort: event.target.value as ShelfSort })}
          >
            <Options labels={SHELF_SORTS} />
          </select>
        </div>
      </div>

      <FilterChips label="Show" options={show} selected={query.mine} onSelect={(mine) => onChange({ mine })} />

      {/* Phones: two compact selects. */}
      <div className="grid grid-cols-2 gap-2 sm:hidden">
        <FacetSelect
          id={`${id}-subject`}
          label="Subject"
          options={facets.subjects}
          selected={query.subject}
          onSelect={(subject) => onChange({ subject })}
        />
        <FacetSelect
          id={`${id}-grade`}
          label="Grade"
          options={facets.grades}
          selected={query.grade}
          onSelect={(grade) => onChange({ grade })}
        />
      </div>

      {/* Wider screens: chip rows with counts. */}
      <div className="hidden space-y-2 sm:block">
        <div className="flex gap-2">
          <span className={rowLabelClasses} aria-hidden="true">
            Subject
          </span>
          <FilterChips label="Subject" options={facets.subjects} selected={query.subject} onSelect={(subject) => onChange({ subject })} />
        </div>
        <div className="flex gap-2">
          <span className={rowLabelClasses} aria-hidden="true">
            Grade
          </span>
          <FilterChips label="Grade" options={facets.grades} selected={query.grade} onSelect={(grade) => onChange({ grade })} />
        </div>
      </div>
    </div>
  );
}

/** A single-choice filter as a native select, each option with its count ('Science (4)'). */
function FacetSelect<T extends string | number | null>({
  id,
  label,
  options,
  selected,
  onSelect,
}: {
  id: string;
  label: string;
  options: FacetOption<T>[];
  selected: T;
  onSelect: (value: T) => void;
}) {
  const optionValue = (value: T) => (value === null ? "" : String(value));
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        className={selectClasses}
        value={optionValue(selected)}
        onChange={(event: ChangeEvent<HTMLSelectElement>) => {
          const option = options.find((o) => optionValue(o.value) === event.target.value);
          if (option) onSelect(option.value);
        }}
      >
        {options.map((option) => (
          <option key={optionValue(option.value)} value={optionValue(option.value)}>
            {withCount(option)}
          </option>
        ))}
      </select>
    </div>
  );
}
