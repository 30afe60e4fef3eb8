import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { SchoolRow } from "../../../workers/schools/list.ts";
import { api, call } from "../../lib/api-client.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { PickerSearch } from "./picker-search.tsx";

/** A school as the list shows it (a row of listSchools, from the page's loader or the API). */
export type SchoolChoice = Pick<SchoolRow, "id" | "schoolName" | "slug" | "teacherLimit" | "teacherCount">;

/**
 * Search for one school and choose it. The first schools by name come with the page (`initial`,
 * from its loader, fresh after each of its actions); a search asks the API as the admin types.
 */
export function SchoolSelect({
  value,
  onChange,
  initial,
}: {
  value: SchoolChoice | null;
  onChange: (school: SchoolChoice) => void;
  initial: SchoolChoice[];
}) {
  const [input, setInput] = useState("");
  const query = useDebounced(input.trim(), 300);
  const found = useQuery({
    queryKey: ["select-school", query],
    enabled: query !== "",
    queryFn: () => call(() => api.api.schools.$get({ query: { query, pageSize: "20", sort: "name" } }), "Failed to fetch schools"),
  });
  const schools: SchoolChoice[] = query === "" ? initial : (found.data?.schools ?? []);
  return (
    <div className="space-y-2">
      <PickerSearch
        id="school-select-search"
        label="School"
        placeholder="Search by name, slug, city..."
        width="max-w-md"
        value={input}
        onChange={setInput}
      />
      <div
        role="listbox"
        aria-label="Schools"
        className="max-h-56 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800"
      >
        {schools.map((school) => (
          <button
            key={school.id}
            type="button"
            role="option"
            aria-selected={value?.id === school.id}
            onClick={() => onChange(school)}
            className={`block w-full border-b border-slate-100 px-3 py-2 text-left text-sm last:border-0 dark:border-slate-800 ${value?.id === school.id ? "bg-indigo-50 dark:bg-indigo-950/60" : "hover:bg-slate-50 dark:hover:bg-slate-800/50"}`}
          >
            <span className="font-medium">{school.schoolName}</span>
            <span className="ml-2 text-xs text-slate-500">
              /{school.slug} · {school.teacherCount} of {school.teacherLimit} teachers
            </span>
          </button>
        ))}
      </div>
    </div>
  );
}
