import { index, type RouteConfig, route } from "@react-router/dev/routes";

// School pages exist twice: under /schools/{slug} on the main host, and at the root of the
// school's own subdomain ({slug}.{APP_DOMAIN}), where the Worker resolves the school from the host.
export default [
  index("routes/home.tsx"),
  route("schools/:slug", "routes/school-portal.tsx", { id: "school-portal" }),
  route("schools/:slug/dashboard", "routes/school-dashboard.tsx", { id: "school-dashboard" }),
  route("dashboard", "routes/school-dashboard.tsx", { id: "school-dashboard-subdomain" }),
  route(":slug", "routes/school-portal.tsx", { id: "school-portal-short" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
