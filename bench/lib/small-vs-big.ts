import type http from "node:http";
import { request, send } from "./servers";
import { median } from "./stats";

/** One GET's time in ms (the operator's, or with these headers); anything but a 200 (or what `ok` refuses) throws. */
export async function timedGet(
  port: number,
  path: string,
  o: { headers?: http.OutgoingHttpHeaders; ok?: (body: unknown) => boolean } = {},
): Promise<number> {
  const start = performance.now();
  const res = o.headers ? await send(port, "GET", path, { headers: o.headers }) : await request(port, "GET", path);
  if (res.status !== 200 || (o.ok && !o.ok(res.body)))
    throw new Error(`${path} answered ${res.status} with ${JSON.stringify(res.body).slice(0, 200)}`);
  return performance.now() - start;
}

export type SideFigures = { small: number[]; big: number[]; ratio: number[] };

/**
 * Each named request timed on the small side and the big side alternately, `samples` pairs a round: per round, each
 * side's median and big's over small's. Interleaved, so a machine's drift lands on both sides alike.
 */
export async function smallVsBig(
  rounds: number,
  samples: number,
  requests: Record<string, { small: () => Promise<number>; big: () => Promise<number> }>,
): Promise<Record<string, SideFigures>> {
  const out: Record<string, SideFigures> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, side] of Object.entries(requests)) {
      const small: number[] = [];
      const big: number[] = [];
      for (let s = 0; s < samples; s++) {
        small.push(await side.small());
        big.push(await side.big());
      }
      const f = (out[name] ??= { small: [], big: [], ratio: [] });
      f.small.push(median(small));
      f.big.push(median(big));
      f.ratio.push(median(big) / median(small));
    }
  }
  return out;
}
