// oidc-provider ships no types; what scripts/lib/oidc-provider.ts uses of it.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export type Configuration = Record<string, unknown>;
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; params: Record<string, unknown> }>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: object, options?: object): Promise<void>;
    Grant: new (options: {
      accountId: string;
      clientId: string;
    }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
  }
}

declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  /** An adapter factory over a store of its own (each provider keeps its codes and sessions apart). */
  export function createMemoryAdapter(clockTolerance?: number): (model: string) => unknown;
}
