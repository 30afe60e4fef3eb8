import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ResetPasswordDialog } from "../../app/components/school/reset-password-dialog.tsx";
import { pageNavigation } from "../../app/lib/page-navigation.ts";
import { OpenRegister, registerAsAda } from "./school-dialogs.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Reply = { status?: number; body: unknown };
function stubApi(replies: Record<string, Reply | Reply[]>) {
  const calls: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit) => {
      calls.push({ path, body: JSON.parse(String(init.body ?? "null")) });
      const entry = replies[path];
      const reply = Array.isArray(entry) ? entry.shift() : entry;
      if (!reply) throw new Error(`unexpected call to ${path}`);
      return Response.json(reply.body, { status: reply.status ?? 200 });
    }),
  );
  return calls;
}

// The dialogs hydrate on the login page without a router or a query cache (the teacher-portal
// island), so they are rendered bare here: a hook that needed either would throw.
function renderRegister() {
  const go = vi.spyOn(pageNavigation, "go").mockImplementation(() => {});
  return { ...render(<OpenRegister />), go };
}

async function fillDetails() {
  await userEvent.type(screen.getByLabelText("Full Name"), "Ada Lovelace");
  await userEvent.type(screen.getByLabelText("Mobile Number"), "55512x34567");
  await userEvent.type(screen.getByLabelText("Email Address"), "ada@school.org");
}

/** The reset dialog up to Reset Password: Ada's e-mail, Send OTP, the code, and the new password and `confirm`. */
async function fillReset(confirm = "a good passphrase") {
  await userEvent.type(screen.getByLabelText("Email"), "ada@school.org");
  await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
  await userEvent.type(await screen.findByLabelText("OTP Code"), "123456");
  await userEvent.type(screen.getByLabelText("New Password"), "a good passphrase");
  await userEvent.type(screen.getByLabelText("Confirm New Password"), confirm);
}

describe("RegisterDialog", () => {
  it("asks for name, e-mail and mobile before sending a code", async () => {
    const calls = stubApi({});
    renderRegister();
    expect(screen.getByText("Create your account to access Lincoln High School books")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    expect(screen.getByRole("alert").textContent).toBe("Please fill in all required fields (name, email, mobile)");
    expect(calls).toHaveLength(0);
  });

  it("walks the three steps, with Back going one step back, and registers", async () => {
    const calls = stubApi({
      "/api/teacher/send-otp": { body: { error: "Development Mode: email delivery is not configured, so here is your OTP: 123456" } },
      "/api/teacher/register": { status: 201, body: { teacherName: "Ada Lovelace" } },
    });
    const { go } = renderRegister();
    await fillDetails();
    expect((screen.getByLabelText("Mobile Number") as HTMLInputElement).value).toBe("5551234567");
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    const info = await screen.findByText(/^Development Mode/);
    expect(info.getAttribute("data-tone")).toBe("info");

    await userEvent.click(screen.getByRole("button", { name: "Verify OTP" }));
    expect(screen.getByRole("alert").textContent).toBe("Please enter the OTP sent to your email");
    await userEvent.type(screen.getByPlaceholderText("Enter 6-digit OTP"), "12a34567");
    expect((screen.getByPlaceholderText("Enter 6-digit OTP") as HTMLInputElement).value).toBe("123456");
    await userEvent.click(screen.getByRole("button", { name: "Verify OTP" }));

    await userEvent.click(screen.getByRole("button", { name: "Back" }));
    expect((screen.getByPlaceholderText("Enter 6-digit OTP") as HTMLInputElement).value).toBe("123456");
    await userEvent.click(screen.getByRole("button", { name: "Verify OTP" }));

    await userEvent.type(screen.getByLabelText("Password"), "a good passphrase");
    await userEvent.type(screen.getByLabelText("Confirm Password"), "a good passphrase");
    await userEvent.click(screen.getByRole("button", { name: "Complete Registration" }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith("/schools/lincoln-high/dashboard"));
    expect(calls.at(-1)).toEqual({
      path: "/api/teacher/register",
      body: {
        name: "Ada Lovelace",
        mobile: "5551234567",
        email: "ada@school.org",
        password: "a good passphrase",
        otp: "123456",
        slug: "lincoln-high",
      },
    });
    expect(localStorage.getItem("teacherName")).toBe("Ada Lovelace");
  });

  it("returns to the code step when the server refuses the code", async () => {
    stubApi({
      "/api/teacher/send-otp": { body: { message: "OTP sent to your email. Please check your inbox." } },
      "/api/teacher/register": { status: 400, body: { error: "Invalid OTP. Please check the code in your email and try again." } },
    });
    renderRegister();
    await registerAsAda("55512x34567", "999999");
    expect((await screen.findByRole("alert")).textContent).toMatch(/^Invalid OTP/);
    expect(screen.getByPlaceholderText("Enter 6-digit OTP")).toBeTruthy();
  });

  it("goes to the limit page when the school is full", async () => {
    stubApi({ "/api/teacher/send-otp": { status: 403, body: { error: "limit_reached" } } });
    const { go } = renderRegister();
    await fillDetails();
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith("/schools/lincoln-high/limit-reached"));
  });

  it("clears every field and step when closed", async () => {
    stubApi({ "/api/teacher/send-otp": { body: { message: "OTP sent" } } });
    renderRegister();
    await fillDetails();
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    await screen.findByPlaceholderText("Enter 6-digit OTP");
    await userEvent.click(screen.getByRole("button", { name: "Close" }));
    await userEvent.click(screen.getByRole("button", { name: "Open register" }));
    expect((screen.getByLabelText("Full Name") as HTMLInputElement).value).toBe("");
    expect((screen.getByLabelText("Email Address") as HTMLInputElement).value).toBe("");
    expect(screen.queryByRole("status")).toBeNull();
  });
});

function OpenReset() {
  const [open, setOpen] = useState(true);
  return <ResetPasswordDialog open={open} onClose={() => setOpen(false)} slug="lincoln-high" />;
}

describe("ResetPasswordDialog", () => {
  it("sends a code, resets, shows the success text, and closes after 3 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubApi({
      "/api/teacher/send-otp": { body: { message: "OTP sent to your email. Please check your inbox." } },
      "/api/teacher/reset-password": { body: { message: "ok" } },
    });
    render(<OpenReset />);
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    expect(screen.getByRole("alert").textContent).toBe("Please enter your email address");
    await fillReset("another passphrase");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(screen.getByRole("alert").textContent).toBe("Passwords do not match");
    await userEvent.clear(screen.getByLabelText("Confirm New Password"));
    await userEvent.type(screen.getByLabelText("Confirm New Password"), "a good passphrase");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText("Password reset successful! You can now log in with your new password.")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Reset Password" }) as HTMLButtonElement).disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(screen.queryByLabelText("OTP Code")).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByLabelText("OTP Code")).toBeNull();
  });

  it("shows the server's error, or 'Failed to reset password'", async () => {
    stubApi({
      "/api/teacher/send-otp": { body: { message: "OTP sent" } },
      "/api/teacher/reset-password": [
        { status: 400, body: { error: "This OTP has expired. Please request a new code." } },
        { status: 500, body: null },
      ],
    });
    render(<OpenReset />);
    await fillReset();
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This OTP has expired. Please request a new code.");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    await vi.waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Failed to reset password"));
  });
});
