import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { type BookOption, BookPicker } from "../components/admin/book-picker.tsx";
import { SchoolPicker } from "../components/admin/school-picker.tsx";
import { Button } from "../components/ui/button.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { requestJson } from "../lib/api-client.ts";
import type { Route } from "./+types/admin-assign-book";

export const meta: Route.MetaFunction = () => [{ title: "Assign Book · Lectern Admin" }];

/** One book to many schools, or to all of them. Assigning twice changes nothing. */
export default function AdminAssignBook() {
  const [book, setBook] = useState<BookOption | null>(null);
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const assignAll = useMutation({
    mutationFn: (id: number) =>
      requestJson<{ assigned: number }>(`/api/books/${id}/assign-all-schools`, { method: "POST", body: {}, fallback: "Failed to assign" }),
    onSuccess: ({ assigned }) => setMessage({ text: `Assigned to every school (${assigned} new).`, tone: "success" }),
    onError: (e) => setMessage({ text: e.message }),
  });
  return (
    <div className="max-w-4xl space-y-6">
      <AdminPageHeader title="Assign Book" description="Pick one book, then the schools that should have it." />
      <section className={cardClasses} aria-labelledby="step-book">
        <h2 id="step-book" className="mb-3 font-semibold">
          1. Book {book && <span className="font-normal text-slate-600 dark:text-slate-400">: {book.title}</span>}
        </h2>
        <BookPicker single picked={new Set(book ? [book.id] : [])} onToggle={(b) => setBook(b)} />
      </section>
      {book && (
        <section className={cardClasses} aria-labelledby="step-schools">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
            <h2 id="step-schools" className="font-semibold">
              2. Schools
            </h2>
            <Button variant="secondary" onClick={() => assignAll.mutate(book.id)} disabled={assignAll.isPending}>
              {assignAll.isPending ? "Assigning..." : "Assign to all schools"}
            </Button>
          </div>
          <SchoolPicker
            actionLabel="Assign"
            onPick={async (schoolIds) => {
              const { created } = await requestJson<{ created: number }>("/api/books/access", {
                body: { schoolIds, bookIds: [book.id] },
                fallback: "Failed to assign",
              });
              setMessage({ text: `"${book.title}" assigned to ${schoolIds.length} school(s) (${created} new).`, tone: "success" });
            }}
          />
        </section>
      )}
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}
