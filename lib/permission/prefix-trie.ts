/**
 * Trie over the literal prefix each rule's pattern requires. A rule can only
 * match inputs that start with its prefix, so the rules worth testing for an
 * input are exactly those stored on the input's path from the root. Every
 * node carries that path's payload pre-built, so a lookup is one short walk.
 */
export type TrieNode<T> = {
  /** Children by the first char code of their edge label (< 128). */
  readonly ascii: (TrieNode<T> | undefined)[] | undefined;
  readonly wide: Map<number, TrieNode<T>> | undefined;
  /** Full edge label from the parent, first char included. */
  readonly label: string;
  readonly payload: T;
};

/** Prefixes longer than this share a node; the matchers check the rest. */
export const MAX_DEPTH = 64;

/** `keep` marks anchor nodes that must survive compression. */
type BuildNode = { children: Map<number, BuildNode>; own: number[]; label: string; keep: boolean };

const buildNode = (label: string): BuildNode => ({ children: new Map(), own: [], label, keep: false });

/**
 * Fold chains of single-child, rule-less nodes into one edge label so a
 * lookup does one startsWith per branch point, not one hop per char.
 */
function compress(node: BuildNode): void {
  for (const [code, first] of node.children) {
    let child = first;
    while (child.own.length === 0 && !child.keep && child.children.size === 1) {
      const only: BuildNode = child.children.values().next().value!;
      only.label = child.label + only.label;
      child = only;
    }
    node.children.set(code, child);
    compress(child);
  }
}

function descend(root: BuildNode, path: string): BuildNode {
  let node = root;
  for (let d = 0; d < path.length && d < MAX_DEPTH; d++) {
    const code = path.charCodeAt(d);
    let child = node.children.get(code);
    if (child === undefined) {
      child = buildNode(path.charAt(d));
      node.children.set(code, child);
    }
    node = child;
  }
  return node;
}

export type TrieEntry = { readonly id: number; readonly prefix: string };

/**
 * Entries sit at the node of their (truncated) prefix. `anchors` are extra
 * paths that must exist as nodes so a walk can stop there. `makePayload`
 * receives the ascending ids on a node's path and the node's full path.
 */
export function buildPrefixTrie<T>(
  entries: readonly TrieEntry[],
  anchors: readonly string[],
  makePayload: (ids: readonly number[], path: string) => T,
): TrieNode<T> {
  const root = buildNode("");
  for (const anchor of anchors) descend(root, anchor).keep = true;
  for (const { id, prefix } of entries) descend(root, prefix).own.push(id);
  compress(root);
  return freeze(root, [], "", makePayload);
}

function freeze<T>(
  node: BuildNode,
  inherited: readonly number[],
  path: string,
  makePayload: (ids: readonly number[], path: string) => T,
): TrieNode<T> {
  const ids = node.own.length === 0 ? inherited : [...inherited, ...node.own].sort((a, b) => a - b);
  let ascii: (TrieNode<T> | undefined)[] | undefined;
  let wide: Map<number, TrieNode<T>> | undefined;
  for (const [code, child] of node.children) {
    const frozen = freeze(child, ids, path + child.label, makePayload);
    if (code < 128) {
      // Filled up front so the array stays packed; holey arrays index slower.
      ascii ??= new Array<TrieNode<T> | undefined>(128).fill(undefined);
      ascii[code] = frozen;
    } else {
      wide ??= new Map();
      wide.set(code, frozen);
    }
  }
  return { ascii, wide, label: node.label, payload: makePayload(ids, path) };
}

/**
 * Payload of the deepest node whose full path is a prefix of `input`. A
 * partly matching edge stops the walk: every rule below it needs a prefix
 * the input lacks.
 */
export function lookupPrefix<T>(root: TrieNode<T>, input: string): T {
  let node = root;
  let d = 0;
  for (;;) {
    const code = input.charCodeAt(d);
    let child: TrieNode<T> | undefined;
    if (code < 128) child = node.ascii?.[code];
    else if (code === code) child = node.wide?.get(code); // NaN past the end
    if (child === undefined) return node.payload;
    // The first char already matched via `code`; longer labels must match whole.
    if (child.label.length > 1 && !input.startsWith(child.label, d)) return node.payload;
    node = child;
    d += child.label.length;
  }
}
