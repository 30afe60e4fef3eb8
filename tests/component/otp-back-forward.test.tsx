import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ResetPasswordDialog } from "../../app/components/school/reset-password-dialog.tsx";
import { OpenRegister } from "./school-dialogs.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

const WAIT = "Please wait 59 seconds before requesting another OTP.";
const DEV = "Development Mode: email delivery is not configured, so here is your OTP: 123456";

/** The server's send-otp: the first code to an inbox is sent, another within a minute refused. */
function stubSendOtp() {
  const sentTo: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit) => {
      if (path !== "/api/teacher/send-otp") throw new Error(`unexpected call to ${path}`);
      const { email } = JSON.parse(String(init.body)) as { email: string };
      if (sentTo.includes(email)) return Response.json({ error: WAIT }, { status: 429 });
      sentTo.push(email);
      return Response.json({ error: DEV });
    }),
  );
  return sentTo;
}

function OpenReset() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open reset
      </button>
      <ResetPasswordDialog open={open} onClose={() => setOpen(false)} slug="lincoln-high" />
    </>
  );
}

const otpInput = () => screen.queryByPlaceholderText("Enter 6-digit OTP");

/** Opens registration, fills it in as Ada, sends the code and waits for the code step; the addresses codes went to. */
async function registerUpToTheCode() {
  const sentTo = stubSendOtp();
  render(<OpenRegister />);
  await userEvent.type(screen.getByLabelText("Full Name"), "Ada Lovelace");
  await userEvent.type(screen.getByLabelText("Mobile Number"), "5551234567");
  await userEvent.type(screen.getByLabelText("Email Address"), "ada@school.org");
  await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
  await screen.findByPlaceholderText("Enter 6-digit OTP");
  return sentTo;
}

describe("Back from the code step and forward again", () => {
  it("registration: Send OTP, Back, Send OTP reaches the code step with the code already sent", async () => {
    const sentTo = await registerUpToTheCode();
    await userEvent.type(otpInput()!, "12");

    await userEvent.click(screen.getByRole("button", { name: "Back" }));
    expect(otpInput()).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));

    expect(await screen.findByPlaceholderText("Enter 6-digit OTP")).toBeTruthy();
    expect(screen.queryByText(WAIT)).toBeNull();
    // The code already sent is shown again (here in Development Mode), and what was typed stays.
    expect(screen.getByText(DEV)).toBeTruthy();
    expect((otpInput() as HTMLInputElement).value).toBe("12");
    // "Resend OTP" counts on from the first send instead of starting another minute.
    expect(screen.getByRole("button", { name: /^Resend OTP in \d+s$/ })).toBeTruthy();
    expect(sentTo).toEqual(["ada@school.org"]);
  });

  it("registration: another e-mail address gets a new code", async () => {
    const sentTo = await registerUpToTheCode();
    await userEvent.click(screen.getByRole("button", { name: "Back" }));
    await userEvent.clear(screen.getByLabelText("Email Address"));
    await userEvent.type(screen.getByLabelText("Email Address"), "ada.lovelace@school.org");
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    await screen.findByPlaceholderText("Enter 6-digit OTP");
    expect(sentTo).toEqual(["ada@school.org", "ada.lovelace@school.org"]);
    expect(screen.getByRole("button", { name: "Resend OTP in 60s" })).toBeTruthy();
  });

  it("reset: Cancel, reopen, Send OTP to the same address reaches the code stage", async () => {
    const sentTo = stubSendOtp();
    render(<OpenReset />);
    await userEvent.type(screen.getByLabelText("Email"), "ada@school.org");
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    await screen.findByLabelText("OTP Code");
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await userEvent.click(screen.getByRole("button", { name: "Open reset" }));
    expect(screen.queryByLabelText("OTP Code")).toBeNull();
    await userEvent.type(screen.getByLabelText("Email"), "ADA@school.org ");
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    expect(await screen.findByLabelText("OTP Code")).toBeTruthy();
    expect(screen.queryByText(WAIT)).toBeNull();
    expect(sentTo).toEqual(["ada@school.org"]);
  });
});
