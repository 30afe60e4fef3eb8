/** A backup folder's `manifest.json`: what it holds and how long each part took (docs/decisions/0046). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const BACKUP_FORMAT = 1;

export const ManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.string(),
  source: z.string(),
  d1: z.object({
    bytes: z.number(),
    tables: z.array(z.object({ name: z.string(), file: z.string(), rows: z.number(), bytes: z.number() })),
  }),
  r2: z.object({ objects: z.number(), bytes: z.number(), stored: z.number() }),
  schools: z.array(
    z.object({ id: z.number(), slug: z.string(), file: z.string(), tables: z.number(), rows: z.number(), bytes: z.number() }),
  ),
  seconds: z.object({ schools: z.number(), d1: z.number(), r2: z.number(), total: z.number() }),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export function writeManifest(dir: string, manifest: Manifest) {
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(dir: string): Manifest {
  const parsed = ManifestSchema.safeParse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
  if (!parsed.success)
    throw new Error(`${dir}/manifest.json is not a backup's manifest (format ${BACKUP_FORMAT}): ${parsed.error.message}`);
  return parsed.data;
}

/** Bytes as a person reads them. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** Seconds since `started`, to a tenth. */
export const secondsSince = (started: number) => Math.round((Date.now() - started) / 100) / 10;
