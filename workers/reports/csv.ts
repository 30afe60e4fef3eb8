/**
 * A CSV download's response (docs/decisions/0019): the body as shared/csv.ts writes it (a string,
 * or a stream of it), sent as an attachment that no cache keeps.
 */
export function csvResponse(body: string | ReadableStream<Uint8Array>, fileName: string): Response {
  return attachmentResponse(body, fileName, "text/csv; charset=utf-8");
}

/** A file sent as an attachment that no cache keeps (a CSV, an export's ZIP), with its length when known. */
export function attachmentResponse(body: BodyInit, fileName: string, contentType: string, size?: number): Response {
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      ...(size === undefined ? {} : { "Content-Length": String(size) }),
    },
  });
}
