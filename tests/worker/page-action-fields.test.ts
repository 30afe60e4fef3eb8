// A refused field reaches the form (issue 43): a page action's refusal names the field at fault
// beside its sentence (app/lib/run-command.server.ts `reply`), in the `.data` answer a fetcher
// reads, and the page drawn after a plain form post marks that input: aria-invalid, described by
// the sentence printed beside it.

import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { createSchool, page, schoolFields, signedInAdmin, signedInTeacher } from "./helpers.ts";

let cookie: string;
beforeAll(async () => {
  cookie = (await signedInAdmin()).cookie;
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

/** A `.data` answer as the browser's router decodes it: the action's data. */
async function actionData(response: Response): Promise<unknown> {
  const { value, done } = await decodeTurboStream(response.body!, globalThis);
  await done;
  return value && typeof value === "object" && "data" in value ? value.data : value;
}

/** The start tag of the element with `id` in `html`. */
const tagOf = (html: string, id: string) => new RegExp(`<(input|select|textarea)[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0] ?? "";

describe("Add School's action", () => {
  const fields = () => ({ ...schoolFields("Field School", "office@field.example"), slug: "", teacherLimit: "12", zipCode: "ABCDE" });

  it("answers the field at fault with the sentence, in the fetcher's .data answer", async () => {
    const response = await page("/admin/add-school.data", { method: "POST", cookie, body: form(fields()) });
    expect(response.status).toBe(400);
    expect(await actionData(response)).toMatchObject({ error: "Enter a 5-digit ZIP code", field: "zipCode" });
  });

  it("marks that input on the page a plain form post draws, and no other", async () => {
    const response = await page("/admin/add-school", { method: "POST", cookie, body: form(fields()) });
    expect(response.status).toBe(400);
    const html = await response.text();
    const zip = tagOf(html, "school-zipCode");
    expect(zip).toContain('aria-invalid="true"');
    expect(zip).toContain('aria-describedby="school-zipCode-error"');
    expect(html).toMatch(/<p id="school-zipCode-error"[^>]*>Enter a 5-digit ZIP code<\/p>/);
    // The form's own message stays.
    expect(html).toMatch(/role="alert"[^>]*>Enter a 5-digit ZIP code</);
    for (const other of ["school-schoolName", "school-city", "school-limit", "school-slug"]) {
      expect(tagOf(html, other), other).not.toBe("");
      expect(tagOf(html, other), other).not.toContain('aria-invalid="true"');
    }
  });

  it("names the first required field left empty", async () => {
    const response = await page("/admin/add-school.data", {
      method: "POST",
      cookie,
      body: form({ ...fields(), schoolName: "", city: "" }),
    });
    expect(response.status).toBe(400);
    expect(await actionData(response)).toMatchObject({ error: "Please fill in: School name, City", field: "schoolName" });
  });

  it("marks the slug field when the slug is taken", async () => {
    const taken = await createSchool();
    const response = await page("/admin/add-school", {
      method: "POST",
      cookie,
      body: form({ ...fields(), zipCode: "12345", slug: taken.slug }),
    });
    expect(response.status).toBe(409);
    const slug = tagOf(await response.text(), "school-slug");
    expect(slug).toContain('aria-invalid="true"');
    expect(slug).toContain('aria-describedby="school-slug-error');
  });
});

describe("the school page's settings", () => {
  it("answers the setting's field with a refused number", async () => {
    const school = await createSchool();
    const response = await page(`/admin/school/${school.id}.data`, {
      method: "POST",
      cookie,
      body: form({ intent: "session-limit", sessionLimit: "25" }),
    });
    expect(response.status).toBe(400);
    expect(await actionData(response)).toMatchObject({
      intent: "session-limit",
      error: "Sessions per teacher must be a whole number from 1 to 20",
      field: "sessionLimit",
    });
  });
});

describe("a teacher's account page", () => {
  it("names the confirmation when the new passwords differ, and marks it on the page", async () => {
    const school = await createSchool();
    const teacher = await signedInTeacher(school);
    const url = `https://${school.slug}.lectern.test/account`;
    const fields = {
      intent: "password",
      currentPassword: "whatever it was",
      newPassword: "a new passphrase",
      confirmPassword: "another one",
    };
    const data = await page(`${url}.data`, { method: "POST", cookie: teacher.cookie, body: form(fields) });
    expect(data.status).toBe(400);
    expect(await actionData(data)).toEqual({ intent: "password", error: "Passwords do not match", field: "confirmPassword" });

    const html = await (await page(url, { method: "POST", cookie: teacher.cookie, body: form(fields) })).text();
    const confirm = tagOf(html, "account-confirmPassword");
    expect(confirm).toContain('aria-invalid="true"');
    expect(confirm).toContain('aria-describedby="account-confirmPassword-error"');
    expect(html).toMatch(/<p id="account-confirmPassword-error"[^>]*>Passwords do not match<\/p>/);
    // Found first: an input missing from the page would have no mark either.
    const newPassword = tagOf(html, "account-newPassword");
    expect(newPassword).not.toBe("");
    expect(newPassword).not.toContain('aria-invalid="true"');
  });
});
