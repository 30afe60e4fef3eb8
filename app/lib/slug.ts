// The suggestion the Add School form shows is exactly what the server would generate.
export { slugFromName as suggestSlug } from "../../workers/slug-from-name.ts";
