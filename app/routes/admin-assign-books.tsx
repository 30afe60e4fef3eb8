import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useParams } from "react-router";
import { AdminPageHeader, cardClasses } from "../components/admin/admin-page.tsx";
import { BookPicker } from "../components/admin/book-picker.tsx";
import { Button } from "../components/ui/button.tsx";
import { MessageBox } from "../components/ui/message-box.tsx";
import { requestJson } from "../lib/api-client.ts";
import type { Route } from "./+types/admin-assign-books";

export const meta: Route.MetaFunction = () => [{ title: "Assign Books · Lectern Admin" }];

/** Many books to one school. */
export default function AdminAssignBooks() {
  const { schoolId } = useParams();
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; tone?: "success" } | null>(null);
  const school = useQuery({
    queryKey: ["admin-school", schoolId],
    queryFn: () =>
      requestJson<{ school: { id: number; schoolName: string } }>(`/api/schools/${schoolId}`, { fallback: "School not found" }),
  });
  async function assign() {
    setBusy(true);
    try {
      const { created } = await requestJson<{ created: number }>("/api/books/access", {
        body: { schoolIds: [Number(schoolId)], bookIds: [...picked] },
        fallback: "Failed to assign",
      });
      setMessage({ text: `${picked.size} book(s) assigned (${created} new).`, tone: "success" });
      setPicked(new Set());
    } catch (e) {
      setMessage({ text: (e as Error).message });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="max-w-4xl space-y-6">
      <AdminPageHeader
        title="Assign Books"
        description={school.data ? `Books for ${school.data.school.schoolName}` : school.error?.message}
      />
      <section className={cardClasses}>
        <BookPicker
          picked={picked}
          onToggle={(book) =>
            setPicked((current) => {
              const next = new Set(current);
              if (next.has(book.id)) next.delete(book.id);
              else next.add(book.id);
              return next;
            })
          }
        />
        <div className="mt-4">
          <Button onClick={assign} disabled={picked.size === 0 || busy || !school.data}>
            {busy ? "Assigning..." : `Assign ${picked.size} book(s)`}
          </Button>
        </div>
      </section>
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}
