// The school login page's only script: it hydrates the login card and its dialogs, nothing else.
// React, without React Router or TanStack Query, keeps the page under its JavaScript budget.
import { hydrateRoot } from "react-dom/client";
import { TEACHER_PORTAL_ID, TeacherPortal, type TeacherPortalProps } from "../components/school/teacher-portal.tsx";
import { forgetOfflineShell, registerAppShell } from "../lib/offline/app-shell.ts";
import { checkOfflineContact } from "../lib/offline/offline-contact.ts";
import { islandPropsId } from "./island-props.ts";

const container = document.getElementById(TEACHER_PORTAL_ID);
const props = document.getElementById(islandPropsId("teacher-portal"))?.textContent;
if (container && props) hydrateRoot(container, <TeacherPortal {...(JSON.parse(props) as TeacherPortalProps)} />);
// The sign-in page shows only to a browser with no session here: nothing kept for offline may
// open without one (docs/decisions/0049). The worker is installed now, so the first page after
// signing in is already kept.
void forgetOfflineShell().then(registerAppShell);
// Its contact check hears 401 and erases the books kept for offline too (docs/decisions/0052); it
// asks nothing on a device that keeps none.
checkOfflineContact().catch(() => {});
