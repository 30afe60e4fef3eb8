import type { School } from "../../workers/db/schema.ts";

/** What anyone may know about a school: its name and postal address. */
export function toPublicSchool(school: School) {
  return {
    slug: school.slug,
    schoolName: school.name,
    address1: school.address1,
    address2: school.address2,
    address3: school.address3,
    city: school.city,
    state: school.state,
    zipCode: school.zipCode,
  };
}

export type PublicSchool = ReturnType<typeof toPublicSchool>;

/** The spec's address line: address1-3, city, state, zip, skipping empty optional parts. */
export function joinAddress(school: Pick<PublicSchool, "address1" | "address2" | "address3" | "city" | "state" | "zipCode">): string {
  return [school.address1, school.address2, school.address3, school.city, school.state, school.zipCode]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(", ");
}
