import { Button } from "../../ui/button.tsx";

/** The most failed pages the panel lists one by one; the count is always whole. */
const SHOWN = 20;

/**
 * The pages that could not be prepared, with the renderer's reason. While the set is being
 * prepared each has its own "Try again" (`onRetry`); `retrying` is the page being sent again.
 */
export function FailedPages({
  failed,
  total,
  onRetry,
  retrying,
}: {
  failed: { n: number; error: string }[];
  total?: number;
  onRetry?: (n: number) => void;
  retrying?: number | null;
}) {
  const count = total ?? failed.length;
  if (!count) return null;
  const sorted = [...failed].sort((a, b) => a.n - b.n);
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
      <p className="font-medium">
        {count === 1
          ? "1 page could not be displayed; teachers see a notice in its place:"
          : `${count} pages could not be displayed; teachers see a notice in their place:`}
      </p>
      <ul className="mt-2 space-y-1">
        {sorted.slice(0, SHOWN).map((page) => (
          <li key={page.n} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span>
              Page {page.n}: {page.error}
            </span>
            {onRetry && (
              <Button
                variant="secondary"
                className="px-2.5 py-1 text-xs"
                aria-label={`Try page ${page.n} again`}
                disabled={retrying === page.n}
                onClick={() => onRetry(page.n)}
              >
                {retrying === page.n ? "Sending..." : "Try again"}
              </Button>
            )}
          </li>
        ))}
        {count > SHOWN && <li>and {count - SHOWN} more</li>}
      </ul>
    </div>
  );
}
