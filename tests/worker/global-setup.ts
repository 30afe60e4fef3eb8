// Runs in Node before the worker tests: a real SMTP server for the Worker's mail to land in.
import type { TestProject } from "vitest/node";
import { startMailCatcher } from "../support/mail-catcher.ts";

declare module "vitest" {
  export interface ProvidedContext {
    smtpPort: number;
    mailCatcherPort: number;
  }
}

export default async function setup(project: TestProject) {
  const catcher = await startMailCatcher();
  project.provide("smtpPort", catcher.smtpPort);
  project.provide("mailCatcherPort", catcher.httpPort);
  return () => catcher.close();
}
