import { useCallback, useEffect, useRef } from "react";
import { type SubmitTarget, useFetcher } from "react-router";

/**
 * A fetcher posting to this route's action whose submit answers with the action's data once it is
 * done, for the flows that go on from the answer: the uploads after the new book exists, and the
 * school picker, which shows a refused assignment in its own box (it expects its callback to throw).
 */
export function useActionCall<Action>() {
  const fetcher = useFetcher<Action>();
  type Answer = typeof fetcher.data;
  const waiting = useRef<((answer: Answer) => void) | null>(null);
  // The fetcher is idle again (with the action's answer) once the action and any reload are done.
  useEffect(() => {
    if (fetcher.state !== "idle" || !waiting.current) return;
    const resolve = waiting.current;
    waiting.current = null;
    resolve(fetcher.data);
  }, [fetcher.state, fetcher.data]);
  const { submit: fetcherSubmit } = fetcher;
  const submit = useCallback(
    (target: SubmitTarget) =>
      new Promise<Answer>((resolve, reject) => {
        waiting.current = resolve;
        fetcherSubmit(target, { method: "post" }).catch((error: unknown) => {
          waiting.current = null;
          reject(error);
        });
      }),
    [fetcherSubmit],
  );
  return { fetcher, submit };
}
