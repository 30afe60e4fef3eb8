// School fixtures for component tests: a school as pages receive it, and the login page's dialogs.
import { useState } from "react";
import { RegisterDialog } from "../../app/components/school/register-dialog.tsx";

export function OpenRegister() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open register
      </button>
      <RegisterDialog
        open={open}
        onClose={() => setOpen(false)}
        slug="lincoln-high"
        schoolName="Lincoln High School"
        basePath="/schools/lincoln-high"
      />
    </>
  );
}

/** A school as its pages receive it (PublicSchool). */
export const LINCOLN_HIGH = {
  slug: "lincoln-high",
  schoolName: "Lincoln High School",
  address1: "1 Main St",
  address2: null,
  address3: null,
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
};
