/**
 * Varnish with the shipped VCL (deploy/varnish/default.vcl) as a child process, in front of the
 * given containers: for `npm run scale:demo` and the tests (tests/support/varnish.ts). It writes a
 * backends.vcl for them into a temporary directory that also serves as Varnish's working directory
 * (`-n`), runs `varnishd -F` (foreground, no jail: no root or varnish user needed), and resolves once
 * Varnish answers and, unless told otherwise, every container passes its health probe.
 *
 * Debian's `varnish` and `varnish-modules` (xkey) provide it; scripts/bootstrap.sh installs them.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The shipped configuration: default.vcl and backends.vcl.example. */
export const VARNISH_CONFIG_DIR = fileURLToPath(new URL('../deploy/varnish/', import.meta.url));
export const VARNISHD = process.env.VARNISHD ?? '/usr/sbin/varnishd';

/** Debian's vmod directory of this machine's architecture (x86_64-linux-gnu, aarch64-linux-gnu, ...). */
const xkeyVmod = () => {
  const multiarch = existsSync('/usr/lib') ? readdirSync('/usr/lib').filter((name) => name.endsWith('-linux-gnu')) : [];
  return multiarch.map((dir) => `/usr/lib/${dir}/varnish/vmods/libvmod_xkey.so`).find((path) => existsSync(path)) ?? null;
};

export interface VarnishOptions {
  /** The containers, e.g. 'http://127.0.0.1:4001' (http only: TLS ends in front of Varnish). */
  backends: string[];
  /** Where Varnish listens on 127.0.0.1; 0 or unset: a free port. */
  port?: number;
  /** Addresses or CIDR ranges allowed to PURGE besides loopback, e.g. '10.0.0.0/16'. */
  purgers?: string[];
  /** Wait until every container passes its probe (default true). */
  waitForHealthy?: boolean;
  /** How long to wait for Varnish (and the probes) before giving up (default 20 s). */
  timeoutMs?: number;
  /** Each line varnishd writes (default: kept, and shown only if it fails to start). */
  onLine?: (line: string) => void;
}

export interface Varnish {
  url: string;
  port: number;
  /** The working directory (`varnishadm -n <workDir> ...`, `varnishlog -n <workDir>`). */
  workDir: string;
  /** Settles when varnishd has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops varnishd (SIGTERM) and removes its directory. */
  stop(): Promise<void>;
  /** Counters so far (varnishstat MAIN.*): what a bench diffs before and after a load. */
  stats(): Promise<VarnishStats>;
  /** Each container (the VCL's backend name) and whether its probe passes. */
  backendHealth(): Promise<Record<string, boolean>>;
}

export interface VarnishStats {
  /** Cache hits and misses (MAIN.cache_hit, MAIN.cache_miss; passes are neither). */
  hits: number;
  misses: number;
  /** Requests from clients (MAIN.client_req), PURGEs included. */
  requests: number;
  /** Requests Varnish sent to the containers (MAIN.backend_req): misses, passes and background refreshes; not the health probes. */
  backendRequests: number;
  /** Fetches from a container that failed (MAIN.fetch_failed): each one the VCL sent again, or answered 503. */
  failedFetches: number;
}

/** Why Varnish cannot run here, with the fix; null when it can. */
export function varnishMissing(): string | null {
  if (!existsSync(VARNISHD))
    return `${VARNISHD} not found: install Debian's varnish and varnish-modules (bash scripts/bootstrap.sh, or apt-get install varnish varnish-modules)`;
  if (!xkeyVmod()) return 'the xkey vmod (libvmod_xkey.so under /usr/lib/<arch>-linux-gnu/varnish/vmods) is missing: apt-get install varnish-modules';
  return null;
}

/** An ACL entry: "10.0.0.0/16" → `"10.0.0.0"/16;`. */
function aclEntry(entry: string): string {
  const match = /^([0-9a-fA-F:.]+)(?:\/(\d{1,3}))?$/.exec(entry.trim());
  if (!match) throw new Error(`purger "${entry}" is not an IP address or a CIDR range (e.g. 10.0.0.0/16)`);
  return `    "${match[1]}"${match[2] ? `/${match[2]}` : ''};`;
}

/**
 * The health probe of the shipped backends.vcl.example, word for word: the tests and the demo see
 * exactly how fast an operator's Varnish notices a container going (a faster probe here once hid
 * that the example's was slower than the containers' shutdown grace).
 */
export function shippedProbe(): string {
  const example = readFileSync(new URL('../deploy/varnish/backends.vcl.example', import.meta.url), 'utf8');
  const probe = /^probe firm_health \{\n[\s\S]*?^\}$/m.exec(example)?.[0];
  if (!probe) throw new Error('deploy/varnish/backends.vcl.example has no `probe firm_health { ... }` block');
  return probe;
}

/** The backends.vcl default.vcl includes: one backend per container, the `firm` director, the extra purgers. */
export function backendsVcl(options: Pick<VarnishOptions, 'backends' | 'purgers'>): string {
  if (options.backends.length === 0) throw new Error('Varnish needs at least one backend');
  const backends = options.backends.map((address, i) => {
    const url = new URL(address);
    if (url.protocol !== 'http:') throw new Error(`backend ${address}: Varnish speaks plain http to its backends`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return `backend firm_${i + 1} {
    .host = "${host}";
    .port = "${url.port || '80'}";
    .probe = firm_health;
    .connect_timeout = 1s;
    .first_byte_timeout = 30s;
    .between_bytes_timeout = 10s;
}`;
  });
  return `# Written by scripts/varnish.ts for ${options.backends.join(', ')}.
${shippedProbe()}

${backends.join('\n\n')}

acl firm_purgers {
${(options.purgers ?? []).map(aclEntry).join('\n')}
}

sub firm_backends_init {
    new firm = directors.round_robin();
${options.backends.map((_, i) => `    firm.add_backend(firm_${i + 1});`).join('\n')}
}
`;
}

/**
 * A port nobody listens on at this moment (Varnish cannot report one it picked itself), chosen below
 * the kernel's ephemeral range (32768 and up). The port is known some time before Varnish binds it
 * (the containers are told Varnish's address first), and in that time a port from the ephemeral range
 * may be handed to a server started on port 0 or to an outgoing connection, which test files running
 * in parallel do all the time: it happened with three integration workers.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if ((await bindOnce(port)) === port) return port;
  }
  return bindOnce(0);
}

/** Binds `port` (0: any) on loopback and lets it go: the port bound, or -1 if it was taken. */
function bindOnce(port: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(-1));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : -1;
      server.close(() => resolve(bound));
    });
  });
}

/** Whether varnishd's child (the one serving requests) is up; false while varnishadm cannot reach it yet. */
const childRunning = (workDir: string) =>
  run('varnishadm', ['-n', workDir, '-t', '2', 'status']).then(
    ({ stdout }) => /running/i.test(stdout),
    () => false,
  );

/** Whether something on 127.0.0.1 accepts a TCP connection on `port`. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function backendHealth(workDir: string): Promise<Record<string, boolean>> {
  const { stdout } = await run('varnishadm', ['-n', workDir, 'backend.list', '-j']);
  // [ status, [command...], time, { "<vcl>.<backend>": { type, probe_message: [good, window, "healthy"|"sick"] } } ]
  const [, , , list] = JSON.parse(stdout) as [number, string[], number, Record<string, { type: string; probe_message?: [number, number, string] }>];
  return Object.fromEntries(
    Object.entries(list)
      .filter(([, backend]) => backend.type === 'backend')
      .map(([name, backend]) => [name.replace(/^[^.]*\./, ''), backend.probe_message?.[2] === 'healthy']),
  );
}

/**
 * Starts Varnish. Rejects, with what varnishd wrote, if it does not start (the VCL does not compile,
 * the port is taken) or the containers stay unhealthy past the timeout.
 */
export async function startVarnish(options: VarnishOptions): Promise<Varnish> {
  const missing = varnishMissing();
  if (missing) throw new Error(`Varnish cannot run: ${missing}`);
  const dir = mkdtempSync(join(tmpdir(), 'firm-varnish-'));
  const confDir = join(dir, 'conf');
  const workDir = join(dir, 'work');
  try {
    mkdirSync(confDir);
    writeFileSync(join(confDir, 'backends.vcl'), backendsVcl(options));
    // A free port picked here may be taken before varnishd binds it: then try another (not a fixed port).
    for (let attempt = 1; ; attempt++) {
      try {
        return await launch(options, dir, confDir, workDir, options.port || (await freePort()));
      } catch (err) {
        if (options.port || attempt >= 3 || !(err instanceof PortTaken)) throw err;
      }
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

class PortTaken extends Error {}

async function launch(options: VarnishOptions, dir: string, confDir: string, workDir: string, port: number): Promise<Varnish> {
  const child = spawn(
    VARNISHD,
    [
      '-F',
      '-j',
      'none',
      '-a',
      `127.0.0.1:${port}`,
      '-T',
      '127.0.0.1:0',
      '-f',
      join(VARNISH_CONFIG_DIR, 'default.vcl'),
      // The generated backends.vcl first, then the shipped directory (an operator's backends.vcl there is not used).
      '-p',
      `vcl_path=${confDir}:${VARNISH_CONFIG_DIR}`,
      '-n',
      workDir,
      '-s',
      'malloc,64m',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const onLine = (line: string) => {
    output.push(line);
    options.onLine?.(line);
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const url = `http://127.0.0.1:${port}`;
  // A test run or demo that ends without stop() must not leave varnishd behind.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  void exited.then(() => process.off('exit', orphaned));

  const stop = async () => {
    if (!ended) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
    rmSync(dir, { recursive: true, force: true });
  };
  const varnish: Varnish = {
    url,
    port,
    workDir,
    exited,
    stop,
    async stats() {
      const names = ['MAIN.cache_hit', 'MAIN.cache_miss', 'MAIN.client_req', 'MAIN.backend_req', 'MAIN.fetch_failed'];
      const { stdout } = await run('varnishstat', ['-n', workDir, '-1', '-j', ...names.flatMap((name) => ['-f', name])]);
      const { counters } = JSON.parse(stdout) as { counters: Record<string, { value: number }> };
      const value = (name: string) => counters[name]?.value ?? 0;
      return {
        hits: value('MAIN.cache_hit'),
        misses: value('MAIN.cache_miss'),
        requests: value('MAIN.client_req'),
        backendRequests: value('MAIN.backend_req'),
        failedFetches: value('MAIN.fetch_failed'),
      };
    },
    backendHealth: () => backendHealth(workDir),
  };

  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  const failed = (why: string) => {
    const text = `Varnish ${why}. It wrote:\n${output.join('\n')}`;
    return output.some((line) => /Could not get socket|Address already in use/i.test(line)) ? new PortTaken(text) : new Error(text);
  };
  try {
    // Its child runs and takes connections (a connection, not a request: the tests count hits and misses).
    for (;;) {
      if (ended) throw failed(`ended before it listened at ${url}`);
      if ((await childRunning(workDir)) && (await accepts(port))) break;
      if (Date.now() > deadline) throw failed(`did not start listening at ${url}`);
      await sleep(100);
    }
    if (options.waitForHealthy ?? true) {
      for (;;) {
        const health = await backendHealth(workDir);
        const sick = Object.entries(health).filter(([, healthy]) => !healthy);
        if (sick.length === 0) break;
        if (ended) throw failed('ended');
        if (Date.now() > deadline)
          throw failed(
            `started, but ${sick.map(([name]) => name).join(', ')} did not pass the health probe (GET /api/health/ready answering 200) of ${options.backends.join(', ')}`,
          );
        await sleep(200);
      }
    }
    return varnish;
  } catch (err) {
    // `dir` is removed by the caller (or the next attempt reuses it): only the process is ended here.
    if (!ended) child.kill('SIGTERM');
    await exited;
    throw err;
  }
}
