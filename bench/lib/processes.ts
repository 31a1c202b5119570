import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a server as a child process and waits for the JSON line `{"listening": port}` on stdout
 * (bench servers print it) or for Keystream's "running at http://…:PORT" line.
 */
export async function startServer(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(" ")} did not start: ${stderr}`)), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /"listening":(\d+)/.exec(buffer) ?? /running at http:\/\/[^:]+:(\d+)/.exec(buffer);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${stderr}`));
    });
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
