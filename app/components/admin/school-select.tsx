import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { requestJson } from "../../lib/api-client.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { inputClasses } from "../ui/field.tsx";

export type SchoolChoice = {
  id: number;
  schoolName: string;
  slug: string;
  teacherLimit: number;
  teacherCount: number;
  totalLogins: number;
};

/** Search for one school and choose it. */
export function SchoolSelect({ value, onChange }: { value: SchoolChoice | null; onChange: (school: SchoolChoice) => void }) {
  const [input, setInput] = useState("");
  const query = useDebounced(input.trim(), 300);
  const schools = useQuery({
    queryKey: ["select-school", query],
    queryFn: () =>
      requestJson<{ schools: SchoolChoice[] }>(`/api/schools?query=${encodeURIComponent(query)}&pageSize=20&sort=name`, {
        fallback: "Failed to fetch schools",
      }),
  });
  return (
    <div className="space-y-2">
      <label htmlFor="school-select-search" className="text-sm font-medium">
        School
      </label>
      <input
        id="school-select-search"
        type="search"
        placeholder="Search by name, slug, city..."
        className={`${inputClasses} max-w-md`}
        value={input}
        onChange={(e) => setInput(e.target.value)}
      />
      <div
        role="listbox"
        aria-label="Schools"
        className="max-h-56 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800"
      >
        {(schools.data?.schools ?? []).map((school) => (
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
