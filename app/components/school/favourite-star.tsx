/** The star in a book card's bottom row: adds the book to the teacher's 'My books' or removes it. */
export function FavouriteStar({ title, starred, onToggle }: { title: string; starred: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={starred}
      aria-label={starred ? `Remove ${title} from My books` : `Add ${title} to My books`}
      onClick={onToggle}
      className={`grid size-9 shrink-0 place-items-center rounded-full ring-1 ring-slate-900/10 hover:bg-slate-100 dark:ring-white/10 dark:hover:bg-slate-800 ${
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
