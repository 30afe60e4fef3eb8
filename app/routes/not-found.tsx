import { data } from "react-router";
import { NotFoundPage } from "../components/public/not-found-page.tsx";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = () => [{ title: "Page Not Found · Lectern" }];

export function loader() {
  throw data({ notFound: "page" }, { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}
