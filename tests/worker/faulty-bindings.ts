// Fault-injecting bindings (docs/decisions/0047): small wrappers around the real D1, R2 and school
// object namespace the vitest pool gives, switched per test, raising the errors workerd raises (their
// messages and shapes as workers/kernel/platform-failure.ts recognises them). A test passes
// `faults.env` where the Worker takes its env (helpers.ts: api/client's `env`, or handleApp's env);
// every binding the request reaches (context.env, context.db) is then the faulty one.
import { env } from "cloudflare:test";

/** How D1 misbehaves: `down` throws at once; `timeout` waits, then throws D1's timeout; `slow` waits, then answers; `lost-answer` runs the statement, then throws as if its answer was lost. */
export type D1Fault = "down" | "timeout" | "slow" | "lost-answer";
/** R2: `read-fails`: get and head throw (writes work); `down`: every call throws. */
export type R2Fault = "read-fails" | "down";
/** A school's object: `throws`: every call fails as a lost connection; `overloaded`: the runtime refuses it as overloaded. */
export type ObjectFault = "throws" | "overloaded";

const D1_MESSAGES = {
  down: "Network connection lost.",
  timeout: "D1 DB storage operation exceeded timeout which caused object to be reset.",
  "lost-answer": "Network connection lost.",
} as const;

/** D1's error as the binding throws it (workerd's d1-api: `D1_ERROR: {message}` with the message as its cause). */
export function d1Error(message: string): Error {
  return new Error(`D1_ERROR: ${message}`, { cause: new Error(message) });
}

/** An R2 binding's error: an R2Error with its v4 code (10001: "We encountered an internal error"). */
export function r2Error(operation: string): Error {
  const error = new Error(`${operation}: We encountered an internal error. Please try again. (10001)`);
  return Object.assign(error, { name: "R2Error", code: 10001, action: operation });
}

/** A Durable Object stub's error as the runtime raises it: `.retryable`, `.overloaded`, `.remote`. */
export function objectError(fault: ObjectFault): Error {
  return fault === "overloaded"
    ? Object.assign(new Error("Durable Object is overloaded. Too many requests queued."), {
        overloaded: true,
        retryable: false,
        remote: false,
      })
    : Object.assign(new Error("Network connection lost."), { retryable: true, overloaded: false, remote: false });
}

const EXECUTES = new Set(["run", "all", "first", "raw"]);

export interface Faults {
  /** The env to hand the Worker: the real one with DB, BOOKS and SCHOOLS wrapped. */
  env: Env;
  d1: D1Fault | null;
  /** With `d1` set: only from this many D1 round trips on (a statement alone or a batch) does it fail; before, they answer. */
  d1PassFirst: number;
  /** What `timeout` and `slow` wait, in ms (D1's own limit is 30 s; a test waits less). */
  d1DelayMs: number;
  r2: R2Fault | null;
  object: ObjectFault | null;
  /** D1 round trips made through `env` (failed ones too), and their statements. */
  trips: number;
  statements: number;
  objectCalls: string[];
}

/** A fresh set of faulty bindings, all working until a test switches one. */
export function faultyBindings(): Faults {
  const faults: Faults = {
    env: env,
    d1: null,
    d1PassFirst: 0,
    d1DelayMs: 50,
    r2: null,
    object: null,
    trips: 0,
    statements: 0,
    objectCalls: [],
  };
  const DB = faultyD1(env.DB, faults);
  faults.env = { ...env, DB, BOOKS: faultyR2(env.BOOKS, faults), SCHOOLS: faultyObjects(env.SCHOOLS, faults) } as Env;
  return faults;
}

/** One D1 round trip: counted, then answered, delayed or failed as `faults.d1` says. */
async function trip<T>(faults: Faults, statements: number, run: () => Promise<T>): Promise<T> {
  faults.trips++;
  faults.statements += statements;
  const fault = faults.trips > faults.d1PassFirst ? faults.d1 : null;
  if (fault === "timeout" || fault === "slow") await new Promise((resolve) => setTimeout(resolve, faults.d1DelayMs));
  if (fault === "down" || fault === "timeout") throw d1Error(D1_MESSAGES[fault]);
  const result = await run();
  if (fault === "lost-answer") throw d1Error(D1_MESSAGES["lost-answer"]);
  return result;
}

function faultyD1(real: D1Database, faults: Faults): D1Database {
  return watchedD1(real, (statements, run) => trip(faults, statements, run));
}

/**
 * D1 with every round trip (a statement run alone: 1; a batch: its statements) passed through
 * `round`, which runs it (`run`) when it will: the faulty bindings fail or delay it; the cost test
 * (request-cost.test.ts) counts it.
 */
export function watchedD1(real: D1Database, round: <T>(statements: number, run: () => Promise<T>) => Promise<T>): D1Database {
  const inner = new WeakMap<object, D1PreparedStatement>();
  const statement = (target: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(target, {
      get(t, key) {
        if (key === "bind") return (...values: unknown[]) => statement(t.bind(...values));
        const value = Reflect.get(t, key, t);
        if (typeof key === "string" && EXECUTES.has(key) && typeof value === "function") {
          return (...args: unknown[]) => round(1, () => (value as (...a: unknown[]) => Promise<unknown>).apply(t, args));
        }
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
    inner.set(proxy, target);
    return proxy;
  };
  const database = <D extends Pick<D1Database, "prepare" | "batch">>(target: D): D =>
    new Proxy(target, {
      get(t, key) {
        if (key === "prepare") return (query: string) => statement(t.prepare(query));
        if (key === "batch") {
          return (statements: D1PreparedStatement[]) => round(statements.length, () => t.batch(statements.map((s) => inner.get(s) ?? s)));
        }
        if (key === "withSession") return (constraint?: string) => database((t as unknown as D1Database).withSession(constraint));
        const value = Reflect.get(t, key, t);
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  return database(real);
}

const R2_READS = new Set(["get", "head"]);
const R2_CALLS = new Set(["get", "head", "put", "list", "delete", "createMultipartUpload", "resumeMultipartUpload"]);

function faultyR2(real: R2Bucket, faults: Faults): R2Bucket {
  return new Proxy(real, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof key !== "string" || typeof value !== "function" || !R2_CALLS.has(key)) {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (...args: unknown[]) => {
        const fails = faults.r2 === "down" || (faults.r2 === "read-fails" && R2_READS.has(key));
        if (fails) return Promise.reject(r2Error(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

function faultyObjects(real: Env["SCHOOLS"], faults: Faults): Env["SCHOOLS"] {
  return watchedObjects(real, (method) => {
    faults.objectCalls.push(method);
    return faults.object ? objectError(faults.object) : null;
  });
}

/** The school objects' namespace with every stub call told to `call` first (the method's name); an error it returns is the call's rejection. */
export function watchedObjects(real: Env["SCHOOLS"], call: (method: string) => Error | null): Env["SCHOOLS"] {
  return new Proxy(real, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key !== "getByName" && key !== "get") return typeof value === "function" ? value.bind(target) : value;
      return (...args: unknown[]) => {
        const stub = Reflect.apply(value as (...a: unknown[]) => object, target, args);
        return new Proxy(stub, {
          get(inner, method) {
            if (method === "then") return undefined;
            const member = Reflect.get(inner, method);
            if (typeof member !== "function" || typeof method !== "string") return member;
            return (...callArgs: unknown[]) => {
              const error = call(method);
              if (error) return Promise.reject(error);
              // Reflect.apply: the stub's member is an RPC proxy, whose own `apply` would be a remote call.
              return Reflect.apply(member as (...a: unknown[]) => unknown, inner, callArgs);
            };
          },
        });
      };
    },
  });
}
