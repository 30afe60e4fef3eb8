// Writes workers/renderer/range-callbacks.wasm (committed; run `node scripts/lib/make-range-callbacks.mjs` to remake it): a tiny module that imports three JS callbacks and exports wasm functions
// calling them, so they can be put into PDFium's function table without compiling wasm at run time
// (workerd forbids WebAssembly.Module(bytes); Emscripten's addFunction needs it where WebAssembly.Function is absent).
import { writeFileSync } from "node:fs";

const I32 = 0x7f;
const u = (n) => {
  const o = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    o.push(b);
  } while (n);
  return o;
};
const str = (s) => [...u(s.length), ...Buffer.from(s)];
const vec = (items) => [...u(items.length), ...items.flat()];
const section = (id, body) => [id, ...u(body.length), ...body];
const types = [
  [0x60, ...vec([[I32], [I32], [I32], [I32]]), ...vec([[I32]])], // getBlock(param, pos, buf, size) -> int
  [0x60, ...vec([[I32], [I32], [I32]]), ...vec([[I32]])], // isDataAvail(this, offset, size) -> bool
  [0x60, ...vec([[I32], [I32], [I32]]), 0x00], // addSegment(this, offset, size)
];
const names = ["getBlock", "isDataAvail", "addSegment"];
const imports = names.map((n, i) => [...str("env"), ...str(n), 0x00, ...u(i)]);
const funcs = [0, 1, 2].map((i) => u(i));
const exports = names.map((n, i) => [...str(n), 0x00, ...u(3 + i)]);
const arity = [4, 3, 3];
const bodies = arity.map((a, i) => {
  const code = [0x00];
  for (let k = 0; k < a; k++) code.push(0x20, k);
  code.push(0x10, i, 0x0b);
  return [...u(code.length), ...code];
});
const bytes = [
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0,
  0,
  0,
  ...section(1, vec(types)),
  ...section(2, vec(imports)),
  ...section(3, vec(funcs)),
  ...section(7, vec(exports)),
  ...section(10, vec(bodies)),
];
writeFileSync(new URL("../../workers/renderer/range-callbacks.wasm", import.meta.url), Uint8Array.from(bytes));
new WebAssembly.Module(Uint8Array.from(bytes));
console.log("ok", bytes.length, "bytes");
