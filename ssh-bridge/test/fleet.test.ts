import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLIENT_BUDGET, haproxyBinary, haproxyServers } from "../../scripts/fleet.ts";
import { ROOT } from "../../scripts/local-dev.ts";
import { seedProject } from "../../test-support/local-worker.ts";
import { type RunningStack, startStack } from "../../test-support/npm-start.ts";
import { apiClient } from "./helpers/api.ts";
import { makeKey, runSsh, type SshOptions } from "./helpers/ssh.ts";

/**
 * `BRIDGES=2 npm start` runs real HAProxy (PROXY v2, /readyz health checks) in front
 * of two bridges, and real OpenSSH clients prove through it while one bridge drains.
 */

const RUNNING = /keyproof is running\./;
const stacks: RunningStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A counter of a bridge's /metrics, 0 when the series is absent. */
async function metric(healthUrl: string, series: RegExp): Promise<number> {
  const text = await (await fetch(`${healthUrl}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => series.test(line))
    .reduce((sum, line) => sum + Number(line.split(" ").pop()), 0);
}

/** Whether a TCP connection from `localAddress` is greeted as SSH, through the balancer. */
function greetsFrom(localAddress: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress });
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("SSH-2.0-"));
    });
    socket.on("error", () => resolve(false));
    socket.on("close", () => resolve(false));
  });
}

describe("a fleet of bridges behind HAProxy (BRIDGES=2 npm start)", () => {
  it("ships a balancer configuration HAProxy accepts", () => {
    const haproxy = haproxyBinary();
    expect(haproxy, "HAProxy must be installed (.ci/run installs it)").not.toBeNull();
    const check = execFileSync(
      haproxy ?? "haproxy",
      ["-c", "-f", join(ROOT, "deploy", "haproxy.cfg")],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    expect(check).toMatch(/Configuration file is valid/);
    const config = readFileSync(join(ROOT, "deploy", "haproxy.cfg"), "utf8");
    expect(config).toMatch(/send-proxy-v2/);
    expect(config).toMatch(/option httpchk GET \/readyz/);
    // One budget per client for the fleet, as `npm start`'s balancer has it.
    for (const line of CLIENT_BUDGET) expect(config).toContain(line);
    // Above a bridge's longest connection (180 s): the balancer never cuts one the bridge keeps.
    expect(Number(/timeout client (\d+)s/.exec(config)?.[1])).toBeGreaterThan(180);
    expect(Number(/timeout server (\d+)s/.exec(config)?.[1])).toBeGreaterThan(180);
  });

  it("proves through the balancer while one bridge drains and comes back, losing none", async () => {
    const stack = await startStack({
      env: { BRIDGES: "2", DRAIN_SECONDS: "30", DRAIN_NOTICE_SECONDS: "2" },
    });
    stacks.push(stack);
    await stack.printed(RUNNING);
    const bridges = [
      ...stack.output().matchAll(/(bridge-\d) {2}pid (\d+) {2}(http:\/\/\S+)\/readyz/g),
    ].map((match) => ({ id: match[1] ?? "", pid: Number(match[2]), health: match[3] ?? "" }));
    expect(bridges.map((bridge) => bridge.id)).toEqual(["bridge-1", "bridge-2"]);
    const [first, second] = bridges as [(typeof bridges)[number], (typeof bridges)[number]];
    const statsSocket = join(stack.stateDir, "haproxy", "haproxy.sock");
    expect(Object.fromEntries(await haproxyServers(statsSocket))).toEqual({
      "bridge-1": "UP",
      "bridge-2": "UP",
    });

    // Every connection must see the one host key set: ssh refuses any other.
    const hostKeyDir = join(stack.stateDir, "host-keys");
    const knownHosts = join(stack.stateDir, "known_hosts");
    const hostKeys = readdirSync(hostKeyDir)
      .filter((name) => name.endsWith(".pub"))
      .map((name) =>
        readFileSync(join(hostKeyDir, name), "utf8").trim().split(" ").slice(0, 2).join(" "),
      );
    expect(hostKeys.length).toBeGreaterThan(0);
    writeFileSync(
      knownHosts,
      hostKeys
        .flatMap((key) => [`[127.0.0.1]:${stack.sshPort} ${key}`, `[::1]:${stack.sshPort} ${key}`])
        .join("\n"),
    );

    const { apiKey } = await seedProject({ persistTo: stack.stateDir });
    const api = apiClient(stack.url, apiKey);
    const key = makeKey("ed25519");
    const ssh = (identifier: string, options: Partial<SshOptions> = {}) =>
      runSsh({ port: stack.sshPort, user: identifier, keys: [key], knownHosts, ...options });
    /** One whole proof: a session, `ssh` to it, and the session completed. */
    const prove = async (options: Partial<SshOptions> = {}) => {
      const session = await api.createSession("collect");
      const result = await ssh(session.connection_identifier, options);
      const after = await api.getSession("collect", session.id);
      return { result, after };
    };

    // The user's own address survives the balancer, IPv4 and IPv6.
    const from127002 = await prove({ extraArgs: ["-b", "127.0.0.2"] });
    expect(from127002.result.stderr).not.toMatch(
      /REMOTE HOST IDENTIFICATION|Host key verification/,
    );
    expect(from127002.result.code).toBe(0);
    expect(from127002.after.connections[0]?.ip_address).toBe("127.0.0.2");
    const overIpv6 = await prove({ host: "::1" });
    expect(overIpv6.result.code).toBe(0);
    expect(overIpv6.after.connections[0]?.ip_address).toBe("::1");

    // The drained bridge's own connection: at the confirmation prompt when the signal comes, and
    // answered after the bridge stopped accepting (2 s of notice). Two start together; the
    // balancer (least connections) usually gives one to each bridge, but a connection it still
    // counts on one of them can send both to the other, so the bridge drained is one that holds
    // a connection at the prompt.
    const waiting = await Promise.all([
      api.createSession("collect", { must_confirm: true }),
      api.createSession("collect", { must_confirm: true }),
    ]);
    const confirmations = waiting.map((session) =>
      ssh(session.connection_identifier, { input: "y\n", inputDelayMs: 6_000 }),
    );
    await sleep(2_000);
    const active = /^keyproof_bridge_connections_active/;
    const openOnFirst = await metric(first.health, active);
    expect(openOnFirst + (await metric(second.health, active))).toBe(2);
    const [drained, other] = openOnFirst > 0 ? [first, second] : [second, first];
    process.kill(drained.pid, "SIGTERM");

    // Proofs go on while the bridge drains and until it is back: none may fail. Three users,
    // each from an address of its own and at most 4 a second: the balancer's budget of 120 new
    // connections a minute per address (asserted at the end) must not be what refuses one.
    const proofs: Awaited<ReturnType<typeof prove>>[] = [];
    let back = false;
    const backAgain = stack
      .printed(new RegExp(`${drained.id} started again \\(pid (\\d+)\\)`), 60_000)
      .then(() => (back = true));
    await Promise.all(
      ["127.0.1.1", "127.0.1.2", "127.0.1.3"].map(async (address) => {
        while (!back) {
          const paced = sleep(250);
          proofs.push(await prove({ extraArgs: ["-b", address] }));
          await paced;
        }
      }),
    );
    await backAgain;
    for (const { result, after } of proofs) {
      expect(result.stderr).not.toMatch(/Connection (refused|closed|reset)|Host key/);
      expect(result.code, result.stderr).toBe(0);
      expect(after.status).toBe("completed");
    }
    expect(proofs.length).toBeGreaterThan(3);

    // The connection in progress on the draining bridge finished as if nothing happened.
    for (const [i, result] of (await Promise.all(confirmations)).entries()) {
      expect(result.stdout).toContain("Collected 1 key");
      expect((await api.getSession("collect", waiting[i]?.id ?? "")).status).toBe("completed");
    }
    expect(stack.output()).toMatch(
      new RegExp(`${drained.id} connection closed .*outcome=collected`),
    );

    // The balancer takes it back within 30 s, and sends it users again.
    const restartedAt = Date.now();
    for (;;) {
      const servers = await haproxyServers(statsSocket);
      if (servers.get(drained.id) === "UP") break;
      expect(Date.now() - restartedAt).toBeLessThan(30_000);
      await sleep(250);
    }
    const collected = /^keyproof_bridge_connections_total\{.*outcome="collected"/;
    for (let i = 0; (await metric(drained.health, collected)) === 0; i++) {
      expect(i, `the restarted ${drained.id} served no one`).toBeLessThan(12);
      const { result } = await prove();
      expect(result.code, result.stderr).toBe(0);
    }
    expect(await metric(other.health, collected)).toBeGreaterThan(0);
    // Each bridge names itself in its metrics.
    expect(await (await fetch(`${second.health}/metrics`)).text()).toMatch(/bridge="bridge-2"/);

    // Only HAProxy may speak for a client: a PROXY header sent straight to a bridge from
    // anyone else is refused before SSH starts.
    const internalPort = Number(
      /server bridge-2 127\.0\.0\.1:(\d+)/.exec(
        readFileSync(join(stack.stateDir, "haproxy", "haproxy.cfg"), "utf8"),
      )?.[1],
    );
    const spoofed = await new Promise<string>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port: internalPort, localAddress: "127.0.0.2" });
      let received = "";
      socket.on("data", (data) => (received += data.toString("latin1")));
      socket.on("close", () => resolve(received));
      socket.on("error", () => undefined);
      socket.write("PROXY TCP4 203.0.113.9 127.0.0.1 40000 22\r\nSSH-2.0-OpenSSH_9.6\r\n");
      setTimeout(() => socket.destroy(), 10_000);
    });
    expect(spoofed).not.toContain("SSH-2.0");
    expect(
      await metric(
        second.health,
        /^keyproof_bridge_connections_total\{.*outcome="untrusted_proxy_header"/,
      ),
    ).toBe(1);

    // A bridge that dies (kill -9) is started again; the other serves meanwhile.
    process.kill(other.pid, "SIGKILL");
    await stack.printed(new RegExp(`${other.id} stopped \\(SIGKILL\\); starting it again\\.`));
    const meanwhile = await prove();
    expect(meanwhile.result.code, meanwhile.result.stderr).toBe(0);
    await stack.printed(new RegExp(`${other.id} started again`), 30_000);
    expect(stack.output()).not.toMatch(/stopping everything/);

    // One budget per client for the whole fleet: from one address, 120 new
    // connections a minute get an SSH greeting, whichever bridge each reaches; the rest none.
    let greeted = 0;
    for (let i = 0; i < 125; i++) if (await greetsFrom("127.0.0.3", stack.sshPort)) greeted += 1;
    expect(greeted).toBe(120);
  }, 240_000);
});
