/**
 * An archive's bytes into one R2 object through a multipart upload (docs/decisions/0044): R2 takes
 * an object of unknown length only in parts, every part but the last of one size and at least
 * 5 MiB. The sink keeps less than one part and uploads each as soon as it is whole, so a large
 * school's export never sits in the Worker's memory.
 */
import type { ByteSink } from "./archive.ts";

/** R2's smallest part (but the last); every part but the last must be this size exactly. */
export const PART_BYTES = 5 * 1024 * 1024;

export interface R2Sink extends ByteSink {
  /** Bytes written so far. */
  readonly size: () => number;
  /** The upload given up: its parts are deleted. */
  abort(): Promise<void>;
}

export async function r2MultipartSink(bucket: R2Bucket, key: string, options: R2MultipartOptions, partBytes = PART_BYTES): Promise<R2Sink> {
  const upload = await bucket.createMultipartUpload(key, options);
  const parts: R2UploadedPart[] = [];
  let buffer = new Uint8Array(partBytes);
  let filled = 0;
  let size = 0;

  const send = async (bytes: Uint8Array) => {
    parts.push(await upload.uploadPart(parts.length + 1, bytes));
  };

  return {
    size: () => size,
    write: async (chunk) => {
      size += chunk.length;
      let offset = 0;
      while (offset < chunk.length) {
        const take = Math.min(partBytes - filled, chunk.length - offset);
        buffer.set(chunk.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === partBytes) {
          await send(buffer);
          // A new buffer: the part just sent may still be read by the upload.
          buffer = new Uint8Array(partBytes);
          filled = 0;
        }
      }
    },
    close: async () => {
      if (filled > 0 || parts.length === 0) await send(buffer.slice(0, filled));
      await upload.complete(parts);
    },
    abort: () => upload.abort().catch(() => {}),
  };
}
