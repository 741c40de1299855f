/**
 * Trie over the literal prefix each rule's pattern requires. A rule can only
 * match inputs that start with its prefix, so the rules worth testing for an
 * input are exactly those stored on the input's path from the root. Every
 * node carries that path's payload pre-built, so a lookup is one short walk.
 */
export type TrieNode<T> = {
  /**
   * First char code of each child's label, beside the children. Nodes have
   * few children (under two on average), so a linear scan of a small int
   * array beats a Map and keeps the trie compact in cache.
   */
  readonly codes: readonly number[];
  readonly kids: readonly TrieNode<T>[];
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
  const codes: number[] = [];
  const kids: TrieNode<T>[] = [];
  for (const [code, child] of node.children) {
    codes.push(code);
    kids.push(freeze(child, ids, path + child.label, makePayload));
  }
  return { codes, kids, label: node.label, payload: makePayload(ids, path) };
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
    const code = input.charCodeAt(d); // NaN past the end: matches no child
    const { codes } = node;
    let child: TrieNode<T> | undefined;
    for (let k = 0; k < codes.length; k++) {
      if (codes[k] === code) {
        child = node.kids[k];
        break;
      }
    }
    if (child === undefined) return node.payload;
    // The first char already matched via `code`; longer labels must match whole.
    if (child.label.length > 1 && !input.startsWith(child.label, d)) return node.payload;
    node = child;
    d += child.label.length;
  }
}
