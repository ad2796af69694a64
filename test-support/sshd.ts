import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stopWithThisProcess } from "../scripts/process-guard.ts";
import { waitForGreeting } from "./ssh-greeting.ts";

const SSHD = "/usr/sbin/sshd";

export interface Sshd {
  port: number;
  process: ChildProcess;
  /** What sshd logged (LogLevel ERROR): why it refused a login. */
  log: () => string;
  stop: () => void;
}

/**
 * OpenSSH's own sshd on 127.0.0.1, accepting public-key logins for `authorizedKeys` (lines as in
 * authorized_keys, options included), with `config` lines added to its sshd_config.
 */
export async function startSshd(options: {
  dir: string;
  port: number;
  authorizedKeys: string[];
  config?: string[];
}): Promise<Sshd> {
  const { dir, port } = options;
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "host_key")]);
  writeFileSync(join(dir, "authorized_keys"), `${options.authorizedKeys.join("\n")}\n`, {
    mode: 0o600,
  });
  writeFileSync(
    join(dir, "sshd_config"),
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host_key")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      "PubkeyAuthentication yes",
      "PermitRootLogin prohibit-password",
      "StrictModes no",
      "MaxStartups 2000",
      "LogLevel ERROR",
      ...(options.config ?? []),
    ].join("\n"),
  );
  // sshd wants its privilege-separation directory, even when it runs unprivileged.
  mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const child = spawn(SSHD, ["-D", "-e", "-f", join(dir, "sshd_config")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  stopWithThisProcess(child, { group: false });
  let log = "";
  child.stderr?.on("data", (data) => (log += data));
  await waitForGreeting(port);
  return { port, process: child, log: () => log, stop: () => child.kill() };
}
