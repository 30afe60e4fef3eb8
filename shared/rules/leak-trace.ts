/**
 * What POST /api/leaks/trace takes (workers/leaks/trace.ts), for the admin page's file picker
 * (app/components/admin/leak-trace.tsx) as well: the server refuses other files with its own message.
 */

/** The image types a suspect may be sent as, its type in Content-Type. */
export const TRACE_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

/** The largest suspect image accepted, in bytes (20 MB). */
export const MAX_TRACE_BYTES = 20 * 1024 * 1024;
