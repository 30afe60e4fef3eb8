import { useEffect, useRef, useState } from "react";

export type Fetched<T> = { data: T | undefined; error: Error | null; fetching: boolean };

/**
 * What `load` answers for `key`, asked again whenever the key changes (`null`: ask nothing). The
 * last answer stays until the next one arrives; an error counts only for the key it came from,
 * and an answer for an old key lands nowhere. The teacher's reader runs without a query cache
 * (its page hydrates on its own, docs/decisions/0010): this is all its panels need of one.
 */
export function useFetched<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Fetched<T> {
  const [answer, setAnswer] = useState<{ key: string | null; data: T | undefined; error: Error | null }>({
    key: null,
    data: undefined,
    error: null,
  });
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    if (key === null) return;
    const abort = new AbortController();
    latest.current(abort.signal).then(
      (data) => {
        if (!abort.signal.aborted) setAnswer({ key, data, error: null });
      },
      (caught: unknown) => {
        if (abort.signal.aborted) return;
        const error = caught instanceof Error ? caught : new Error(String(caught));
        setAnswer((last) => ({ key, data: last.data, error }));
      },
    );
    return () => abort.abort();
  }, [key]);
  const current = key !== null && answer.key === key;
  return { data: answer.data, error: current ? answer.error : null, fetching: key !== null && !current };
}
