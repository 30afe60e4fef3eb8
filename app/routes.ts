import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

// School pages exist twice: under /schools/{slug} on the main host, and at the root of the
// school's own subdomain ({slug}.{APP_DOMAIN}), where the Worker resolves the school from the host.
export default [
  index("routes/home.tsx"),
  route("schools/:slug", "routes/school-portal.tsx", { id: "school-portal" }),
  route("schools/:slug/limit-reached", "routes/limit-reached.tsx", { id: "limit-reached" }),
  route("limit-reached", "routes/limit-reached.tsx", { id: "limit-reached-subdomain" }),
  // Signed-in teacher pages: the layout's middleware checks the session once per request.
  layout("routes/school-app.tsx", [
    route("schools/:slug/dashboard", "routes/school-dashboard.tsx", { id: "school-dashboard" }),
    route("dashboard", "routes/school-dashboard.tsx", { id: "school-dashboard-subdomain" }),
  ]),
  route(":slug", "routes/school-portal.tsx", { id: "school-portal-short" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
