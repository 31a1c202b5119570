/**
 * The framework floor: Fastify (Keystream's HTTP framework) with one route answering the ceiling's
 * fixed JSON body, no logging, no plugins. Child process of bench/run.ts: what any Fastify server
 * spends per request before doing any work of its own.
 */
import Fastify from "fastify";

const body = { sub: "bench-user", name: "Bench User", email: "bench@example.com" };
const app = Fastify({ logger: false });
app.get("/", async () => body);
app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" }).then(() => {
  process.stdout.write(`${JSON.stringify({ listening: (app.server.address() as { port: number }).port })}\n`);
});
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
