// The teacher reader page's only script: it hydrates the reader, nothing else. React, without
// React Router or TanStack Query, keeps the page under its JavaScript budget (docs/decisions/0010).
import { hydrateRoot } from "react-dom/client";
import { PAGE_READER_ID, TeacherReader, type TeacherReaderProps } from "../components/reader/teacher-reader.tsx";
import { registerAppShell } from "../lib/offline/app-shell.ts";
import { islandPropsId } from "./island-props.ts";

const container = document.getElementById(PAGE_READER_ID);
const props = document.getElementById(islandPropsId("page-reader"))?.textContent;
if (container && props) hydrateRoot(container, <TeacherReader {...(JSON.parse(props) as TeacherReaderProps)} />);
// The installable app's service worker (docs/decisions/0049): this page runs no root to register it.
registerAppShell();
