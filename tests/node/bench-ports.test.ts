import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { freePorts } from "../../bench/lib/free-ports.ts";
import { DEV_PROVIDER_PORTS } from "../../scripts/lib/dev-sign-in.ts";

// `npm run bench` serves its apps beside a running `npm start` (issue 41: it took 8801 and 8802,
// the sign-in stand-ins' ports, and failed): the ports it takes are free ones the OS gives.

const held: Server[] = [];

/** Listens on `port` as `npm start` would; false when something (a running `npm start`) already does. */
function hold(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => {
      held.push(server);
      resolve(true);
    });
  });
}

afterAll(async () => {
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("the bench's ports", () => {
  it("are free while npm start's app and sign-in stand-ins listen, and differ from each other", async () => {
    for (const port of [8787, ...Object.values(DEV_PROVIDER_PORTS)]) await hold(port);
    const ports = await freePorts(2);
    expect(new Set(ports).size).toBe(2);
    for (const port of ports) {
      expect([8787, ...Object.values(DEV_PROVIDER_PORTS)]).not.toContain(port);
      expect(await hold(port), `port ${port} is free`).toBe(true);
    }
  });
});
