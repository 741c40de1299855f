// `npx tsx bench/compare-commits.ts <base checkout> [rounds] [suite…]`: runs the given bench suites in a checkout of
// an earlier commit and in this one, alternating round by round (so a noisy moment on a shared machine hits both),
// and prints, per figure, the median of the per-round ratios this/base. Times: above 1 is slower; rates
// (per second) are inverted so that above 1 is slower too. Writes bench/results/compare.json.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

type Figures = Record<string, number>;

const here = path.resolve(import.meta.dirname, "..");
const [baseDir, roundsArg, ...suites] = process.argv.slice(2);
if (!baseDir) throw new Error("usage: compare-commits.ts <base checkout> [rounds] [suite…]");
const rounds = Number(roundsArg ?? 3);
const chosen = suites.length > 0 ? suites : ["append", "permission", "history", "search", "approval"];

/**
 * Numeric leaves of a bench report that measure something: a time or a rate by the leaf's own name (not the
 * path's: `sizes[0].stepMsMedian` is a time), not a target, a floor, a count, a size or a seeding time.
 */
export function figures(value: unknown, prefix = ""): Figures {
  const out: Figures = {};
  const leaf = prefix.split(".").at(-1) ?? "";
  if (typeof value === "number") {
    const measured = /ms|micros|millis|seconds?|persecond|p50|p95|p99|median|slowdown/i.test(leaf);
    if (measured && !/target|floor|count|events|sessions|rules|grants|files|bytes|size|seed/i.test(leaf))
      out[prefix] = value;
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => Object.assign(out, figures(v, `${prefix}[${i}]`)));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) Object.assign(out, figures(v, prefix ? `${prefix}.${k}` : k));
  }
  return out;
}

function run(dir: string, suite: string): Figures {
  const r = spawnSync(
    process.execPath,
    ["--expose-gc", "--conditions=react-server", "--import", "tsx", "bench/run.ts", suite],
    {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`bench ${suite} failed in ${dir}`);
  const report = JSON.parse(fs.readFileSync(path.join(dir, "bench", "results", "latest.json"), "utf8")) as {
    results: Record<string, unknown>;
  };
  return figures(report.results[suite], suite);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const ratios: Record<string, number[]> = {};
for (let round = 0; round < rounds; round++) {
  for (const suite of chosen) {
    // Alternate which side runs first, so neither always gets the warmer machine.
    const order = round % 2 === 0 ? [baseDir, here] : [here, baseDir];
    const [first, second] = order.map((d) => run(d as string, suite));
    const base = (order[0] === baseDir ? first : second) as Figures;
    const head = (order[0] === baseDir ? second : first) as Figures;
    for (const [key, b] of Object.entries(base)) {
      const h = head[key];
      if (h === undefined || b === 0 || h === 0) continue;
      const ratio = /persecond/i.test(key) ? b / h : h / b;
      (ratios[key] ??= []).push(ratio);
    }
    process.stderr.write(`compare: round ${round + 1}/${rounds} ${suite} done\n`);
  }
}

const summary = Object.fromEntries(
  Object.entries(ratios).map(([k, xs]) => [
    k,
    { medianRatio: Number(median(xs).toFixed(3)), rounds: xs.map((x) => Number(x.toFixed(3))) },
  ]),
);
const out = path.join(here, "bench", "results", "compare.json");
fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), base: baseDir, rounds, summary }, null, 2));
console.log(JSON.stringify(summary, null, 2));
