import { afterEach, beforeEach, type MockInstance, vi } from "vitest";

// A worker test fails on a console.error it did not expect (issue 26): a failure the code logs
// and a test does not look at is a bug the suite would otherwise pass over. A test that means to
// make the Worker (or a library in it) log an error says so with `allowLogged(pattern)`.

const state = { errors: [] as string[], allowed: [] as RegExp[], spy: null as MockInstance<typeof console.error> | null };

export function allowLogged(pattern: RegExp): void {
  state.allowed.push(pattern);
}

beforeEach(() => {
  state.errors = [];
  state.allowed = [];
  const original = console.error.bind(console);
  state.spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    state.errors.push(args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(" "));
    original(...args);
  });
});

afterEach(() => {
  const unexpected = state.errors.filter((text) => !state.allowed.some((pattern) => pattern.test(text)));
  state.spy?.mockRestore();
  state.spy = null;
  if (unexpected.length) throw new Error(`Unexpected console.error in this test:\n${unexpected.join("\n").slice(0, 2000)}`);
});
