import type { findSchoolDetail } from "../../../../workers/schools/detail.ts";
import { LocalDateTime } from "../../ui/local-date-time.tsx";
import { cardClasses, rowClasses, TableHead, TableState, tableClasses } from "../admin-page.tsx";

type Teacher = NonNullable<Awaited<ReturnType<typeof findSchoolDetail>>>["teachers"][number];

/** The school's registered teachers, with when they registered and last signed in. */
export function SchoolTeachers({ teachers }: { teachers: Teacher[] }) {
  return (
    <section className={cardClasses} aria-labelledby="teachers-title">
      <h2 id="teachers-title" className="mb-3 font-semibold">
        Teachers
      </h2>
      <TableState loading={false} error={null} empty={teachers.length === 0} />
      {teachers.length > 0 && (
        <table className={tableClasses}>
          <TableHead columns={["Name", "E-mail", "Mobile", "Registered", "Last login"]} />
          <tbody>
            {teachers.map((t) => (
              <tr key={t.id} className={rowClasses}>
                <td className="py-2 pr-4 font-medium">{t.name}</td>
                <td className="py-2 pr-4">{t.email}</td>
                <td className="py-2 pr-4 tabular-nums">{t.mobile}</td>
                <td className="py-2 pr-4">
                  <LocalDateTime value={t.createdAt} />
                </td>
                <td className="py-2 pr-4">
                  <LocalDateTime value={t.lastLoginAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
