/** The islands the build emits (see vite/islands.ts), each hydrating the element with its own id. */
export type IslandName = "teacher-portal" | "page-reader";

/** The id of the <script type="application/json"> that carries an island's props. */
export const islandPropsId = (island: IslandName) => `${island}-props`;
