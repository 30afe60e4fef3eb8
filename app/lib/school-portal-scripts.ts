import type { PublicSchool } from "#shared/rules/public-school.ts";
import type { ProviderName } from "../../workers/sso/providers.ts";
import type { TeacherPortalProps } from "../components/school/teacher-portal.tsx";
import type { PageScripts, PageScriptsHandle } from "./page-scripts.ts";

type PortalData = { school: PublicSchool; basePath: string; next: string; notice: string | null; providers?: ProviderName[] };
const isPortalData = (data: unknown): data is PortalData =>
  typeof data === "object" && data !== null && "school" in data && "basePath" in data && "next" in data;

/**
 * The handle of the routes that show a school's login page. The page hydrates only its login
 * island; without a school (the landing page, "School Not Found") it runs no script at all.
 */
export const teacherPortalScripts: PageScriptsHandle = {
  scripts(data): PageScripts {
    if (!isPortalData(data)) return "none";
    const props: TeacherPortalProps = {
      slug: data.school.slug,
      schoolName: data.school.schoolName,
      basePath: data.basePath,
      next: data.next,
      notice: data.notice,
      providers: data.providers ?? [],
    };
    return { island: "teacher-portal", props };
  },
};
