// Filled in by vite/islands.ts (the Vite plugin) during the client build; empty in `vite dev`.
declare module "virtual:lectern/islands" {
  export const islands: Partial<Record<string, { src: string; preload: string[] }>>;
}
