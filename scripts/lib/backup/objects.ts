/**
 * The school objects' storage, read and written through the Worker's operator routes
 * (workers/api/operator.ts, docs/decisions/0046), as production's would be: Durable Objects have
 * no export of their own. Locally the Worker is a `wrangler dev` of the built app over the state
 * folder, on a free port, given a one-time OPERATOR_SECRET that lives only as long as it does.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { z } from "zod";
import { dumpedRows, type SchoolStorageDump, SchoolStorageDumpSchema } from "#shared/school-storage-dump.ts";
import { ROOT, runOrExit } from "../env.ts";
import { startLocalServer } from "../local-server.ts";

export interface OperatorApp {
  origin: string;
  secret: string;
}

export interface SchoolStorageFile {
  id: number;
  slug: string;
  file: string;
  tables: number;
  rows: number;
  bytes: number;
}

const SchoolListSchema = z.object({ schools: z.array(z.object({ id: z.number().int().positive(), slug: z.string() })) });
const RestoredSchema = z.object({ schoolId: z.number(), tables: z.number(), rows: z.number() });
const SchoolFilesSchema = z.array(
  z.object({ id: z.number(), slug: z.string(), file: z.string(), tables: z.number(), rows: z.number(), bytes: z.number() }),
);
const INDEX = "index.json";

/** A port no one listens on now (the OS's choice). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("The OS gave no port"))));
    });
  });
}

/**
 * Serves the built app over `persistTo` (no renderer, no cron: nothing but the operator's calls
 * touches the state) while `work` runs. Never on a state another server serves.
 */
export async function withOperatorApp<T>(persistTo: string, work: (app: OperatorApp) => Promise<T>): Promise<T> {
  if (!existsSync(join(ROOT, "build/server/index.js"))) await runOrExit("react-router", ["build"]);
  const secret = randomBytes(32).toString("hex");
  const server = await startLocalServer({
    port: await freePort(),
    persistTo,
    rendererConfig: null,
    cron: false,
    args: ["--var", `OPERATOR_SECRET:${secret}`, "--log-level", "warn"],
  });
  try {
    return await work({ origin: server.origin, secret });
  } finally {
    await server.stop();
  }
}

async function operatorCall(app: OperatorApp, path: string, init: { method?: string; body?: string } = {}): Promise<unknown> {
  const response = await fetch(`${app.origin}/api/operator${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${app.secret}`, Origin: app.origin, "Content-Type": "application/json" },
    body: init.body,
  });
  const text = await response.text();
  if (!response.ok) {
    const hint =
      response.status === 404 && path === "/schools"
        ? " (the Worker has no OPERATOR_SECRET or another one, or is a build from before the operator's routes: `npm run build`)"
        : "";
    throw new Error(`${init.method ?? "GET"} /api/operator${path} answered ${response.status}${hint}: ${text.slice(0, 300)}`);
  }
  return JSON.parse(text);
}

/** Writes each school's object storage to `dir/school-<id>.json`. */
export async function dumpSchoolObjects(app: OperatorApp, dir: string): Promise<SchoolStorageFile[]> {
  mkdirSync(dir, { recursive: true });
  const { schools } = SchoolListSchema.parse(await operatorCall(app, "/schools"));
  const files: SchoolStorageFile[] = [];
  for (const school of schools) {
    const dump = SchoolStorageDumpSchema.parse(await operatorCall(app, `/schools/${school.id}/storage`));
    const file = `school-${school.id}.json`;
    const text = JSON.stringify(dump);
    writeFileSync(join(dir, file), text);
    files.push({ ...school, file, tables: dump.tables.length, rows: dumpedRows(dump), bytes: Buffer.byteLength(text) });
  }
  writeFileSync(join(dir, INDEX), `${JSON.stringify(files, null, 2)}\n`);
  return files;
}

/** The schools a folder of dumps holds (`index.json`, written with them). */
export function readSchoolObjectsIndex(dir: string): SchoolStorageFile[] {
  return SchoolFilesSchema.parse(JSON.parse(readFileSync(join(dir, INDEX), "utf8")));
}

/** Puts each school's dump back into its object (D1 must hold the schools already). */
export async function restoreSchoolObjects(
  app: OperatorApp,
  dir: string,
  files: Pick<SchoolStorageFile, "id" | "file">[],
): Promise<number> {
  let rows = 0;
  for (const school of files) {
    const dump: SchoolStorageDump = SchoolStorageDumpSchema.parse(JSON.parse(readFileSync(join(dir, school.file), "utf8")));
    const body = JSON.stringify(dump);
    const restored = RestoredSchema.parse(await operatorCall(app, `/schools/${school.id}/storage`, { method: "PUT", body }));
    rows += restored.rows;
  }
  return rows;
}
