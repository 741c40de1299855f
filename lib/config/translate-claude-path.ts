/**
 * Claude Code's Read/Edit path rules follow gitignore: `*` stays inside one folder, `**` crosses folders, a
 * pattern without a slash matches at any depth, and a match on a folder covers everything in it. Plangate's
 * path rules are plain wildcards over the workspace-relative path (absolute outside the workspace) in which
 * `*` also crosses "/". This turns one into a set of the other and says whether the result matches exactly
 * the same paths, or more (`broader`).
 */

export type PathContext = {
  /** Real path of the workspace, POSIX, no trailing slash. */
  workspace: string;
  home: string;
  /** Where a rule starting with a single "/" is rooted: the folder holding `.claude/` (the workspace, or home). */
  settingsRoot: string;
};

export type PathTranslation =
  | { ok: true; patterns: string[]; broader: boolean; outside: boolean }
  | { ok: false; reason: string };

const hasWildcard = (s: string) => s.includes("*") || s.includes("?");
const trimSlash = (p: string) => p.replace(/\\/g, "/").replace(/\/+$/, "");

/**
 * Whether a segment holding wildcards keeps gitignore's meaning once its `*` may cross "/". Only the last
 * segment can, with `*` only at its ends: a trailing `*` ("src/foo*") because the folders it names are covered
 * whole anyway; a leading one ("*.env", "src/**\/*.ts") only where any folders may come before it.
 */
function segmentExact(seg: string, last: boolean, anyDepth: boolean): boolean {
  if (!last || seg.includes("?")) return false;
  if (seg.replace(/^\*/, "").replace(/\*$/, "").includes("*")) return false;
  return seg === "*" || !seg.startsWith("*") || anyDepth;
}

/** Middle `**` segments: zero folders or some ("a/**\/b" → "a/b", "a/*\/b"); the second is dropped when implied. */
function expandGlobstars(segs: string[]): string[][] {
  const at = segs.indexOf("**");
  if (at === -1) return [segs];
  const before = segs.slice(0, at);
  const after = segs.slice(at + 1);
  const rest = expandGlobstars(after);
  const zero = rest.map((r) => [...before, ...r]);
  if ((after[0] ?? "").startsWith("*")) return zero;
  return [...zero, ...rest.map((r) => [...before, "*", ...r])];
}

type Located = { prefix: string; body: string; anchored: boolean; outside: boolean } | { error: string };

function locate(spec: string, ctx: PathContext): Located {
  const ws = trimSlash(ctx.workspace);
  let absolute: string | null = null;
  if (spec.startsWith("//")) absolute = `/${spec.replace(/^\/+/, "")}`;
  else if (spec === "~" || spec.startsWith("~/")) absolute = `${trimSlash(ctx.home)}/${spec.slice(2)}`;
  else if (spec.startsWith("/")) absolute = `${trimSlash(ctx.settingsRoot)}/${spec.replace(/^\/+/, "")}`;
  if (absolute === null) {
    const rel = spec.replace(/^(\.\/)+/, "");
    // A trailing "/" (folders only) does not anchor; any other "/" does.
    return { prefix: "", body: rel, anchored: rel.replace(/\/+$/, "").includes("/"), outside: false };
  }
  absolute = absolute.replace(/\/{2,}/g, "/");
  if (absolute === ws || absolute === `${ws}/`) return { prefix: "", body: "**", anchored: true, outside: false };
  if (absolute.startsWith(`${ws}/`))
    return { prefix: "", body: absolute.slice(ws.length + 1), anchored: true, outside: false };
  const firstWildcard = absolute.search(/[*?]/);
  const literal = firstWildcard === -1 ? absolute : absolute.slice(0, firstWildcard);
  if (`${ws}/`.startsWith(literal)) {
    return {
      error: "its wildcards reach into the workspace, whose files Plangate names by their workspace-relative path",
    };
  }
  const home = trimSlash(ctx.home);
  if (absolute.startsWith(`${home}/`))
    return { prefix: "~/", body: absolute.slice(home.length + 1), anchored: true, outside: true };
  return { prefix: "/", body: absolute.slice(1), anchored: true, outside: true };
}

export function translateClaudePath(rawSpec: string, ctx: PathContext): PathTranslation {
  const spec = rawSpec.trim().replace(/\\/g, "/");
  if (spec === "" || /^(\.\/)*\**$/.test(spec)) return { ok: true, patterns: ["*"], broader: false, outside: false };
  if (/[[\]{}]/.test(spec) || spec.startsWith("!")) {
    return { ok: false, reason: "character classes, braces and negation have no Plangate equivalent" };
  }
  const where = locate(spec, ctx);
  if ("error" in where) return { ok: false, reason: where.error };
  let body = where.body.replace(/\/+$/, "");
  if (body.split("/").includes(".."))
    return { ok: false, reason: "Plangate judges resolved paths, so a pattern with .. never matches" };
  let anyDepth = !where.anchored;
  while (body.startsWith("**/")) {
    body = body.slice(3);
    anyDepth = true;
  }
  if (body === "" || body === "**") {
    return where.prefix === ""
      ? { ok: true, patterns: ["*"], broader: false, outside: false }
      : { ok: true, patterns: [`${where.prefix}*`], broader: false, outside: true };
  }
  // "dir/**": what is inside dir, not dir itself.
  const contentsOnly = body.endsWith("/**");
  if (contentsOnly) body = body.slice(0, -3);
  const segs = body.split("/");
  let broader = false;
  segs.forEach((seg, i) => {
    if (seg === "**" || !hasWildcard(seg)) return;
    const last = i === segs.length - 1;
    const deep = (i === 0 && anyDepth) || segs[i - 1] === "**";
    if (!segmentExact(seg, last, deep)) broader = true;
  });
  const out = new Set<string>();
  for (const variant of expandGlobstars(segs)) {
    const v = variant.join("/");
    const own = contentsOnly ? [`${v}/*`] : v.endsWith("*") ? [v] : [v, `${v}/*`];
    for (const p of own) {
      out.add(where.prefix + p);
      if (anyDepth && where.prefix === "" && !p.startsWith("*")) out.add(`*/${p}`);
    }
  }
  return { ok: true, patterns: [...out], broader, outside: where.outside };
}
