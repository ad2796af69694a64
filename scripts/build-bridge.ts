/**
 * `npm run build:bridge`: the SSH bridge as one file, `dist/keyproof-bridge.mjs`, which runs with
 * a plain `node` (20 or later) and no node_modules: what `npm start` runs, and what is deployed.
 * ssh2's optional native parts (its C++ crypto binding, cpu-features) are left out; ssh2 falls
 * back to Node's own crypto without them, as it is built to.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import { BRIDGE_BUNDLE, ROOT } from "./local-dev.ts";

/**
 * Code the bridge carries but never runs, left out to keep its resting memory down (measured by
 * bench/bridge-memory.ts: about 4 MB of RSS): zod's translations of its messages into 60
 * languages (the bridge never calls `z.config(z.locales...)`; English stays), and the
 * OpenTelemetry API that prom-client loads only for exemplars, which the bridge does not enable.
 */
const leaveOutUnused: Plugin = {
  name: "leave-out-unused",
  setup(esbuild) {
    esbuild.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/][a-zA-Z-]+\.js$/ }, (args) =>
      /[\\/](en|index)\.js$/.test(args.path)
        ? undefined
        : { contents: "export default () => ({ localeError: () => undefined });" },
    );
    esbuild.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({
      path: "@opentelemetry/api",
      namespace: "left-out",
    }));
    esbuild.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({
      contents: "module.exports = {};",
    }));
  },
};

export async function buildBridge(outfile = BRIDGE_BUNDLE): Promise<string> {
  await build({
    entryPoints: [join(ROOT, "ssh-bridge", "src", "main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Readable as shipped: a stack trace or a crash line in the journal names the real functions,
    // and the source map beside the bundle turns its positions into the sources' lines. Only
    // whitespace is minified: V8 keeps the bundle's source in memory, and 0.35 MB less of it is
    // 1 MB less of the bridge's RSS at rest (bench/bridge-memory.ts).
    sourcemap: "linked",
    minifyWhitespace: true,
    external: ["cpu-features", "*.node"],
    plugins: [leaveOutUnused],
    // ssh2 is CommonJS: it requires Node's modules (and its optional ones) at run time, and
    // looks for its native binding next to itself.
    banner: {
      js: [
        'import { createRequire as __keyproofRequire } from "node:module";',
        'import { dirname as __keyproofDirname } from "node:path";',
        'import { fileURLToPath as __keyproofPath } from "node:url";',
        "const require = __keyproofRequire(import.meta.url);",
        "const __filename = __keyproofPath(import.meta.url);",
        "const __dirname = __keyproofDirname(__filename);",
      ].join(" "),
    },
    legalComments: "none",
    logLevel: "warning",
  });
  // V8 keeps the bundle's source in memory, one byte a character only if every character is
  // Latin-1: one em dash left in a kept comment doubles it (1.3 MB more at rest, measured by
  // bench/bridge-memory.ts). esbuild escapes strings and regexes already; comments are left.
  const source = readFileSync(outfile, "utf8");
  const ascii = source.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  if (ascii !== source) writeFileSync(outfile, ascii);
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outfile = await buildBridge();
  console.log(`built ${outfile}`);
}
