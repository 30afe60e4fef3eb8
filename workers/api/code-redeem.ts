/** Redeeming a bookstore code for a school (docs/decisions/0053): a school's coordinator, or an admin naming the school. */
import { Hono } from "hono";
import type { AppEnv } from "../kernel/context.ts";

export const codeRedeemApi = new Hono<AppEnv>();
