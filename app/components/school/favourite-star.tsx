/** The star on a book card: adds the book to the teacher's 'My books' or removes it. */
export function FavouriteStar({ title, starred, onToggle }: { title: string; starred: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={starred}
      aria-label={starred ? `Remove ${title} from My books` : `Add ${title} to My books`}
      onClick={onToggle}
      className={`absolute top-2 left-2 grid size-9 place-items-center rounded-full bg-white/90 shadow ring-1 ring-slate-900/10 dark:bg-slate-900/90 ${
        starred ? "text-amber-500" : "text-slate-600 dark:text-slate-300"
      }`}
    >
      <svg
        viewBox="0 0 24 24"
        className="size-5"
        fill={starred ? "currentColor" : "none"}
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
      </svg>
    </button>
  );
}
