import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePorts } from "../../bench/lib/free-ports.ts";
import { ROOT } from "../../scripts/lib/env.ts";
import { type LocalServer, startLocalServer } from "../../scripts/lib/local-server.ts";

// Tests and benches start `wrangler dev` sessions side by side. wrangler's devtools port is 9229 when
// it finds it free, and it binds it only later, so two sessions started together both took it and the
// second died with "Address already in use (socket direct:1:default)" (CI at stop 52, the backup test
// beside the e2e app). Each session now gets a devtools port the system picks.

const states = ["a", "b", "c"].map((name) => join(ROOT, `.wrangler/local-server-test-${name}`));
const servers: LocalServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const state of states) rmSync(state, { recursive: true, force: true });
});

describe("three local servers started at the same moment", () => {
  it("both come up and answer", { timeout: 180_000 }, async () => {
    const ports = await freePorts(states.length);
    const started = await Promise.allSettled(
      ports.map((port, index) => startLocalServer({ port, persistTo: states[index] as string, cron: false })),
    );
    for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
    expect(started.map((result) => (result.status === "rejected" ? String(result.reason) : "up"))).toEqual(states.map(() => "up"));
    for (const server of servers) expect((await fetch(`${server.origin}/api/health`)).status).toBe(200);
  });
});
