import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TeacherLoginCard } from "../../app/components/school/teacher-login-card.tsx";
import { TeacherPortal } from "../../app/components/school/teacher-portal.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

const TWO_LEFT = "Invalid email or password. 2 tries left before sign-in from this device is paused for 15 minutes.";
const PAUSED = "Too many login attempts. Please try again in 15 minutes.";

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json(body, { status })),
  );
}

async function logIn() {
  await userEvent.type(screen.getByLabelText("Email"), "ada@school.org");
  await userEvent.type(screen.getByLabelText("Password"), "wrong password");
  await userEvent.click(screen.getByRole("button", { name: "Login" }));
}

/** The reset offered under the message (the card's own 'Forgot Password?' link is always there). */
const offered = () => screen.queryByText(/^Reset your password with a code sent to your email/);

describe("the login card after wrong passwords", () => {
  it("shows the tries left with a 'Forgot Password?' button that opens the reset for the typed address", async () => {
    answer(401, { error: TWO_LEFT, triesLeft: 2 });
    const onForgotPassword = vi.fn();
    render(<TeacherLoginCard slug="lincoln-high" schoolName="Lincoln High School" next="/dashboard" onForgotPassword={onForgotPassword} />);
    await logIn();
    expect((await screen.findByRole("alert")).textContent).toBe(TWO_LEFT);
    await userEvent.click(within(offered()!).getByRole("button", { name: "Forgot Password?" }));
    expect(onForgotPassword).toHaveBeenCalledWith("ada@school.org");
  });

  it("offers the reset with the pause (429) too", async () => {
    answer(429, { error: PAUSED });
    render(<TeacherLoginCard slug="lincoln-high" schoolName="Lincoln High School" next="/dashboard" onForgotPassword={vi.fn()} />);
    await logIn();
    expect((await screen.findByRole("alert")).textContent).toBe(PAUSED);
    expect(within(offered()!).getByRole("button", { name: "Forgot Password?" })).toBeTruthy();
  });

  it("a first wrong password says only that", async () => {
    answer(401, { error: "Invalid email or password" });
    render(<TeacherLoginCard slug="lincoln-high" schoolName="Lincoln High School" next="/dashboard" />);
    await logIn();
    expect((await screen.findByRole("alert")).textContent).toBe("Invalid email or password");
    expect(offered()).toBeNull();
  });

  it("on the login page the offered button opens 'Reset Your Password' with the address filled in", async () => {
    answer(401, { error: TWO_LEFT, triesLeft: 2 });
    render(<TeacherPortal slug="lincoln-high" schoolName="Lincoln High School" basePath="/schools/lincoln-high" next="/dashboard" />);
    await logIn();
    await userEvent.click(within(await vi.waitFor(() => offered()!)).getByRole("button", { name: "Forgot Password?" }));
    const dialog = screen.getByRole("dialog", { name: "Reset Your Password" });
    expect((within(dialog).getByLabelText("Email") as HTMLInputElement).value).toBe("ada@school.org");
  });
});
