// `node --test` reports in TAP when its output is not a terminal on Node 20 and 22, and in its "spec" form on
// Node 24: the sample's tests are read in either, by the test's name and whether it passed.
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pattern for the line saying that the test `name` passed (or failed), in either of node --test's forms. */
export function nodeTestLine(name: string, passed: boolean): RegExp {
  const n = literal(name);
  return passed
    ? new RegExp(`^(ok \\d+ - ${n}$|\\s*✔ ${n} \\()`, "m")
    : new RegExp(`^(not ok \\d+ - ${n}$|\\s*✖ ${n} \\()`, "m");
}
