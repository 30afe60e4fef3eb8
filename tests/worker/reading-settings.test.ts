import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEFAULT_READING_SETTINGS, type ReadingSettings } from "#shared/rules/reading-settings.ts";
import { api, client, createSchool, errorBody, okBody, signedInAdmin, signedInTeacher } from "./helpers.ts";

// GET and PUT /api/teacher/reading-settings: the Text view's settings, kept per teacher
// (docs/decisions/0031-reading-aloud-and-settings.md).

const PATH = "/api/teacher/reading-settings";

const CHOSEN: ReadingSettings = {
  textSize: "x-large",
  lineSpacing: "wider",
  font: "dyslexic",
  theme: "sepia",
  rate: 1.25,
  voice: "com.apple.voice.compact.en-GB.Daniel",
  dataSaver: "on",
};

async function storedSettings(teacherId: number): Promise<unknown> {
  const raw = await env.DB.prepare("SELECT reading_settings FROM teachers WHERE id = ?")
    .bind(teacherId)
    .first<string | null>("reading_settings");
  return raw === null ? null : JSON.parse(raw);
}

const read = (cookie: string) => okBody(client({ cookie }).api.teacher["reading-settings"].$get());
const save = (cookie: string, settings: ReadingSettings) => client({ cookie }).api.teacher["reading-settings"].$put({ json: settings });

describe("GET /api/teacher/reading-settings", () => {
  it("answers the defaults to a teacher who never chose any, not to be cached", async () => {
    const { cookie } = await signedInTeacher(await createSchool());
    const response = await client({ cookie }).api.teacher["reading-settings"].$get();
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.json()).toEqual({ settings: DEFAULT_READING_SETTINGS });
  });

  it("reads a stored value that no longer fits a field at a time, each misfit at its default", async () => {
    const { teacher, cookie } = await signedInTeacher(await createSchool());
    await env.DB.prepare("UPDATE teachers SET reading_settings = ? WHERE id = ?")
      .bind(JSON.stringify({ textSize: "huge", lineSpacing: "wider", font: 3, theme: "sepia", rate: 9, retired: true }), teacher.id)
      .run();
    expect((await read(cookie)).settings).toEqual({ ...DEFAULT_READING_SETTINGS, lineSpacing: "wider", theme: "sepia" });
    await env.DB.prepare("UPDATE teachers SET reading_settings = ? WHERE id = ?").bind('"not an object"', teacher.id).run();
    expect((await read(cookie)).settings).toEqual(DEFAULT_READING_SETTINGS);
  });
});

describe("PUT /api/teacher/reading-settings", () => {
  it("keeps the settings on the teacher's row, for every device they sign in on", async () => {
    const { teacher, cookie } = await signedInTeacher(await createSchool());
    const saved = await okBody(save(cookie, { ...CHOSEN, voice: `  ${CHOSEN.voice}  ` }));
    expect(saved).toEqual({ settings: CHOSEN, message: "Your reading settings have been saved." });
    expect(await storedSettings(teacher.id)).toEqual(CHOSEN);
    expect((await read(cookie)).settings).toEqual(CHOSEN);

    const back = await okBody(save(cookie, { ...DEFAULT_READING_SETTINGS }));
    expect(back.settings).toEqual(DEFAULT_READING_SETTINGS);
    expect((await read(cookie)).settings).toEqual(DEFAULT_READING_SETTINGS);
  });

  it("refuses anything but the whole set of known values, with a sentence, and changes nothing", async () => {
    const { teacher, cookie } = await signedInTeacher(await createSchool());
    await okBody(save(cookie, CHOSEN));
    const { voice: _voice, ...withoutVoice } = CHOSEN;
    const cases: [unknown, string, string | undefined][] = [
      [{ ...CHOSEN, textSize: "huge" }, "textSize must be one of small, medium, large, x-large, xx-large", "textSize"],
      [{ ...CHOSEN, lineSpacing: 3 }, "lineSpacing must be one of normal, wide, wider", "lineSpacing"],
      [{ ...CHOSEN, font: "Comic Sans" }, "font must be one of standard, dyslexic", "font"],
      [{ ...CHOSEN, theme: "solarized" }, "theme must be one of auto, light, dark, sepia", "theme"],
      [{ ...CHOSEN, rate: 3 }, "rate must be one of 0.75, 1, 1.25, 1.5, 1.75, 2", "rate"],
      [{ ...CHOSEN, rate: "1" }, "rate must be one of 0.75, 1, 1.25, 1.5, 1.75, 2", "rate"],
      [{ ...CHOSEN, voice: "   " }, "voice must be a voice's name, or null for the browser's default", "voice"],
      [{ ...CHOSEN, voice: "v".repeat(201) }, "voice must be at most 200 characters", "voice"],
      [{ ...CHOSEN, voice: "Daniel\u0000" }, "control characters", "voice"],
      [withoutVoice, "voice must be a voice's name, or null for the browser's default", "voice"],
      [{ ...CHOSEN, textSize: undefined }, "Send textSize (one of small, medium, large, x-large, xx-large)", "textSize"],
      [{ ...CHOSEN, fontSize: 40 }, "Unknown reading setting: fontSize", undefined],
      [{ ...CHOSEN, dataSaver: "sometimes" }, "dataSaver must be one of off, auto, on", "dataSaver"],
      [[CHOSEN], "expected object", undefined],
      ["large", "expected object", undefined],
    ];
    for (const [body, message, field] of cases) {
      // Raw: bodies of the wrong shape, which the typed client would not send.
      const response = await api(PATH, { method: "PUT", cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const answer = await errorBody(response);
      expect(answer.error, JSON.stringify(body)).toContain(message);
      expect(answer.field, JSON.stringify(body)).toBe(field);
    }
    // Raw: a JSON Content-Type with no body at all.
    const notJson = await api(PATH, { method: "PUT", cookie, headers: { "Content-Type": "application/json" }, body: undefined });
    expect(notJson.status).toBe(400);
    expect(await storedSettings(teacher.id)).toEqual(CHOSEN);
  });

  it("takes a set without the data saver (a reader from before it) as the data saver on automatic", async () => {
    const { teacher, cookie } = await signedInTeacher(await createSchool());
    const { dataSaver: _dataSaver, ...beforeDataSaver } = CHOSEN;
    // Raw: the body a reader from before the data saver sends, which the typed client would not.
    const response = await api(PATH, { method: "PUT", cookie, body: beforeDataSaver });
    expect(response.status).toBe(200);
    expect(await storedSettings(teacher.id)).toEqual({ ...CHOSEN, dataSaver: "auto" });
  });

  it("changes only the signed-in teacher's settings, whatever the body says", async () => {
    const school = await createSchool();
    const ada = await signedInTeacher(school, "Ada");
    const grace = await signedInTeacher(school, "Grace");
    const elsewhere = await signedInTeacher(await createSchool(), "Hedy");
    await okBody(save(grace.cookie, { ...DEFAULT_READING_SETTINGS, theme: "dark" }));

    await okBody(save(ada.cookie, CHOSEN));
    // Raw: an extra key, which the typed client would not send.
    const smuggled = await api(PATH, { method: "PUT", cookie: ada.cookie, body: { ...CHOSEN, teacherId: grace.teacher.id } });
    expect(smuggled.status).toBe(400);

    expect(await storedSettings(grace.teacher.id)).toEqual({ ...DEFAULT_READING_SETTINGS, theme: "dark" });
    expect(await storedSettings(elsewhere.teacher.id)).toBeNull();
    expect((await read(grace.cookie)).settings.theme).toBe("dark");
    expect((await read(elsewhere.cookie)).settings).toEqual(DEFAULT_READING_SETTINGS);
  });
});

describe("who may read and write reading settings", () => {
  it("only a signed-in teacher: no session and an admin's are 401, and nothing is written", async () => {
    const { teacher } = await signedInTeacher(await createSchool());
    const { cookie: adminCookie } = await signedInAdmin();
    for (const cookie of [null, adminCookie, "__Host-lectern_teacher=forged"]) {
      const settings = client({ cookie }).api.teacher["reading-settings"];
      expect((await settings.$get()).status, `GET with ${cookie}`).toBe(401);
      expect((await settings.$put({ json: CHOSEN })).status, `PUT with ${cookie}`).toBe(401);
    }
    expect(await storedSettings(teacher.id)).toBeNull();
  });

  it("refuses a write from another site (403) and keeps what was stored", async () => {
    const { teacher, cookie } = await signedInTeacher(await createSchool());
    for (const origin of ["https://evil.example", null]) {
      const response = await client({ cookie, origin }).api.teacher["reading-settings"].$put({ json: CHOSEN });
      expect(response.status, `from ${origin}`).toBe(403);
    }
    expect(await storedSettings(teacher.id)).toBeNull();
  });
});
