import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { ResetPasswordDialog } from "../../app/components/admin/superadmin/account-dialogs.tsx";

/** The dialog, open on the page until it closes itself. */
function Page({ onDone }: { onDone: (message: { text: string; tone: "success" }) => void }) {
  const [open, setOpen] = useState(true);
  return (
    <ResetPasswordDialog account={open ? { id: 7, email: "ana@lectern.test" } : null} onClose={() => setOpen(false)} onDone={onDone} />
  );
}

/** The dialog on a page whose action answers as the dashboard's does; `posted` hears each post. */
function renderReset(answer: (form: FormData) => unknown, posted: (form: FormData) => void) {
  const done = vi.fn();
  const Stub = createRoutesStub([
    {
      path: "/",
      // biome-ignore lint/correctness/noComponentHookFactories: each test's page hears its own callback
      Component: () => <Page onDone={done} />,
      action: async ({ request }) => {
        const form = await request.formData();
        posted(form);
        return answer(form);
      },
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  return done;
}

describe("the superadmin's reset-password dialog", () => {
  it("asks twice, can show the password, and refuses a mismatch before posting", async () => {
    const posted = vi.fn();
    renderReset(() => ({ intent: "update", passwordReset: true }), posted);
    expect(screen.getByText("At least 8 and at most 128 characters, and not a commonly used password.")).toBeTruthy();
    const password = screen.getByLabelText("New password") as HTMLInputElement;
    await userEvent.type(password, "one passphrase");
    await userEvent.type(screen.getByLabelText("Confirm new password"), "another passphrase");
    expect(password.type).toBe("password");
    await userEvent.click(screen.getAllByRole("button", { name: "Show password" })[0]!);
    expect(password.type).toBe("text");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The two passwords do not match");
    expect(posted).not.toHaveBeenCalled();
  });

  it("shows the server's rule in the dialog, and on success closes and says so", async () => {
    const posted = vi.fn();
    const answers = [
      { intent: "update", error: "This password is too common. Please choose one that is harder to guess." },
      { intent: "update", passwordReset: true },
    ];
    const done = renderReset(() => answers.shift(), posted);
    await userEvent.type(screen.getByLabelText("New password"), "password123");
    await userEvent.type(screen.getByLabelText("Confirm new password"), "password123");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect((await screen.findByRole("alert")).textContent).toContain("This password is too common");
    expect(Object.fromEntries(posted.mock.calls[0]![0] as FormData)).toEqual({
      intent: "update",
      id: "7",
      password: "password123",
      confirm: "password123",
    });
    expect(done).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText("New password"));
    await userEvent.type(screen.getByLabelText("New password"), "a much longer passphrase");
    await userEvent.clear(screen.getByLabelText("Confirm new password"));
    await userEvent.type(screen.getByLabelText("Confirm new password"), "a much longer passphrase");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    await vi.waitFor(() =>
      expect(done).toHaveBeenCalledWith({ text: "New password set for ana@lectern.test. Their sessions were ended.", tone: "success" }),
    );
    // The dialog closes on the render after it reported success.
    await vi.waitFor(() => expect(screen.queryByLabelText("New password")).toBeNull());
  });
});
