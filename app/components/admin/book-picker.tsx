import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, call, type Ok } from "../../lib/api-client.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { inputClasses } from "../ui/field.tsx";
import { GradeOptions, Options } from "../ui/options.tsx";
import { PickerSearch } from "./picker-search.tsx";

/** What the picker lists of its search: the first 100 matches by title. */
export const PICKER_LIST = { page: 1, pageSize: 100, sort: "title" } as const;

const searchBooks = (query: string) =>
  api.api.books.$get({
    query: { query, page: String(PICKER_LIST.page), pageSize: String(PICKER_LIST.pageSize), sort: PICKER_LIST.sort },
  });

export type BookOption = Ok<Awaited<ReturnType<typeof searchBooks>>>["books"][number];

/**
 * Search the catalogue (with grade and subject filters) and tick books. The search runs as the
 * admin types, in the browser; `initialBooks` (the page loader's list) stands for the empty search.
 * Books in `assigned` are marked "Assigned" and cannot be ticked again.
 */
export function BookPicker({
  picked,
  onToggle,
  single = false,
  initialBooks,
  assigned,
}: {
  picked: Set<number>;
  onToggle: (book: BookOption) => void;
  single?: boolean;
  initialBooks?: BookOption[];
  assigned?: ReadonlySet<number>;
}) {
  const [input, setInput] = useState("");
  const [grade, setGrade] = useState("");
  const [subject, setSubject] = useState("");
  const query = useDebounced(input.trim(), 300);
  const initial = query === "" ? initialBooks : undefined;
  const books = useQuery({
    queryKey: ["pick-books", query],
    enabled: !initial,
    queryFn: () => call(() => searchBooks(query), "Failed to fetch books"),
  });
  const all = initial ?? books.data?.books ?? [];
  const subjects = [...new Set(all.map((b) => b.subject).filter((s): s is string => Boolean(s)))].sort();
  const shown = all.filter((b) => (!grade || String(b.gradeLevel) === grade) && (!subject || b.subject === subject));
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <PickerSearch
          id="book-picker-search"
          label="Search books"
          labelHidden
          placeholder="Title, author, ISBN..."
          width="max-w-xs"
          value={input}
          onChange={setInput}
        />
        <label htmlFor="book-picker-grade" className="sr-only">
          Grade
        </label>
        <select id="book-picker-grade" className={`${inputClasses} max-w-44`} value={grade} onChange={(e) => setGrade(e.target.value)}>
          <option value="">All grades</option>
          <GradeOptions />
        </select>
        <label htmlFor="book-picker-subject" className="sr-only">
          Subject
        </label>
        <select
          id="book-picker-subject"
          className={`${inputClasses} max-w-52`}
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
        >
          <option value="">All subjects</option>
          <Options labels={subjects} />
        </select>
      </div>
      <div className="max-h-80 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800">
        {shown.length === 0 ? (
          <p className="p-3 text-sm text-slate-500">{!initial && books.isPending ? "Loading..." : "No books match."}</p>
        ) : (
          shown.map((book) => {
            const has = assigned?.has(book.id) ?? false;
            return (
              <label
                key={book.id}
                className={`flex items-center gap-3 border-b border-slate-100 px-3 py-2 text-sm last:border-0 dark:border-slate-800 ${has ? "cursor-default" : "cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800/50"}`}
              >
                <input
                  type={single ? "radio" : "checkbox"}
                  name="book-picker"
                  checked={has || picked.has(book.id)}
                  disabled={has}
                  onChange={() => onToggle(book)}
                />
                <span className="font-medium">{book.title}</span>
                <span className="text-xs text-slate-500">
                  {[book.author1, book.gradeLevel ? `Standard ${book.gradeLevel}` : null, book.subject].filter(Boolean).join(" · ")}
                </span>
                {has && <AssignedBadge />}
              </label>
            );
          })
        )}
      </div>
    </div>
  );
}

/** The mark of a book the school has already. */
export function AssignedBadge() {
  return (
    <span className="ml-auto rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800 dark:bg-green-950 dark:text-green-200">
      Assigned
    </span>
  );
}
