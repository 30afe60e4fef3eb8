// The hidden mark's SIMD pass is AssemblyScript (wasm/mark-pass.ts) compiled to a committed
// workers/stamp/mark-pass.wasm (issue 41, item 13; docs/decisions/0037). The committed module is
// the source compiled with package.json's `build:wasm` command (a stale module fails here), and the
// source's constants are mark.ts's. That it writes the JavaScript pass's bytes is checked in workerd
// (tests/worker/mark-simd.test.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import asc from "assemblyscript/asc";
import { describe, expect, it } from "vitest";
import { ACTIVE, DELTA, MARK_COLUMNS, MARK_ROWS, PAPER } from "../../workers/stamp/mark.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SOURCE = readFileSync(`${ROOT}wasm/mark-pass.ts`, "utf8");

describe("workers/stamp/mark-pass.wasm", () => {
  it("is wasm/mark-pass.ts compiled by `npm run build:wasm`", async () => {
    const script = (JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { scripts: Record<string, string> }).scripts["build:wasm"];
    const args = (script ?? "").split(/\s+/).slice(1);
    const out = args.indexOf("-o");
    expect(out).toBeGreaterThan(0);
    const outputs = new Map<string, Uint8Array>();
    const { error, stderr } = await asc.main(
      args.filter((_, i) => i !== out && i !== out + 1).concat("-o", "out.wasm", "--baseDir", ROOT),
      {
        readFile: (name: string, base: string) => {
          try {
            return readFileSync(`${base}/${name}`, "utf8");
          } catch {
            return null;
          }
        },
        writeFile: (name: string, contents: Uint8Array | string) => {
          outputs.set(name, typeof contents === "string" ? new TextEncoder().encode(contents) : contents);
        },
        listFiles: () => [],
      },
    );
    expect(error, stderr.toString()).toBeNull();
    const built = outputs.get("out.wasm");
    expect(built).toBeDefined();
    expect(Buffer.compare(Buffer.from(built as Uint8Array), readFileSync(`${ROOT}${args[out + 1]}`)), "run `npm run build:wasm`").toBe(0);
  }, 60_000);

  it("uses mark.ts's constants", () => {
    const constant = (name: string) =>
      Number(SOURCE.match(new RegExp(`const ${name}: i32 = ([^;]+);`))?.[1]?.replace("MARK_COLUMNS * 4 + 1", String(MARK_COLUMNS * 4 + 1)));
    expect({
      MARK_COLUMNS: constant("MARK_COLUMNS"),
      MARK_ROWS: constant("MARK_ROWS"),
      ACTIVE: constant("ACTIVE"),
      PAPER: constant("PAPER"),
      DELTA: constant("DELTA"),
    }).toEqual({
      MARK_COLUMNS,
      MARK_ROWS,
      ACTIVE,
      PAPER,
      DELTA,
    });
  });

  it("divides by ACTIVE exactly with its multiply and shift, for every numerator the pass meets", () => {
    const multiplier = Number(SOURCE.match(/const DIVIDE_96: i32 = (\d+);/)?.[1]);
    expect(ACTIVE).toBe(96);
    for (let v = 0; v <= DELTA * ACTIVE + 48; v++) expect((v * multiplier) >> 20, String(v)).toBe(Math.floor(v / ACTIVE));
  });
});
