/**
 * Runs in workerd around the built Worker (bench/lib/capacity-stage.ts strips the types of this and
 * the capacity-probe-*.ts modules it imports, and writes them beside build/server/index.js): the
 * Worker and each Durable Object class it exports get an env whose D1 bindings count every
 * statement (capacity-probe-d1.ts) and whose Durable Object namespaces count every call. GET
 * /__capacity-probe answers the counters (capacity-probe-counts.ts), POST /__capacity-probe/reset
 * zeroes them. It may import nothing else: only these modules are copied into the build.
 */
import { counts, type Origin, resetCounts, timedCall } from "./capacity-probe-counts.ts";
import { probeD1 } from "./capacity-probe-d1.ts";

const PATH = "/__capacity-probe";

/** A Durable Object stub whose calls are counted and timed as the Worker sees them. */
function probeStub<T extends object>(stub: T): T {
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof property === "symbol" || property === "id" || property === "name" || typeof value !== "function") return value;
      // Reflect.apply: on an RPC stub `value.apply` would be a call of a remote method named "apply".
      return (...args: unknown[]) => timedCall(property, async () => Reflect.apply(value, target, args));
    },
  });
}

/** A Durable Object namespace whose stubs are probed. */
function probeNamespace<T extends object>(namespace: T): T {
  return new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      const call = (...args: unknown[]) => Reflect.apply(value, target, args);
      if (property === "get" || property === "getByName") return (...args: unknown[]) => probeStub(call(...args) as object);
      if (property === "jurisdiction") return (...args: unknown[]) => probeNamespace(call(...args) as object);
      return call;
    },
  });
}

const probedEnvs = { worker: new WeakMap<object, object>(), object: new WeakMap<object, object>() };

/**
 * The env with D1 and Durable Object namespaces probed; one per env object, so a client the app
 * caches per binding (getDb) stays cached.
 */
function probeEnv<E extends object>(env: E, origin: Origin): E {
  const known = probedEnvs[origin].get(env);
  if (known) return known as E;
  const probed: Record<string, unknown> = { ...(env as Record<string, unknown>) };
  for (const [name, binding] of Object.entries(env)) {
    if (!binding || typeof binding !== "object") continue;
    if (typeof (binding as D1Database).prepare === "function" && typeof (binding as D1Database).batch === "function")
      probed[name] = probeD1(binding, origin);
    else if (typeof (binding as DurableObjectNamespace).idFromName === "function") probed[name] = probeNamespace(binding);
  }
  probedEnvs[origin].set(env, probed);
  return probed as E;
}

function answerProbe(request: Request): Response | null {
  const { pathname } = new URL(request.url);
  if (pathname === PATH && request.method === "GET") return Response.json(counts);
  if (pathname === `${PATH}/reset` && request.method === "POST") {
    resetCounts();
    return Response.json({ reset: true });
  }
  return null;
}

type Handler = Record<string, unknown> & { fetch: (request: Request, env: object, ctx: ExecutionContext) => Promise<Response> };
type ObjectClass = new (ctx: DurableObjectState, env: object) => object;

/**
 * The built module's default handler with a probed env, and `objectClass(name)`: its Durable Object
 * class `name` subclassed so the object's own D1 work (its flushes) is counted too.
 */
export function probeWorker(built: { default: unknown } & Record<string, unknown>) {
  const base = built.default as Handler;
  if (typeof base !== "object" || typeof base.fetch !== "function")
    throw new Error("capacity probe: the built Worker's default export is not an object with fetch()");
  const handler: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(base)) {
    if (typeof value === "function")
      handler[name] = (event: unknown, env: object, ctx: ExecutionContext) => value.call(base, event, probeEnv(env, "worker"), ctx);
  }
  handler.fetch = (request: Request, env: object, ctx: ExecutionContext) =>
    answerProbe(request) ?? base.fetch.call(base, request, probeEnv(env, "worker"), ctx);
  const objectClass = (name: string): ObjectClass => {
    const Base = built[name] as ObjectClass | undefined;
    if (typeof Base !== "function") throw new Error(`capacity probe: the built Worker exports no class ${name}`);
    return class extends Base {
      constructor(ctx: DurableObjectState, env: object) {
        super(ctx, probeEnv(env, "object"));
      }
    };
  };
  return { handler, objectClass };
}
