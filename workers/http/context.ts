import { createContext } from "react-router";
import type { PrefetchedTeacherSession } from "../auth/sessions.ts";
import type { School } from "../db/schema.ts";
import type { AppConfig } from "./config.ts";
import type { HostTenant } from "./tenancy.ts";

/** The school a page request is about, resolved once per request in the Worker. */
export interface RequestTenant {
  host: HostTenant;
  /** The slug named by the host or the path, whether or not such a school exists. */
  slug: string | null;
  school: School | null;
  /** Prefix for links inside the school's pages: '' on its subdomain, `/schools/{slug}` otherwise. */
  basePath: string;
  /** The teacher cookie's session, read with the school; absent without a cookie or a school. */
  teacherSession?: PrefetchedTeacherSession;
}

export interface AppContextValue {
  env: Env;
  ctx: ExecutionContext;
  config: AppConfig;
  tenant: RequestTenant;
  nonce: string | null;
}

export const appContext = createContext<AppContextValue>();
