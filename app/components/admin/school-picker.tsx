import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, call } from "../../lib/api-client.ts";
import { useDebounced } from "../../lib/use-debounced.ts";
import { Button } from "../ui/button.tsx";
import { MessageBox } from "../ui/message-box.tsx";
import { PickerSearch } from "./picker-search.tsx";

/**
 * Search schools, tick several, act on them (assign a book, ...). The list follows the typing, so
 * it stays a client-side search of the API (typed from its route).
 */
export function SchoolPicker({
  exclude = [],
  actionLabel,
  onPick,
}: {
  exclude?: number[];
  actionLabel: string;
  onPick: (ids: number[]) => Promise<void>;
}) {
  const [input, setInput] = useState("");
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const query = useDebounced(input.trim(), 300);
  const schools = useQuery({
    queryKey: ["pick-schools", query],
    queryFn: () => call(() => api.api.schools.$get({ query: { query, pageSize: "50", sort: "name" } }), "Failed to fetch schools"),
  });
  const options = (schools.data?.schools ?? []).filter((s) => !exclude.includes(s.id));
  const toggle = (id: number) =>
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  async function act() {
    setBusy(true);
    setError(null);
    try {
      await onPick([...picked]);
      setPicked(new Set());
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-3">
      <PickerSearch
        id="school-picker-search"
        label="Find schools"
        placeholder="Name, slug, city..."
        width="max-w-md"
        value={input}
        onChange={setInput}
      />
      <fieldset
        aria-label="Schools found"
        className="max-h-64 min-w-0 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800"
      >
        {options.length === 0 ? (
          <p className="p-3 text-sm text-slate-500">{schools.isPending ? "Loading..." : "No schools to add."}</p>
        ) : (
          options.map((school) => (
            <label
              key={school.id}
              className="flex cursor-pointer items-center gap-3 border-b border-slate-100 px-3 py-2 text-sm last:border-0 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/50"
            >
              <input type="checkbox" checked={picked.has(school.id)} onChange={() => toggle(school.id)} />
              <span className="font-medium">{school.schoolName}</span>
              <span className="text-xs text-slate-500">
                /{school.slug} · {[school.city, school.state].filter(Boolean).join(", ")}
              </span>
            </label>
          ))
        )}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setPicked(new Set(options.map((s) => s.id)))} disabled={options.length === 0}>
          Select all shown
        </Button>
        <Button onClick={act} disabled={picked.size === 0 || busy}>
          {busy ? "Saving..." : `${actionLabel} (${picked.size})`}
        </Button>
      </div>
      {error && <MessageBox text={error} />}
    </div>
  );
}
