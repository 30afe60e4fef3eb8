import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TeacherLoginCard } from "../../app/components/school/teacher-login-card.tsx";
import { pageNavigation } from "../../app/lib/page-navigation.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Rendered bare, as the login page's island hydrates it: no router, no query cache.
function renderCard(schoolName: string | null = "Lincoln High School") {
  const go = vi.spyOn(pageNavigation, "go").mockImplementation(() => {});
  render(<TeacherLoginCard slug="lincoln-high" schoolName={schoolName} next="/schools/lincoln-high/books/7" />);
  return { go };
}

describe("TeacherLoginCard", () => {
  it("names the school, or falls back to the generic subtitle", () => {
    renderCard();
    expect(screen.getByText("Access books for Lincoln High School")).toBeTruthy();
  });

  it("uses the generic subtitle without a school name", () => {
    renderCard(null);
    expect(screen.getByText("Enter your details to access school books")).toBeTruthy();
  });

  it("says why the teacher is signed out when the page knows (an admin disabled the account), until they try again", async () => {
    const notice = "Your account has been disabled. Please contact your school administrator.";
    vi.spyOn(pageNavigation, "go").mockImplementation(() => {});
    render(
      <TeacherLoginCard slug="lincoln-high" schoolName="Lincoln High School" next="/schools/lincoln-high/dashboard" notice={notice} />,
    );
    expect(screen.getByRole("alert").textContent).toBe(notice);
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByRole("alert").textContent).toBe("Please enter both email and password");
  });

  it("asks for both fields before calling the server", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderCard();
    await userEvent.type(screen.getByLabelText("Email"), "t@school.org");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByRole("alert").textContent).toBe("Please enter both email and password");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows and hides the password", async () => {
    renderCard();
    const input = screen.getByLabelText("Password") as HTMLInputElement;
    expect(input.type).toBe("password");
    await userEvent.click(screen.getByRole("button", { name: "Show password" }));
    expect(input.type).toBe("text");
    await userEvent.click(screen.getByRole("button", { name: "Hide password" }));
    expect(input.type).toBe("password");
  });

  it("shows 'Logging in...' while busy, then stores the name and goes where the server said", async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const { go } = renderCard();
    await userEvent.type(screen.getByLabelText("Email"), "t@school.org");
    await userEvent.type(screen.getByLabelText("Password"), "correct horse");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    const busy = await screen.findByRole("button", { name: "Logging in..." });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    answer(Response.json({ teacherName: "Ada Lovelace" }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith("/schools/lincoln-high/books/7"));
    expect(localStorage.getItem("teacherName")).toBe("Ada Lovelace");
  });

  it("shows the server's error text, or the spec's fallback", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: "Invalid email or password" }, { status: 401 })),
    );
    renderCard();
    await userEvent.type(screen.getByLabelText("Email"), "t@school.org");
    await userEvent.type(screen.getByLabelText("Password"), "wrong password");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Invalid email or password");

    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("oops", { status: 500 })),
    );
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    await vi.waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Login failed"));
  });

  it("marks the field a refusal names, the server's or its own check's, described by the message beside it", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: "Please enter a valid email address", field: "email" }, { status: 400 })),
    );
    renderCard();
    const email = screen.getByLabelText("Email");
    const password = screen.getByLabelText("Password");
    await userEvent.type(email, "not-an-address");
    await userEvent.type(password, "a password");
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    await vi.waitFor(() => expect(email.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(email.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Please enter a valid email address");
    expect(document.activeElement).toBe(email);
    expect(password.getAttribute("aria-invalid")).toBeNull();

    // Its own check (the password emptied) marks the password instead, and the email no longer.
    await userEvent.clear(password);
    await userEvent.click(screen.getByRole("button", { name: "Login" }));
    expect(password.getAttribute("aria-invalid")).toBe("true");
    expect(email.getAttribute("aria-invalid")).toBeNull();
    expect(document.activeElement).toBe(password);
  });
});
