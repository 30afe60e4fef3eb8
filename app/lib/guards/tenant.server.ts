import { data } from "react-router";
import { toPublicSchool } from "#shared/rules/public-school.ts";
import { appContext } from "../../../workers/kernel/context.ts";

type LoaderContext = { context: { get: typeof import("react-router").RouterContextProvider.prototype.get }; params: { slug?: string } };

export type NotFoundKind = "school" | "page";

export function notFound(kind: NotFoundKind): never {
  throw data({ notFound: kind }, { status: 404 });
}

/**
 * The school a school page is about, from the host ({slug}.domain) or the path (/schools/{slug}).
 * A path-form URL on a school's subdomain, or a school page on the admin host, is no page at all.
 */
export function requireSchool({ context, params }: LoaderContext) {
  const { tenant } = context.get(appContext);
  const onSubdomain = tenant.host.kind === "school" || tenant.host.kind === "invalid";
  if (onSubdomain === Boolean(params.slug)) notFound("page");
  if (tenant.host.kind === "admin") notFound("page");
  if (!tenant.slug) notFound(params.slug ? "page" : "school");
  if (!tenant.school) notFound("school");
  return { school: toPublicSchool(tenant.school), basePath: tenant.basePath };
}
