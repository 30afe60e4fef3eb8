import { describe, expect, it } from "vitest";
import { teacherWithPassword } from "./fixtures-teachers.ts";
import { client, createSchool, errorOf } from "./helpers.ts";

// From the third wrong password the 401 says how many tries this device has left before its
// 15-minute pause (workers/auth/login-guard.ts), and alike for an address with no account.
const PASSWORD = "correct horse battery";

const login = (slug: string, email: string, password: string, ip: string) =>
  client({ ip }).api.teacher.login.$post({ json: { email, password, slug } });

const EXPECTED = [
  { error: "Invalid email or password" },
  { error: "Invalid email or password" },
  { error: "Invalid email or password. 2 tries left before sign-in from this device is paused for 15 minutes.", triesLeft: 2 },
  { error: "Invalid email or password. 1 try left before sign-in from this device is paused for 15 minutes.", triesLeft: 1 },
  { error: "Invalid email or password. Sign-in from this device is now paused for 15 minutes.", triesLeft: 0 },
];

describe("wrong passwords warn before the pause", () => {
  it("says from the third failure how many tries are left, then refuses even the right password", async () => {
    const school = await createSchool();
    const email = `tries-${crypto.randomUUID().slice(0, 8)}@school.test`;
    await teacherWithPassword(school.id, email, PASSWORD);
    const ip = "203.0.113.71";
    for (const expected of EXPECTED) {
      const response = await login(school.slug, email, "wrong password", ip);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(expected);
    }
    const paused = await login(school.slug, email, PASSWORD, ip);
    expect(paused.status).toBe(429);
    expect(await errorOf(paused)).toMatch(/^Too many login attempts\. Please try again in \d+ minutes?\.$/);
    // Another device of the teacher still signs in.
    expect((await login(school.slug, email, PASSWORD, "198.51.100.71")).status).toBe(200);
  });

  it("counts an IPv6 client by its /64: a fresh address of the same network is the same client", async () => {
    const school = await createSchool();
    const email = `tries-v6-${crypto.randomUUID().slice(0, 8)}@school.test`;
    await teacherWithPassword(school.id, email, PASSWORD);
    // Each wrong password from another address of one /64, as a guesser with a whole network would send them.
    for (let i = 1; i <= EXPECTED.length; i++)
      expect((await login(school.slug, email, "wrong password", `2001:db8:7:1::${i}`)).status).toBe(401);
    expect((await login(school.slug, email, PASSWORD, "2001:db8:7:1::ff")).status).toBe(429);
    // Another network still signs in.
    expect((await login(school.slug, email, PASSWORD, "2001:db8:7:2::1")).status).toBe(200);
  });

  it("answers an address with no account exactly alike", async () => {
    const school = await createSchool();
    const ip = "203.0.113.72";
    for (const expected of EXPECTED) {
      const response = await login(school.slug, "nobody-here@school.test", "wrong password", ip);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(expected);
    }
    expect((await login(school.slug, "nobody-here@school.test", "anything", ip)).status).toBe(429);
  });

  it("counts per address and device: a right password clears the count", async () => {
    const school = await createSchool();
    const email = `tries-${crypto.randomUUID().slice(0, 8)}@school.test`;
    await teacherWithPassword(school.id, email, PASSWORD, "Ada");
    const ip = "203.0.113.73";
    for (let i = 0; i < 2; i++) await login(school.slug, email, "wrong", ip);
    expect((await login(school.slug, email, PASSWORD, ip)).status).toBe(200);
    expect(await (await login(school.slug, email, "wrong", ip)).json()).toEqual({ error: "Invalid email or password" });
  });
});
