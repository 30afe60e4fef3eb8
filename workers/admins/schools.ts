// The admin's school code lives in school-*.ts beside this file. bench/lib/query-plans.ts still
// imports listSchools from this path; delete this file once it imports school-list.ts directly.
export { listSchools } from "./school-list.ts";
