import { appContext } from "../../workers/kernel/context.ts";
import { preparationBoard } from "../../workers/page-images/preparation-status.ts";
import { AdminPageHeader } from "../components/admin/admin-page.tsx";
import { PreparationBoardView } from "../components/admin/preparation/preparation-board.tsx";
import { adminContext } from "../lib/guards/admin.server.ts";
import type { Route } from "./+types/admin-preparation";

export const meta: Route.MetaFunction = () => [{ title: "Preparation · Lectern Admin" }];

/** The board's first answer, as its API polls it (GET /api/books/preparation/status). */
export async function loader({ context }: Route.LoaderArgs) {
  const { admin } = context.get(adminContext);
  return { board: await preparationBoard(context.get(appContext).db, admin.id) };
}

export default function AdminPreparation({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminPageHeader
        title="Preparation"
        description="Every uploaded PDF is turned into the pages teachers read on the server; this page follows that work. You need not keep it open."
      />
      <PreparationBoardView initial={loaderData.board} />
    </>
  );
}
