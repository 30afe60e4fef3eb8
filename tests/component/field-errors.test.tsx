// A refused field reaches its input (issue 43): a page action's answer `{ error, field }` marks the
// input the field names as invalid, describes it by the sentence shown beside it, and moves focus
// there; the form's own message stays.

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ComponentType } from "react";
import { createRoutesStub, data, useActionData } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ResetPasswordDialog } from "../../app/components/admin/superadmin/account-dialogs.tsx";
import { ChangePassword } from "../../app/components/school/account/change-password.tsx";
import { pageNavigation } from "../../app/lib/page-navigation.ts";
import AdminAddSchool from "../../app/routes/admin-add-school.tsx";
import { OpenRegister, registerAsAda } from "./school-dialogs.tsx";

// Here, not at each test's end: a test that fails half-way must not leave `fetch` stubbed, or
// page navigation mocked, for the tests after it.
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** `ui` on a page whose action answers `answer` (with `status`), inside a query client (the slug check asks one). */
function renderWithAction(Ui: ComponentType, answer: unknown, status = 400) {
  const posted = vi.fn();
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: Ui,
      action: async ({ request }) => {
        posted(Object.fromEntries(await request.formData()));
        return data(answer, { status });
      },
    },
  ]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Stub initialEntries={["/"]} />
    </QueryClientProvider>,
  );
  return posted;
}

/** The input is marked invalid and described by a message with exactly `text`. */
function expectMarked(input: HTMLElement, text: string) {
  expect(input.getAttribute("aria-invalid")).toBe("true");
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  const messages = ids.map((id) => document.getElementById(id)?.textContent);
  expect(messages).toContain(text);
}

function expectUnmarked(input: HTMLElement) {
  expect(input.getAttribute("aria-invalid")).toBeNull();
}

/** Add School as its route renders it, with the action's answer as the route gives it. */
function AddSchoolPage() {
  const actionData = useActionData() as Parameters<typeof AdminAddSchool>[0]["actionData"];
  const props = { loaderData: { nextId: 7 }, actionData, params: {}, matches: [] };
  return <AdminAddSchool {...(props as unknown as Parameters<typeof AdminAddSchool>[0])} />;
}

describe("Add School", () => {
  it("marks the slug the action refused, beside its input, keeps the form's message and focuses it", async () => {
    // No name typed: no slug is suggested, so the slug field asks the server nothing.
    vi.stubGlobal("fetch", vi.fn());
    const taken = "A school with this slug already exists";
    const posted = renderWithAction(AddSchoolPage, { error: taken, field: "slug", entered: {} }, 409);
    const slug = screen.getByLabelText("Portal address (slug)");
    expectUnmarked(slug);
    await userEvent.click(screen.getByRole("button", { name: "Add School" }));

    await vi.waitFor(() => expectMarked(slug, taken));
    expect(posted).toHaveBeenCalledOnce();
    // The form's own message stays, and the other fields are not marked.
    expect(screen.getByRole("alert").textContent).toBe(taken);
    expectUnmarked(screen.getByLabelText("School name"));
    expectUnmarked(screen.getByLabelText("Teacher limit"));
    // The slug's own hint still describes it, after the refusal.
    expect(slug.getAttribute("aria-describedby")).toBe("school-slug-error school-slug-check");
    await vi.waitFor(() => expect(document.activeElement).toBe(slug));
  });

  it("marks a refused field that has a hint, the hint staying", async () => {
    const message = "The teacher limit must be a whole number from 1 to 10000";
    renderWithAction(AddSchoolPage, { error: message, field: "teacherLimit", entered: {} });
    await userEvent.click(screen.getByRole("button", { name: "Add School" }));
    const limit = screen.getByLabelText("Teacher limit");
    await vi.waitFor(() => expectMarked(limit, message));
    // Described by the refusal, then by its hint.
    const describedBy = (limit.getAttribute("aria-describedby") ?? "").split(" ");
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toEqual([message, "How many teachers may register."]);
    await vi.waitFor(() => expect(document.activeElement).toBe(limit));
  });
});

function ResetPage() {
  return <ResetPasswordDialog account={{ id: 7, email: "ana@lectern.test" }} onClose={() => {}} onDone={() => {}} />;
}

function ChangePasswordPage() {
  return <ChangePassword email="ada@school.org" />;
}

describe("the superadmin's reset-password dialog", () => {
  it("marks the password the server refused, and the confirmation its own check refused", async () => {
    const common = "This password is too common. Please choose one that is harder to guess.";
    renderWithAction(ResetPage, { intent: "update", error: common, field: "password" });
    const password = screen.getByLabelText("New password");
    const confirm = screen.getByLabelText("Confirm new password");
    await userEvent.type(password, "password123");
    await userEvent.type(confirm, "password123");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    await vi.waitFor(() => expectMarked(password, common));
    expectUnmarked(confirm);
    await vi.waitFor(() => expect(document.activeElement).toBe(password));

    // The dialog's own check names the confirmation: the server's mark goes, the confirmation's comes.
    await userEvent.type(confirm, "4");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expectMarked(confirm, "The two passwords do not match");
    expectUnmarked(password);
    await vi.waitFor(() => expect(document.activeElement).toBe(confirm));
  });
});

describe("a teacher's Change password form", () => {
  it("marks the current password the action refused, and only that field", async () => {
    const wrong = "Your current password is not correct";
    renderWithAction(ChangePasswordPage, { intent: "password", error: wrong, field: "currentPassword" });
    const current = screen.getByLabelText("Current Password");
    await userEvent.type(current, "not my password");
    await userEvent.type(screen.getByLabelText("New Password"), "a new passphrase");
    await userEvent.type(screen.getByLabelText("Confirm New Password"), "a new passphrase");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    await vi.waitFor(() => expectMarked(current, wrong));
    expect(screen.getByRole("alert").textContent).toBe(wrong);
    expectUnmarked(screen.getByLabelText("New Password"));
    await vi.waitFor(() => expect(document.activeElement).toBe(current));
    // Typing again clears the answer, its mark with it.
    await userEvent.type(current, "x");
    expectUnmarked(current);
  });
});

describe("the teacher's register dialog (the API's answer)", () => {
  it("takes the teacher back to the step of the field the API refused, marked", async () => {
    const short = "Mobile number must be exactly 10 digits";
    const replies: Record<string, { status: number; body: unknown }> = {
      "/api/teacher/send-otp": {
        status: 200,
        body: { error: "Development Mode: email delivery is not configured, so here is your OTP: 123456" },
      },
      "/api/teacher/register": { status: 400, body: { error: short, field: "mobile" } },
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async (path: string) => Response.json(replies[path]!.body, { status: replies[path]!.status })),
    );
    const go = vi.spyOn(pageNavigation, "go").mockImplementation(() => {});
    render(<OpenRegister />);
    await registerAsAda("555123", "123456");

    const mobile = await screen.findByLabelText("Mobile Number");
    expectMarked(mobile, short);
    expect(screen.getByRole("alert").textContent).toBe(short);
    expectUnmarked(screen.getByLabelText("Full Name"));
    await vi.waitFor(() => expect(document.activeElement).toBe(mobile));
    expect(go).not.toHaveBeenCalled();
  });

  it("marks the field its own checks refuse, with the spec's words above", async () => {
    vi.stubGlobal("fetch", vi.fn());
    render(<OpenRegister />);
    await userEvent.type(screen.getByLabelText("Full Name"), "Ada Lovelace");
    await userEvent.click(screen.getByRole("button", { name: "Send OTP" }));
    expect(screen.getByRole("alert").textContent).toBe("Please fill in all required fields (name, email, mobile)");
    expectMarked(screen.getByLabelText("Mobile Number"), "Please fill in all required fields (name, email, mobile)");
    expectUnmarked(screen.getByLabelText("Email Address"));
  });
});
