// The school's login-page dialogs as a page holds them: open at first, reopened by a button.
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
