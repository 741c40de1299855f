/**
 * Wildcard patterns: `*` = any run of characters (slashes and newlines
 * included), `?` = exactly one UTF-16 code unit, everything else literal,
 * anchored at both ends. A trailing " *" is optional, so "git *" also matches
 * a bare "git". Backslashes are read as "/" on both sides so Windows paths
 * match the same rules.
 */
export type Matcher = (input: string) => boolean;

const MAX_CACHE = 10_000;
const cache = new Map<string, CompiledPattern>();

export function normalizeSlashes(s: string): string {
  return s.indexOf("\\") === -1 ? s : s.replace(/\\/g, "/");
}

function hasWildcard(s: string): boolean {
  return s.indexOf("*") !== -1 || s.indexOf("?") !== -1;
}

/** Does `seg` (which may hold `?`) match `s` at offset `at`? */
function segmentAt(s: string, seg: string, at: number): boolean {
  for (let i = 0; i < seg.length; i++) {
    const c = seg.charCodeAt(i);
    if (c !== 63 /* ? */ && c !== s.charCodeAt(at + i)) return false;
  }
  return true;
}

/** Leftmost offset >= from where `seg` matches and ends by `limit`, or -1. */
function findSegment(s: string, seg: string, from: number, limit: number): number {
  if (seg.indexOf("?") === -1) {
    const at = s.indexOf(seg, from);
    return at !== -1 && at + seg.length <= limit ? at : -1;
  }
  for (let at = from; at + seg.length <= limit; at++) {
    if (segmentAt(s, seg, at)) return at;
  }
  return -1;
}

/**
 * General case. Rather than a RegExp (whose backtracking on `.*a.*b.*c` can
 * go polynomial on a long, model-controlled bash command) we place the
 * star-separated segments greedily leftmost, which is exact for globs with
 * only `*` and `?` and runs in O(input × pattern) at worst.
 */
function segmentMatcher(p: string): Matcher {
  const parts = p.split("*");
  const first = parts[0] ?? "";
  if (parts.length === 1) {
    return (s) => s.length === first.length && segmentAt(s, first, 0);
  }
  const last = parts[parts.length - 1] ?? "";
  const middle = parts.slice(1, -1).filter((m) => m.length > 0);
  const minLength = parts.reduce((n, part) => n + part.length, 0);
  return (s) => {
    if (s.length < minLength) return false;
    if (!segmentAt(s, first, 0)) return false;
    const tailAt = s.length - last.length;
    if (!segmentAt(s, last, tailAt)) return false;
    let cursor = first.length;
    for (const seg of middle) {
      const at = findSegment(s, seg, cursor, tailAt);
      if (at === -1) return false;
      cursor = at + seg.length;
    }
    return true;
  };
}

/**
 * Shape of a compiled pattern. The evaluator switches on `kind` in one
 * monomorphic loop instead of calling a different closure per rule.
 */
export const Kind = {
  Any: 0,
  Equal: 1,
  Prefix: 2,
  Suffix: 3,
  Includes: 4,
  /** "literal *": equal to `text`, or starts with `alt` (= text + " "). */
  Command: 5,
  /** "head*tail": starts with `text`, ends with `alt`, long enough for both. */
  Affix: 6,
  General: 7,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

export type CompiledPattern = {
  readonly kind: Kind;
  readonly text: string;
  readonly alt: string;
  readonly test: Matcher;
};

const shape = (kind: Kind, text: string, test: Matcher, alt = ""): CompiledPattern => ({ kind, text, alt, test });

function build(raw: string): CompiledPattern {
  const p = normalizeSlashes(raw);
  if (/^\*+$/.test(p)) return shape(Kind.Any, "", () => true);
  if (!hasWildcard(p)) return shape(Kind.Equal, p, (s) => s === p);
  if (p.endsWith(" *")) {
    const head = p.slice(0, -2);
    if (!hasWildcard(head)) {
      const spaced = head + " ";
      return shape(Kind.Command, head, (s) => s === head || s.startsWith(spaced), spaced);
    }
    const bare = segmentMatcher(head);
    const full = segmentMatcher(p);
    return shape(Kind.General, "", (s) => bare(s) || full(s));
  }
  const body = p.slice(0, -1);
  if (p.endsWith("*") && !hasWildcard(body)) return shape(Kind.Prefix, body, (s) => s.startsWith(body));
  const tail = p.slice(1);
  if (p.startsWith("*") && !hasWildcard(tail)) return shape(Kind.Suffix, tail, (s) => s.endsWith(tail));
  const star = p.indexOf("*");
  const head = p.slice(0, star);
  const rest = p.slice(star + 1);
  if (star > 0 && !hasWildcard(head) && rest.length > 0 && !hasWildcard(rest)) {
    const min = head.length + rest.length;
    return shape(Kind.Affix, head, (s) => s.length >= min && s.startsWith(head) && s.endsWith(rest), rest);
  }
  const inner = p.slice(1, -1);
  if (p.length >= 2 && p.startsWith("*") && p.endsWith("*") && !hasWildcard(inner)) {
    return shape(Kind.Includes, inner, (s) => s.includes(inner));
  }
  return shape(Kind.General, "", segmentMatcher(p));
}

/** Cached compiled form of a pattern, for input that is already slash-normalised. */
export function compilePattern(pattern: string): CompiledPattern {
  let c = cache.get(pattern);
  if (c === undefined) {
    if (cache.size >= MAX_CACHE) cache.clear();
    c = build(pattern);
    cache.set(pattern, c);
  }
  return c;
}

/**
 * Matcher for input that is already slash-normalised. The evaluator
 * normalises an input once and then runs it through many matchers.
 */
export function compileNormalized(pattern: string): Matcher {
  return compilePattern(pattern).test;
}

export function compileWildcard(pattern: string): (input: string) => boolean {
  const m = compileNormalized(pattern);
  return (input) => m(normalizeSlashes(input));
}

export function matchWildcard(pattern: string, input: string): boolean {
  return compileNormalized(pattern)(normalizeSlashes(input));
}

/**
 * The literal text every match must start with: the characters before the
 * first wildcard, not counting an optional trailing " *" (a bare "git"
 * matches "git *", so " " is not required).
 */
export function requiredPrefix(pattern: string): string {
  let p = normalizeSlashes(pattern);
  if (p.endsWith(" *")) p = p.slice(0, -2);
  let end = 0;
  while (end < p.length && p[end] !== "*" && p[end] !== "?") end++;
  return p.slice(0, end);
}

/**
 * Char code every match must end with, or -1 when the pattern can end in a
 * wildcard (including the optional trailing " *"). A one-int prefilter.
 */
export function requiredLastChar(pattern: string): number {
  const p = normalizeSlashes(pattern);
  if (p.length === 0 || p.endsWith(" *")) return -1;
  const c = p.charCodeAt(p.length - 1);
  return c === 42 /* * */ || c === 63 /* ? */ ? -1 : c;
}
