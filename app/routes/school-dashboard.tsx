import type { Route } from "./+types/school-dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Books Library · Lectern" }];

export default function SchoolDashboard() {
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Books Library</h1>
      <p className="mt-1 text-slate-600 dark:text-slate-400">Browse and access all books available for your school</p>
    </div>
  );
}
