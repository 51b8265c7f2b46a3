/** A throwaway `redis-server` for tests: random free port, no persistence, killed by `stop()`. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import { RespClient } from '../../ts/http/resp';

/** A running test Redis. */
export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** A TCP port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `redis-server` (it must be on PATH: `.ci/run` installs it) and waits for PONG. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`cannot start redis-server (${error.message}); install it (apt-get install redis-server)`))),
  );
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const ready = (async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}: ${stderr}`);
      const client = new RespClient(url, 1000);
      try {
        if ((await client.command(['PING'])) === 'PONG') return;
      } catch {
        // Not listening yet.
      } finally {
        await client.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server on port ${port} did not answer PING: ${stderr}`);
  })();
  try {
    await Promise.race([ready, spawnError]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, stop };
}
