/**
 * A local state backed up into a folder, and brought back from one into a wiped state
 * (docs/decisions/0046). Order matters for a state the app might have written between the parts:
 * the school objects first, then D1, then R2. Usage an object held when dumped and flushed to D1
 * before D1 was read is sent again after a restore and dropped by D1's flush sequence (migration
 * 0010), never counted twice; every R2 key D1 names was written before D1's row was.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { withLocalState } from "../local-state.ts";
import { dumpD1, restoreD1 } from "./d1.ts";
import { BACKUP_FORMAT, type Manifest, readManifest, secondsSince, size, writeManifest } from "./manifest.ts";
import { dumpSchoolObjects, type OperatorApp, readSchoolObjectsIndex, restoreSchoolObjects, withOperatorApp } from "./objects.ts";
import { dumpR2, restoreR2 } from "./r2.ts";

type Log = (line: string) => void;

export async function backupState(options: { persistTo: string; to: string; log?: Log }): Promise<Manifest> {
  const log = options.log ?? (() => {});
  const { persistTo, to } = options;
  const started = Date.now();
  log(`Backing up ${persistTo} into ${to}`);
  const schools = await withOperatorApp(persistTo, (app) => dumpSchoolObjects(app, join(to, "objects")));
  const schoolSeconds = secondsSince(started);
  const rows = schools.reduce((sum, school) => sum + school.rows, 0);
  log(
    `  school objects: ${schools.length} schools, ${rows} rows, ${size(schools.reduce((sum, s) => sum + s.bytes, 0))} in ${schoolSeconds} s`,
  );
  const { d1, r2, d1Seconds, r2Seconds } = await withLocalState(persistTo, async ({ DB, BOOKS }) => {
    const d1Started = Date.now();
    const d1 = await dumpD1(DB, join(to, "d1"));
    const d1Seconds = secondsSince(d1Started);
    log(
      `  D1: ${d1.tables.length} tables, ${d1.tables.reduce((sum, t) => sum + t.rows, 0)} rows, ${size(d1.bytes)} of SQL in ${d1Seconds} s`,
    );
    const r2Started = Date.now();
    const r2 = await dumpR2(BOOKS, join(to, "r2"));
    const r2Seconds = secondsSince(r2Started);
    log(`  R2: ${r2.objects} objects, ${size(r2.bytes)} (${size(r2.stored)} stored) in ${r2Seconds} s`);
    return { d1, r2, d1Seconds, r2Seconds };
  });
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    createdAt: new Date(started).toISOString(),
    source: persistTo,
    d1,
    r2,
    schools,
    seconds: { schools: schoolSeconds, d1: d1Seconds, r2: r2Seconds, total: secondsSince(started) },
  };
  writeManifest(to, manifest);
  log(`Backup done in ${manifest.seconds.total} s: ${to}`);
  return manifest;
}

export interface RestoreReport {
  statements: number;
  objects: number;
  bytes: number;
  schoolRows: number;
  seconds: { d1: number; r2: number; schools: number; total: number };
}

/** Whether a state folder holds anything (a restore goes only into a wiped one). */
export function stateHoldsData(persistTo: string): boolean {
  return existsSync(persistTo) && readdirSync(persistTo).length > 0;
}

export async function restoreState(options: { from: string; persistTo: string; log?: Log }): Promise<RestoreReport> {
  const log = options.log ?? (() => {});
  const { from, persistTo } = options;
  const manifest = readManifest(from);
  if (stateHoldsData(persistTo)) throw new Error(`${persistTo} is not empty: a restore goes into a wiped state`);
  const started = Date.now();
  log(`Restoring ${from} (taken ${manifest.createdAt}) into ${persistTo}`);
  const { statements, r2, d1Seconds, r2Seconds } = await withLocalState(persistTo, async ({ DB, BOOKS }) => {
    const statements = await restoreD1(DB, join(from, "d1"), manifest.d1.tables);
    const d1Seconds = secondsSince(started);
    log(`  D1: ${manifest.d1.tables.length} tables, ${statements} statements in ${d1Seconds} s`);
    const r2Started = Date.now();
    const r2 = await restoreR2(BOOKS, join(from, "r2"));
    const r2Seconds = secondsSince(r2Started);
    log(`  R2: ${r2.objects} objects, ${size(r2.bytes)}, each checked against its SHA-256, in ${r2Seconds} s`);
    return { statements, r2, d1Seconds, r2Seconds };
  });
  const schoolsStarted = Date.now();
  const schoolRows = await withOperatorApp(persistTo, (app) => restoreSchoolObjects(app, join(from, "objects"), manifest.schools));
  const schoolSeconds = secondsSince(schoolsStarted);
  log(`  school objects: ${manifest.schools.length} schools, ${schoolRows} rows in ${schoolSeconds} s`);
  const total = secondsSince(started);
  log(`Restore done in ${total} s`);
  return { statements, ...r2, schoolRows, seconds: { d1: d1Seconds, r2: r2Seconds, schools: schoolSeconds, total } };
}

/**
 * The school objects alone, of a Worker that is already running (production: D1 and R2 are backed
 * up by the platform's tools, README "Backups and restoring"), with the operator's secret.
 */
export async function backupObjectsAt(app: OperatorApp, to: string, log: Log = () => {}): Promise<void> {
  const started = Date.now();
  const schools = await dumpSchoolObjects(app, join(to, "objects"));
  const rows = schools.reduce((sum, school) => sum + school.rows, 0);
  log(`School objects of ${app.origin}: ${schools.length} schools, ${rows} rows in ${secondsSince(started)} s, into ${to}/objects`);
}

/** A backup's school objects put back into a running Worker's (D1 restored first). */
export async function restoreObjectsAt(app: OperatorApp, from: string, log: Log = () => {}): Promise<void> {
  const started = Date.now();
  const files = readSchoolObjectsIndex(join(from, "objects"));
  const rows = await restoreSchoolObjects(app, join(from, "objects"), files);
  log(`School objects of ${app.origin}: ${files.length} schools, ${rows} rows restored in ${secondsSince(started)} s`);
}

/** The running Worker at `url` (--url), with OPERATOR_SECRET from the environment; exits (2) without a usable secret. */
export function operatorAppAt(url: string, purpose: string): OperatorApp {
  const secret = process.env.OPERATOR_SECRET ?? "";
  if (secret.length < 32) {
    console.error(
      `Set OPERATOR_SECRET (the Worker's secret, 32+ characters) in the environment to ${purpose} a running Worker's school objects.`,
    );
    process.exit(2);
  }
  return { origin: new URL(url).origin, secret };
}

/** A script's work; should it throw, "<what> failed: <why>" and exit 1. */
export async function runOrExit(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
