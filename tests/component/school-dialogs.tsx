// School fixtures for component tests: a school as pages receive it, and the login page's dialogs.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
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

/**
 * The open register dialog's details, as a teacher types them: Ada's name, `mobile` and e-mail.
 * Then Send OTP, the code `otp`, Verify OTP, the same good passphrase twice and Complete Registration.
 */
export async function registerAsAda(mobile: string, otp: string) {
  await userEvent.type(screen.getByLabelText("Full Name"), "Ada Lovelace");
  await userEvent.type(screen.getByLabelText("Mobile Number"), mobile);
  await userEvent.type(screen.getByLabelText("Email Address"), "ada@school.org");
  await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
  await userEvent.type(await screen.findByPlaceholderText("Enter 6-digit OTP"), otp);
  await userEvent.click(screen.getByRole("button", { name: "Verify OTP" }));
  await userEvent.type(screen.getByLabelText("Password"), "a good passphrase");
  await userEvent.type(screen.getByLabelText("Confirm Password"), "a good passphrase");
  await userEvent.click(screen.getByRole("button", { name: "Complete Registration" }));
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
