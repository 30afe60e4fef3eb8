import { Hono } from "hono";
import type { AdminEnv } from "./admin-session.ts";

/** Admin catalogue endpoints under /api/books (mounted before the file endpoints). */
export const adminBooksApi = new Hono<AdminEnv>();
