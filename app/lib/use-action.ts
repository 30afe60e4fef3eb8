import { useCallback, useRef, useState } from "react";

type Status = "idle" | "pending" | "success" | "error";

/**
 * One request the user starts (log in, send a code) and its state. The login page runs without a
 * router or a query cache (it hydrates on its own, see docs/decisions/0010), so this is all it
 * needs of a mutation: busy, done, and a reset that makes a late answer land nowhere.
 */
export function useAction<T>(request: () => Promise<T>, on: { onSuccess?: (value: T) => void; onError?: (error: Error) => void }) {
  const [status, setStatus] = useState<Status>("idle");
  const latest = useRef({ request, on });
  latest.current = { request, on };
  const generation = useRef(0);

  const run = useCallback(async () => {
    const id = ++generation.current;
    setStatus("pending");
    try {
      const value = await latest.current.request();
      if (id !== generation.current) return;
      setStatus("success");
      latest.current.on.onSuccess?.(value);
    } catch (caught) {
      if (id !== generation.current) return;
      setStatus("error");
      latest.current.on.onError?.(caught instanceof Error ? caught : new Error(String(caught)));
    }
  }, []);

  const reset = useCallback(() => {
    generation.current++;
    setStatus("idle");
  }, []);

  return { run, reset, isPending: status === "pending", isSuccess: status === "success" };
}
