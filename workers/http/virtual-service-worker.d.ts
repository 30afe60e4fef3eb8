// Built by vite/service-worker.ts from app/sw/service-worker.ts: the script /sw.js answers.
declare module "virtual:lectern/service-worker" {
  export const serviceWorkerScript: string;
  /** The client build the worker belongs to ("dev" without one). */
  export const shellVersion: string;
}
