import { createServer, type Server } from "node:net";

/**
 * Ports no one listens on now, asked of the OS (listen on port 0), all held until each is known so
 * no two are the same. The bench's own servers take these, never fixed numbers: `npm start` may be
 * running beside it (the app on 8787, the sign-in stand-ins on 8801 and 8802, which the bench's
 * fixed 8801 and 8802 took before; issue 41).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => listenAnywhere()));
  const ports = servers.map((server) => {
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("The OS gave no port");
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function listenAnywhere(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
