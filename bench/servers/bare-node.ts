/** The ceiling: a bare node:http server answering a fixed JSON body. Child process of bench/run.ts. */
import http from "node:http";

const body = JSON.stringify({ sub: "bench-user", name: "Bench User", email: "bench@example.com" });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ listening: (server.address() as { port: number }).port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
