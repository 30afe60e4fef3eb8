import { describe, expect, it } from "vitest";
import { page } from "./helpers.ts";

describe("the landing page", () => {
  it("'Learn More' is a button that does nothing, as the spec has it: no link, no form", async () => {
    const html = await (await page("/")).text();
    const hero = html.slice(html.indexOf("<main"), html.indexOf('id="demo-schools"'));
    const learnMore = /<(\w+)([^>]*)>Learn More<\/\1>/.exec(hero);
    expect(learnMore?.[1]).toBe("button");
    expect(learnMore?.[2]).toContain('type="button"');
    expect(hero).not.toContain("<form");
    // Key Features stays one click away: the header's own 'Features' link.
    expect(html).toMatch(/<a[^>]*href="#features"[^>]*>Features<\/a>/);
  });
});
