import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

const LISTENING = [/"listening":(\d+)/, /running at http:\/\/[^:]+:(\d+)/];

/**
 * Starts a server as a child process and waits for the JSON line `{"listening": port}` on stdout
 * (bench servers print it) or for Keystream's "running at http://…:PORT" line.
 *
 * With `stdoutFile`, the server's stdout (its request log) goes to that file instead of a pipe, as
 * it would go to a log file or journald in production: the load generator in this process then
 * spends no CPU draining the server's log.
 */
export async function startServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { stdoutFile?: string; port?: number } = {},
): Promise<RunningServer> {
  const fd = options.stdoutFile === undefined ? undefined : fs.openSync(options.stdoutFile, "w");
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", fd ?? "pipe", "pipe"] });
  if (fd !== undefined) fs.closeSync(fd);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = "";
    const found = (text: string) => {
      for (const pattern of LISTENING) {
        const match = pattern.exec(text);
        if (match?.[1]) return Number(match[1]);
      }
      return undefined;
    };
    const done = (error: Error | undefined, value?: number) => {
      clearTimeout(timer);
      clearInterval(poll);
      if (error) reject(error);
      else resolve(value as number);
    };
    const timer = setTimeout(() => done(new Error(`${command} ${args.join(" ")} did not start: ${stderr}`)), 30_000);
    const poll = setInterval(() => {
      // A known port (the server logs nothing at LOG_LEVEL=warn): ready once it accepts a connection.
      if (options.port !== undefined) {
        const probe = net.connect(options.port, "127.0.0.1", () => {
          probe.destroy();
          done(undefined, options.port);
        });
        probe.on("error", () => probe.destroy());
        return;
      }
      if (options.stdoutFile === undefined) return;
      const value = found(fs.readFileSync(options.stdoutFile, "utf8"));
      if (value !== undefined) done(undefined, value);
    }, 50);
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const value = found(buffer);
      if (value !== undefined) done(undefined, value);
    });
    child.once("exit", (code) => done(new Error(`${command} exited with ${code}: ${stderr}`)));
  });
  child.stdout?.resume();
  return {
    port,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await once(child, "exit");
      clearTimeout(timer);
    },
  };
}

/** A port free on 127.0.0.1 right now (for a server that will not say which port it took). */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}
