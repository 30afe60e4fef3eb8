import { describe, expect, it } from "vitest";
import { initials, schoolInitials } from "../../app/lib/teacher-name.ts";

describe("initials", () => {
  it.each([
    ["Ada Lovelace", "AL"],
    ["Marie Salomea Curie", "MC"],
    ["Plato", "P"],
    ["  ", "?"],
    ["émile zola", "ÉZ"],
  ])("%s -> %s (never more than 2)", (name, expected) => {
    expect(initials(name)).toBe(expected);
  });

  it.each([
    ["Lincoln High School", "LH"],
    ["The School of Rock", "R"],
    ["Washington Elementary", "WE"],
  ])("school %s -> %s", (name, expected) => {
    expect(schoolInitials(name)).toBe(expected);
  });
});
