import type { Plugin } from "vite";

/**
 * libwebp's encoder (@jsquash/webp) takes the pixels as a C++ std::string, and emscripten's glue
 * copies a typed array into wasm memory one byte at a time in JavaScript: about 5 ns a byte in V8,
 * 10 to 25 ms of CPU for a 1024 px colour page's 5.4 MB of RGBA, a quarter of what stamping it
 * costs (issue 41, item 13; docs/decisions/0012). `HEAPU8.set` copies the same bytes at once. The
 * strings the glue is also handed (none, in our calls) keep their own loop.
 */
const BYTE_LOOP = "for(var i=0;i<length;++i){HEAPU8[ptr+i]=value[i]}";
const ONE_COPY = "HEAPU8.set(value,ptr)";

/** The encoder's glue modules (SIMD and plain), as bundlers and Node's loader name them. */
export const EMBIND_ENCODERS = /@jsquash[\\/]webp[\\/]codec[\\/]enc[\\/]webp_enc(_simd)?\.js$/;

/** The glue with its one byte loop replaced; throws when the loop is not there once (another version of the glue). */
export function patchEmbindCopy(code: string, name: string): string {
  const at = code.indexOf(BYTE_LOOP);
  if (at < 0 || code.indexOf(BYTE_LOOP, at + 1) >= 0) {
    throw new Error(`${name}: emscripten's byte-by-byte copy of the encoder's input is not there once; see vite/embind-copy.ts`);
  }
  return code.replace(BYTE_LOOP, ONE_COPY);
}

/** The Vite plugin: the Worker's build (and the worker tests) get the patched glue. */
export function embindCopy(): Plugin {
  return {
    name: "lectern-embind-copy",
    transform(code, id) {
      const path = id.split("?")[0] ?? id;
      if (!EMBIND_ENCODERS.test(path)) return null;
      return { code: patchEmbindCopy(code, path), map: null };
    },
  };
}
