// The school login page's only script: it hydrates the login card and its dialogs, nothing else.
// React, without React Router or TanStack Query, keeps the page under its JavaScript budget.
import { hydrateRoot } from "react-dom/client";
import { TEACHER_PORTAL_ID, TeacherPortal, type TeacherPortalProps } from "../components/school/teacher-portal.tsx";
import { islandPropsId } from "./island-props.ts";

const container = document.getElementById(TEACHER_PORTAL_ID);
const props = document.getElementById(islandPropsId("teacher-portal"))?.textContent;
if (container && props) hydrateRoot(container, <TeacherPortal {...(JSON.parse(props) as TeacherPortalProps)} />);
