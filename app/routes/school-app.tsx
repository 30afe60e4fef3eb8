import { Outlet } from "react-router";
import { SchoolErrorBoundary } from "../components/school-error-boundary.tsx";
import { SchoolShell } from "../components/school-shell.tsx";
import { requireTeacher, teacherContext } from "../lib/teacher.server.ts";
import type { Route } from "./+types/school-app";

export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    args.context.set(teacherContext, await requireTeacher(args));
    return next();
  },
];

export function loader({ context }: Route.LoaderArgs) {
  const { teacher, school, basePath } = context.get(teacherContext);
  return { teacherName: teacher.name, school, basePath };
}

export default function SchoolApp({ loaderData }: Route.ComponentProps) {
  return (
    <SchoolShell school={loaderData.school} teacherName={loaderData.teacherName} basePath={loaderData.basePath}>
      <Outlet />
    </SchoolShell>
  );
}

export const ErrorBoundary = SchoolErrorBoundary;
