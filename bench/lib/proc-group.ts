// What every process of one process group (a server and anything it keeps running beside it) uses, from /proc.
import fs from "node:fs";

const TICKS = 100; // USER_HZ on Linux
const PAGE_SIZE = 4096;

/** CPU seconds used so far and resident MB now, summed over the group `pgid`. */
export function groupUsage(pgid: number): { cpuSeconds: number; rssMb: number } {
  let ticks = 0;
  let pages = 0;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the name: state(0) ppid(1) pgrp(2) … utime(11) stime(12) … rss(21), in pages.
      if (Number(fields[2]) !== pgid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
      pages += Number(fields[21]);
    } catch {
      // gone meanwhile
    }
  }
  return { cpuSeconds: ticks / TICKS, rssMb: (pages * PAGE_SIZE) / 1024 / 1024 };
}
