import type { ReactNode } from "react";
import { MessageBox } from "../ui/message-box.tsx";
import { AdminPageHeader, cardClasses } from "./admin-page.tsx";
import type { Notice } from "./school/form-values.ts";
import { type SchoolChoice, SchoolSelect } from "./school-select.tsx";

/**
 * A page that does one thing to one school (delete it, raise its teacher limit): the school is
 * searched for and chosen first, then the page's form for it shows under the select, and the
 * outcome under the card.
 */
export function SchoolActionPage({
  title,
  description,
  initial,
  school,
  onSchool,
  message,
  children,
}: {
  title: string;
  description: string;
  initial: SchoolChoice[];
  school: SchoolChoice | null;
  onSchool: (school: SchoolChoice) => void;
  message: Notice | null;
  children: (school: SchoolChoice) => ReactNode;
}) {
  return (
    <div className="max-w-3xl space-y-6">
      <AdminPageHeader title={title} description={description} />
      <div className={cardClasses}>
        <SchoolSelect initial={initial} value={school} onChange={onSchool} />
        {school && children(school)}
      </div>
      {message && <MessageBox text={message.text} tone={message.tone} />}
    </div>
  );
}
