import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { AdminPageHeader, cardClasses, TableState } from "../components/admin/admin-page.tsx";
import { AdminBookFiles } from "../components/admin/book-files.tsx";
import { AdminBookPages } from "../components/admin/book-pages.tsx";
import { SchoolPicker } from "../components/admin/school-picker.tsx";
import { BookCover } from "../components/ui/book-cover.tsx";
import { Button } from "../components/ui/button.tsx";
import { ButtonLink } from "../components/ui/button-link.tsx";
import { Dialog } from "../components/ui/dialog.tsx";
import { inputClasses } from "../components/ui/field.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { requestJson } from "../lib/api-client.ts";
import { formatDateTime } from "../lib/format-date.ts";
import type { Route } from "./+types/admin-book";

export const meta: Route.MetaFunction = () => [{ title: "Book · Lectern Admin" }];

type Book = {
  id: number;
  title: string;
  author1: string;
  author2: string | null;
  description: string;
  isbn: string | null;
  gradeLevel: number | null;
  subject: string | null;
  thumbnailPath: string | null;
  pdfPath: string | null;
  pdfSize: number | null;
  pageCount: number | null;
  createdAt: number;
  schools: { id: number; schoolName: string; slug: string }[];
};

type Message = { text: string; tone?: "success" } | null;

export default function AdminBook() {
  const { id } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [message, setMessage] = useState<Message>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const book = useQuery({
    queryKey: ["admin-book", id],
    queryFn: () => requestJson<{ book: Book }>(`/api/books/${id}`, { fallback: "Failed to fetch book" }),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ["admin-book", id] });

  const unassign = useMutation({
    mutationFn: (schoolId: number) =>
      requestJson(`/api/books/access/${schoolId}/${id}`, { method: "DELETE", fallback: "Failed to unassign" }),
    onSuccess: () => refresh(),
    onError: (e) => setMessage({ text: e.message }),
  });
  const assignAll = useMutation({
    mutationFn: () =>
      requestJson<{ assigned: number }>(`/api/books/${id}/assign-all-schools`, { method: "POST", body: {}, fallback: "Failed to assign" }),
    onSuccess: ({ assigned }) => {
      setMessage({ text: `Assigned to ${assigned} more school(s).`, tone: "success" });
      void refresh();
    },
    onError: (e) => setMessage({ text: e.message }),
  });
  const remove = useMutation({
    mutationFn: () => requestJson(`/api/books/${id}`, { method: "DELETE", fallback: "Failed to delete the book" }),
    onSuccess: () => navigate("/admin/books"),
    onError: (e) => setMessage({ text: e.message }),
  });

  if (!book.data) return <TableState loading={book.isPending} error={book.error} empty={false} />;
  const b = book.data.book;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={b.title}
        description={[b.author1, b.author2].filter(Boolean).join(", ")}
        actions={
          <>
            {b.pdfPath && (
              <ButtonLink to={`/admin/pdf/${b.id}`} variant="secondary">
                Open in reader
              </ButtonLink>
            )}
            <Button variant="secondary" onClick={() => setConfirmDelete(true)} className="text-red-700 dark:text-red-300">
              Delete
            </Button>
          </>
        }
      />
      {message && <MessageBox text={message.text} tone={message.tone} />}
      <div className={`${cardClasses} grid gap-6 md:grid-cols-[12rem_1fr]`}>
        <BookCover src={b.thumbnailPath} title={b.title} className="aspect-[2/3] w-48 rounded-lg shadow" />
        <EditBook
          book={b}
          onSaved={() => {
            setMessage({ text: "Saved.", tone: "success" });
            void refresh();
          }}
        />
      </div>
      <section className={cardClasses} aria-labelledby="files-title">
        <h2 id="files-title" className="mb-3 font-semibold">
          Files
        </h2>
        <AdminBookFiles
          bookId={b.id}
          hasPdf={Boolean(b.pdfPath)}
          onChanged={() => {
            void refresh();
            void client.invalidateQueries({ queryKey: ["admin-book-pages", b.id] });
          }}
        />
        <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
          <AdminBookPages bookId={b.id} onChanged={() => void refresh()} />
        </div>
      </section>
      <section className={cardClasses} aria-labelledby="assigned-title">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 id="assigned-title" className="font-semibold">
            Assigned to {b.schools.length} school(s)
          </h2>
          <Button variant="secondary" onClick={() => assignAll.mutate()} disabled={assignAll.isPending}>
            {assignAll.isPending ? "Assigning..." : "Assign to all schools"}
          </Button>
        </div>
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {b.schools.map((school) => (
            <li key={school.id} className="flex items-center justify-between py-2 text-sm">
              <Link to={`/admin/school/${school.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                {school.schoolName}
              </Link>
              <button type="button" className="text-red-700 hover:underline dark:text-red-300" onClick={() => unassign.mutate(school.id)}>
                Unassign
              </button>
            </li>
          ))}
        </ul>
        <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
          <SchoolPicker
            exclude={b.schools.map((s) => s.id)}
            actionLabel="Assign to selected"
            onPick={async (schoolIds) => {
              await requestJson("/api/books/access", { body: { schoolIds, bookIds: [b.id] }, fallback: "Failed to assign" });
              setMessage({ text: `Assigned to ${schoolIds.length} school(s).`, tone: "success" });
              await refresh();
            }}
          />
        </div>
      </section>
      <Dialog
        id="delete-book-dialog"
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title="Delete this book?"
        description={`"${b.title}" will be removed from ${b.schools.length} school(s), with its PDF, cover and every teacher's reading progress. This cannot be undone.`}
      >
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirmDelete(false)}>
            Keep it
          </Button>
          <Button onClick={() => remove.mutate()} disabled={remove.isPending} className="bg-red-600 hover:bg-red-700">
            {remove.isPending ? "Deleting..." : "Delete book"}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

function EditBook({ book, onSaved }: { book: Book; onSaved: () => void }) {
  const [values, setValues] = useState({
    title: book.title,
    author1: book.author1,
    author2: book.author2 ?? "",
    isbn: book.isbn ?? "",
    subject: book.subject ?? "",
    gradeLevel: book.gradeLevel ? String(book.gradeLevel) : "",
    description: book.description,
  });
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      requestJson(`/api/books/${book.id}`, {
        method: "PUT",
        body: {
          ...values,
          author2: values.author2 || null,
          isbn: values.isbn || null,
          subject: values.subject || null,
          gradeLevel: values.gradeLevel ? Number(values.gradeLevel) : null,
        },
        fallback: "Failed to save",
      }),
    onSuccess: () => {
      setError(null);
      onSaved();
    },
    onError: (e) => setError(e.message),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const input = (key: keyof typeof values, label: string) => (
    <label className="block text-sm" htmlFor={`edit-${key}`}>
      <span className="font-medium">{label}</span>
      <input
        id={`edit-${key}`}
        className={`${inputClasses} mt-1`}
        value={values[key]}
        onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
      />
    </label>
  );
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" noValidate>
      {input("title", "Title")}
      {input("author1", "Author")}
      {input("author2", "Second author")}
      {input("isbn", "ISBN")}
      {input("subject", "Subject")}
      <label className="block text-sm" htmlFor="edit-grade">
        <span className="font-medium">Grade level</span>
        <select
          id="edit-grade"
          className={`${inputClasses} mt-1`}
          value={values.gradeLevel}
          onChange={(e) => setValues((v) => ({ ...v, gradeLevel: e.target.value }))}
        >
          <option value="">Not for one grade</option>
          {Array.from({ length: 12 }, (_, i) => String(i + 1)).map((g) => (
            <option key={g} value={g}>
              Standard {g}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm sm:col-span-2" htmlFor="edit-description">
        <span className="font-medium">Description</span>
        <textarea
          id="edit-description"
          rows={3}
          className={`${inputClasses} mt-1`}
          value={values.description}
          onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
        />
      </label>
      <p className="text-xs text-slate-500 sm:col-span-2">
        PDF: {book.pdfPath ? `${((book.pdfSize ?? 0) / 1048576).toFixed(1)} MB, ${book.pageCount ?? "?"} pages` : "none"} · Added{" "}
        {formatDateTime(book.createdAt)}
      </p>
      {error && (
        <div className="sm:col-span-2">
          <MessageBox text={error} />
        </div>
      )}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save changes"}
        </Button>
      </div>
    </form>
  );
}
