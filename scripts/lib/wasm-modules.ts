import { registerHooks } from "node:module";

/**
 * workerd imports a `.wasm` file as a compiled WebAssembly.Module; this teaches Node the same, so
 * Node scripts run the Worker's own image code (the seed's cover renditions). It must run before
 * the module that imports the `.wasm` is loaded: import that one dynamically afterwards.
 */
let registered = false;

export function registerWasmModules(): void {
  if (registered) return;
  registered = true;
  registerHooks({
    load(url, context, nextLoad) {
      if (!url.endsWith(".wasm")) return nextLoad(url, context);
      const source = `export default new WebAssembly.Module(await (await import("node:fs/promises")).readFile(new URL(${JSON.stringify(url)})));`;
      return { format: "module", source, shortCircuit: true };
    },
  });
}
