import { describe, expect, it } from "vitest";
import { formatDateTime } from "../../app/lib/format-date.ts";

describe("formatDateTime", () => {
  it("shows a short month with 2-digit hour and minute", () => {
    expect(formatDateTime(Date.UTC(2026, 10, 21, 9, 5))).toMatch(/^Nov 21, 2026, \d{2}:05 (AM|PM)$/);
  });
  it("says N/A when empty and Invalid date when it cannot", () => {
    expect(formatDateTime(null)).toBe("N/A");
    expect(formatDateTime("")).toBe("N/A");
    expect(formatDateTime("not a date")).toBe("Invalid date");
  });
});
