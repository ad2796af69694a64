import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";

const keyDir = mkdtempSync(join(tmpdir(), "keyproof-userkeys-"));
let counter = 0;

export interface UserKey {
  path: string;
  publicKey: string;
  sha256: string;
}

/** A fresh key pair made by ssh-keygen, with its fingerprint as ssh-keygen prints it. */
export function makeKey(
  type: "ed25519" | "ecdsa" | "rsa" | "dsa" = "ed25519",
  bits?: number,
): UserKey {
  const path = join(keyDir, `key-${counter++}-${type}${bits ?? ""}`);
  execFileSync("ssh-keygen", [
    "-q",
    "-t",
    type,
    ...(bits ? ["-b", String(bits)] : []),
    "-N",
    "",
    "-C",
    "",
    "-f",
    path,
  ]);
  const sha256 =
    execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${path}.pub`], {
      encoding: "utf8",
    }).split(" ")[1] ?? "";
  return { path, publicKey: readFileSync(`${path}.pub`, "utf8").trim(), sha256 };
}

export interface CertificateOptions {
  id?: string;
  principals?: string[];
  /** `ssh-keygen -V`: e.g. `-1h:+1h`, or `20200101000000Z:20200102000000Z`; none means forever. */
  validity?: string;
  serial?: string;
  /** A host certificate (`-h`) instead of a user certificate. */
  host?: boolean;
  /** Certificate options (`-O`), e.g. `force-command=uptime`. */
  options?: string[];
}

/**
 * Signs `key` with the CA `ca` (`ssh-keygen -s`), writing `<key>-cert.pub` beside it, where `ssh`
 * finds and offers it by itself. Returns the certificate line.
 */
export function certify(key: UserKey, ca: UserKey, options: CertificateOptions = {}): string {
  execFileSync("ssh-keygen", [
    "-q",
    "-s",
    ca.path,
    "-I",
    options.id ?? "keyproof-test",
    ...(options.principals ? ["-n", options.principals.join(",")] : []),
    ...(options.validity ? ["-V", options.validity] : []),
    ...(options.serial ? ["-z", options.serial] : []),
    ...(options.host ? ["-h"] : []),
    ...(options.options ?? []).flatMap((option) => ["-O", option]),
    `${key.path}.pub`,
  ]);
  return readFileSync(`${key.path}-cert.pub`, "utf8").trim();
}

export interface SshResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SshOptions {
  port: number;
  user: string;
  keys?: UserKey[];
  /** Use keys from this ssh-agent instead of files. */
  agentSocket?: string;
  pty?: boolean;
  /** Written to ssh's stdin (after `inputDelayMs`); stdin stays open until then. */
  input?: string;
  inputDelayMs?: number;
  /** Keep stdin open without writing (a silent user). */
  silent?: boolean;
  extraArgs?: string[];
  /** A command for the server to run, after the destination. */
  command?: string[];
  /** Where to connect: 127.0.0.1 unless given (`::1` for IPv6). */
  host?: string;
  /** A known_hosts file the server's host key must be in (StrictHostKeyChecking=yes). */
  knownHosts?: string;
  timeoutMs?: number;
}

/** The OpenSSH client's arguments for `options`, as runSsh passes them. */
export function sshArgs(options: Omit<SshOptions, "input" | "inputDelayMs" | "silent">): string[] {
  return [
    "-p",
    String(options.port),
    "-F",
    "/dev/null",
    "-o",
    `StrictHostKeyChecking=${options.knownHosts ? "yes" : "no"}`,
    "-o",
    `UserKnownHostsFile=${options.knownHosts ?? "/dev/null"}`,
    // Default LogLevel: OpenSSH hides USERAUTH_BANNER below INFO. No BatchMode by default: users
    // run ssh without it (batch-mode.test.ts runs it with).
    "-o",
    "ConnectTimeout=10",
    ...(options.agentSocket ? [] : ["-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none"]),
    ...(options.keys ?? []).flatMap((key) => ["-i", key.path]),
    ...(options.pty ? ["-tt"] : ["-T"]),
    ...(options.extraArgs ?? []),
    `${options.user}@${options.host ?? "127.0.0.1"}`,
    ...(options.command ?? []),
  ];
}

/** Runs the real OpenSSH client against the bridge. */
export function runSsh(options: SshOptions): Promise<SshResult> {
  const child = spawn("ssh", sshArgs(options), {
    env: { ...process.env, SSH_AUTH_SOCK: options.agentSocket ?? "" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  return collect(child, options);
}

function collect(child: ChildProcess, options: SshOptions): Promise<SshResult> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (data) => (stdout += data));
    child.stderr?.on("data", (data) => (stderr += data));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
    if (options.input !== undefined) {
      setTimeout(() => child.stdin?.end(options.input), options.inputDelayMs ?? 300);
    } else if (!options.silent) {
      child.stdin?.end();
    }
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Agent {
  socket: string;
  add(key: UserKey): void;
  stop(): void;
}

/** A real ssh-agent holding the given keys. */
export function startAgent(keys: UserKey[]): Agent {
  const socket = join(mkdtempSync(join(tmpdir(), "keyproof-agent-")), "agent.sock");
  const output = execFileSync("ssh-agent", ["-a", socket, "-s"], { encoding: "utf8" });
  const pid = Number(output.match(/SSH_AGENT_PID=(\d+)/)?.[1]);
  const agent: Agent = {
    socket,
    add: (key) =>
      execFileSync("ssh-add", [key.path], {
        env: { ...process.env, SSH_AUTH_SOCK: socket },
        stdio: "ignore",
      }),
    stop: () => process.kill(pid),
  };
  for (const key of keys) agent.add(key);
  return agent;
}

/**
 * Logs in with the ssh2 client library, for what OpenSSH will not send (a hostile version line,
 * a hand-made request), and hangs up once in. Resolves when the connection is over, however.
 */
export function ssh2Login(
  config: ssh2.ConnectConfig,
  client: ssh2.Client = new ssh2.Client(),
): Promise<void> {
  return new Promise((resolve) => {
    client
      .on("ready", () => client.end())
      .on("error", () => resolve())
      .on("close", () => resolve())
      .on("keyboard-interactive", (_name, _instructions, _lang, _prompts, finish) => finish([]))
      .connect({ host: "127.0.0.1", readyTimeout: 10_000, ...config });
  });
}
