/** `items` in runs of at most `size`, in order: for D1 batches and statements kept under their limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}
