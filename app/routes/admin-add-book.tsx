import { type FormEvent, useRef, useState } from "react";
import { data, Form, redirect, useNavigate } from "react-router";
import { isValidIsbn } from "#shared/rules/isbn.ts";
import { createBookCommand } from "../../workers/books/commands.ts";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { bookCreateInput, formText } from "../components/admin/book/form-input.ts";
import { useActionCall } from "../components/admin/book/use-action-call.ts";
import { Button } from "../components/ui/button.tsx";
import { Field, inputClasses, TextField } from "../components/ui/field.tsx";
import { fieldError, invalidProps, useFocusInvalid } from "../components/ui/field-error.tsx";
import { FileDrop } from "../components/ui/file-drop.tsx";
import { FormFooter } from "../components/ui/form-footer.tsx";
import { GradeOptions } from "../components/ui/options.tsx";
import { api, call } from "../lib/api-client.ts";
import { uploadCover, uploadPdf } from "../lib/book-upload.client.ts";
import { errorText } from "../lib/error-text.ts";
import { inspectLocalPdf } from "../lib/pdf.client.ts";
import { reply, runCommand } from "../lib/run-command.server.ts";
import type { Route } from "./+types/admin-add-book";

export const meta: Route.MetaFunction = () => [{ title: "Add Books · Lectern Admin" }];

/**
 * Creates the book from its details. A plain form post goes on to the new book's page; the page's
 * script asks for the book instead (`next=upload`), to upload its files before it goes there.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const outcome = await runCommand({ context, request }, createBookCommand, bookCreateInput(form));
  if (!outcome.ok) return reply(outcome);
  const { book } = outcome.value;
  if (formText(form, "next") !== "upload") throw redirect(`/admin/book/${book.id}`);
  return data({ book: { id: book.id } }, { status: 201 });
}

const COVER_TYPES = ["image/jpeg", "image/png", "image/webp"];
const PDF_TYPES = ["application/pdf", ".pdf"];
const MAX_COVER = 2 * 1024 * 1024;
const MAX_PDF = 1024 * 1024 * 1024;
const TEXT_FIELDS = [
  ["title", "Title", true],
  ["author1", "Author", true],
  ["author2", "Second author", false],
  ["isbn", "ISBN", false],
  ["subject", "Subject", false],
] as const;

type Stage = { kind: "idle" } | { kind: "busy"; label: string; progress: number | null };

export default function AdminAddBook({ actionData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const create = useActionCall<typeof action>();
  const [values, setValues] = useState({ title: "", author1: "", author2: "", isbn: "", subject: "", description: "", gradeLevel: "" });
  const [cover, setCover] = useState<File | null>(null);
  const [pdf, setPdf] = useState<{ file: File; pageCount: number | null; firstPage: Blob | null } | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: "idle" });
  const [error, setError] = useState<string | null>(actionData && "error" in actionData ? actionData.error : null);
  // The answer (or the page's own check) that refused a field: the field is marked until the next try.
  const [refused, setRefused] = useState<unknown>(actionData);
  const formRef = useRef<HTMLFormElement>(null);
  const abort = useRef<AbortController | null>(null);

  // FileDrop checked the type and size (COVER_TYPES, MAX_COVER, PDF_TYPES, MAX_PDF).
  async function pickPdf(file: File) {
    setError(null);
    setStage({ kind: "busy", label: "Reading the PDF...", progress: null });
    try {
      const { pageCount, cover: firstPage } = await inspectLocalPdf(file);
      setPdf({ file, pageCount, firstPage });
    } catch {
      setPdf(null);
      setError("This file cannot be opened as a PDF (it may be damaged or password-protected).");
    } finally {
      setStage({ kind: "idle" });
    }
  }

  function pickCover(file: File) {
    setError(null);
    setCover(file);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    form.set("next", "upload");
    // A book added with its PDF is removed again if that PDF's pages are refused (workers/books/input.ts).
    if (pdf) form.set("provisional", "true");
    setError(null);
    setRefused(null);
    const refuse = (text: string, field: string) => {
      setError(text);
      setRefused({ error: text, field });
    };
    if (!values.title.trim() || !values.author1.trim())
      return refuse("Please enter the title and the author.", values.title.trim() ? "author1" : "title");
    if (values.isbn.trim() && !isValidIsbn(values.isbn))
      return refuse("This ISBN's check digit is wrong, or it is not 10 or 13 digits.", "isbn");
    const controller = new AbortController();
    abort.current = controller;
    let bookId: number | null = null;
    try {
      setStage({ kind: "busy", label: "Saving the book...", progress: null });
      const answer = await create.submit(form);
      if (!answer || !("book" in answer)) {
        setRefused(answer);
        throw new Error(errorText(answer) ?? "Failed to save the book");
      }
      const { book } = answer;
      bookId = book.id;
      const image = cover ?? pdf?.firstPage;
      if (image) {
        setStage({ kind: "busy", label: "Uploading the cover...", progress: null });
        await uploadCover(book.id, image);
      }
      if (pdf) {
        setStage({ kind: "busy", label: "Uploading the PDF...", progress: 0 });
        await uploadPdf(book.id, pdf.file, pdf.pageCount, controller.signal, (progress) =>
          setStage({ kind: "busy", label: "Uploading the PDF...", progress }),
        );
      }
      navigate(`/admin/book/${book.id}`);
    } catch (e) {
      // No half-made book: a book whose upload failed or was cancelled is removed again.
      const made = bookId;
      if (made !== null) await call(() => api.api.books[":id"].$delete({ param: { id: String(made) } }), "").catch(() => null);
      setError(e instanceof DOMException && e.name === "AbortError" ? "Upload cancelled. Nothing was saved." : (e as Error).message);
      setStage({ kind: "idle" });
    }
  }

  const busy = stage.kind === "busy";
  // Once the form is enabled again: a disabled input cannot take focus.
  useFocusInvalid(formRef, busy ? null : refused);
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title="Add Books" description="Enter the book's details, then add its PDF and (optionally) a cover." />
      <Form ref={formRef} method="post" onSubmit={submit} noValidate className={`${cardClasses} grid gap-4 sm:grid-cols-2`}>
        {TEXT_FIELDS.map(([key, label, required]) => (
          <TextField
            key={key}
            id={`book-${key}`}
            label={`${label}${required ? "" : " (optional)"}`}
            error={fieldError(refused, key)}
            name={key}
            value={values[key]}
            disabled={busy}
            onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
          />
        ))}
        <Field label="Grade level (optional)" htmlFor="book-grade" error={fieldError(refused, "gradeLevel")}>
          <select
            id="book-grade"
            name="gradeLevel"
            className={inputClasses}
            {...invalidProps("book-grade", fieldError(refused, "gradeLevel"))}
            value={values.gradeLevel}
            disabled={busy}
            onChange={(e) => setValues((v) => ({ ...v, gradeLevel: e.target.value }))}
          >
            <option value="">Not for one grade</option>
            <GradeOptions />
          </select>
        </Field>
        <div className="sm:col-span-2">
          <Field label="Description (optional)" htmlFor="book-description" error={fieldError(refused, "description")}>
            <textarea
              id="book-description"
              name="description"
              rows={3}
              className={inputClasses}
              {...invalidProps("book-description", fieldError(refused, "description"))}
              value={values.description}
              disabled={busy}
              onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
            />
          </Field>
        </div>
        <FileDrop
          id="book-pdf"
          label="PDF"
          accept={PDF_TYPES}
          maxBytes={MAX_PDF}
          typeError="The PDF must be a PDF file."
          sizeError="The PDF is larger than 1 GB."
          hint="Up to 1 GB. Once it is uploaded, its pages are prepared on the server: you need not keep this page open."
          chosen={pdf ? { name: pdf.file.name, size: pdf.file.size, detail: `${pdf.pageCount} pages` } : null}
          disabled={busy}
          onFile={pickPdf}
          onError={setError}
        />
        <FileDrop
          id="book-cover"
          label="Cover (optional)"
          accept={COVER_TYPES}
          maxBytes={MAX_COVER}
          typeError="The cover must be a JPEG, PNG or WebP image."
          sizeError="The cover must be at most 2 MB."
          hint={pdf?.firstPage ? "None chosen: the PDF's first page will be the cover." : "JPEG, PNG or WebP, up to 2 MB."}
          chosen={cover}
          disabled={busy}
          onFile={pickCover}
          onError={setError}
        />
        {stage.kind === "busy" && (
          <div className="sm:col-span-2" aria-live="polite">
            <p className="text-sm text-slate-700 dark:text-slate-300">{stage.label}</p>
            {stage.progress !== null && (
              <div className="mt-2 flex items-center gap-3">
                <div
                  role="progressbar"
                  aria-label="Upload progress"
                  aria-valuenow={Math.round(stage.progress * 100)}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
                >
                  <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${Math.round(stage.progress * 100)}%` }} />
                </div>
                <span className="w-12 text-right text-sm tabular-nums">{Math.round(stage.progress * 100)}%</span>
                <Button variant="secondary" onClick={() => abort.current?.abort()}>
                  Cancel upload
                </Button>
              </div>
            )}
          </div>
        )}
        <FormFooter error={error} busy={busy} label="Add Book" busyLabel="Working..." />
      </Form>
    </div>
  );
}
