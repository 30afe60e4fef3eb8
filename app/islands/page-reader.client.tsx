// The teacher reader page's only script: it hydrates the reader, nothing else. React, without
// React Router or TanStack Query, keeps the page under its JavaScript budget (docs/decisions/0010).
import { hydrateRoot } from "react-dom/client";
import { PAGE_READER_ID, TeacherReader, type TeacherReaderProps } from "../components/reader/teacher-reader.tsx";
import { islandPropsId } from "./island-props.ts";

const container = document.getElementById(PAGE_READER_ID);
const props = document.getElementById(islandPropsId("page-reader"))?.textContent;
if (container && props) hydrateRoot(container, <TeacherReader {...(JSON.parse(props) as TeacherReaderProps)} />);
