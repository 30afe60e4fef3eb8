// The WebP encoder's input is copied into wasm memory at once, not a byte at a time in JavaScript
// (issue 41, item 13: a colour page's stamp at 1024 px over its 50 ms; vite/embind-copy.ts). The
// patch is applied to the installed glue as the Worker's build applies it, and the patched glue
// encodes the same page to the same bytes.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { EMBIND_ENCODERS, patchEmbindCopy } from "../../vite/embind-copy.ts";

const require = createRequire(import.meta.url);
const glue = (name: string) => require.resolve(`@jsquash/webp/codec/enc/${name}`);

/** An encoder built from this glue source (written to a file of its own, so two versions load side by side). */
async function encoderFrom(source: string, wasm: string) {
  const file = join(mkdtempSync(join(tmpdir(), "lectern-embind-")), "glue.mjs");
  writeFileSync(file, source);
  const factory = (await import(pathToFileURL(file).href)).default;
  const module = new WebAssembly.Module(readFileSync(require.resolve(`@jsquash/webp/codec/enc/${wasm}`)));
  return factory({
    noInitialRun: true,
    instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => {
      done(new WebAssembly.Instance(module, imports));
      return {};
    },
  });
}

describe("the WebP encoder's input copy", () => {
  it("is one HEAPU8.set in both builds of the glue the Worker may load", () => {
    for (const name of ["webp_enc_simd.js", "webp_enc.js"]) {
      const path = glue(name);
      expect(EMBIND_ENCODERS.test(path)).toBe(true);
      const patched = patchEmbindCopy(readFileSync(path, "utf8"), path);
      expect(patched).toContain("HEAPU8.set(value,ptr)");
      expect(patched).not.toContain("HEAPU8[ptr+i]=value[i]");
    }
  });

  it("refuses glue without the loop, so an upgrade cannot drop the patch unnoticed", () => {
    expect(() => patchEmbindCopy("export default 1;", "other.js")).toThrow(/not there once/);
  });

  it("encodes a page to the same bytes as the unpatched glue", async () => {
    const source = readFileSync(glue("webp_enc.js"), "utf8");
    const [plain, patched] = await Promise.all([
      encoderFrom(source, "webp_enc.wasm"),
      encoderFrom(patchEmbindCopy(source, "webp_enc.js"), "webp_enc.wasm"),
    ]);
    const [width, height] = [64, 48];
    const pixels = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i * 37) % 256));
    const options = { ...(await import("@jsquash/webp/meta.js")).defaultOptions, quality: 75, method: 0 };
    const a = plain.encode(pixels, width, height, options) as Uint8Array;
    const b = patched.encode(pixels, width, height, options) as Uint8Array;
    expect(b.length).toBeGreaterThan(0);
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
  });
});
