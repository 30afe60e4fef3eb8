/**
 * The notice over the pages when the reading limit or the book's seats stop the reader; without a
 * seat, it says the reader asks again by itself and offers to ask now.
 */
export function ReadingLimit({
  message,
  noSeat,
  seatRetryMs,
  onTryNow,
}: {
  message: string;
  noSeat: boolean;
  seatRetryMs: number;
  onTryNow: () => void;
}) {
  return (
    <p role="alert" className="shrink-0 border-b border-amber-400/40 bg-amber-100 px-4 py-3 text-sm font-medium text-amber-950">
      {message}
      {noSeat && (
        <>
          {` This reader asks again by itself every ${Math.round(seatRetryMs / 1000)} seconds. `}
          <button
            type="button"
            onClick={onTryNow}
            className="ml-1 rounded-md border border-amber-700/40 bg-white/60 px-2 py-0.5 font-semibold hover:bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-700"
          >
            Try now
          </button>
        </>
      )}
    </p>
  );
}
