/**
 * What the renderer tells an admin about a file or a page it cannot prepare: the same words from the
 * platform's jobs (./jobs.ts) and from `npm run pages` and the seed (scripts/lib/render-worker.ts).
 */
export const PASSWORD_MESSAGE = "This PDF is password-protected: upload a copy without a password.";
export const DAMAGED_MESSAGE = "This file cannot be opened as a PDF (it may be damaged).";
export const UNREADABLE_PAGE_MESSAGE = "PDFium could not read this page (it may be damaged).";
export const BLANK_DOCUMENT_ERROR = "Every page of this PDF is blank: the file is probably damaged.";
