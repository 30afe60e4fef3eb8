import { redirect } from "react-router";
import type { Route } from "./+types/admin-pdf-viewer";

// The old viewer address: /admin/pdf-viewer/{id} is now /admin/pdf/{id}.
export function loader({ params }: Route.LoaderArgs) {
  throw redirect(params.id ? `/admin/pdf/${encodeURIComponent(params.id)}` : "/admin/books", 301);
}

export default function AdminPdfViewer() {
  return null;
}
