// A policy loader that keeps what it parsed (FAST-2): the relay's fast path answers many tool
// calls a second, so each layer file is parsed again only when its size, mtime or inode
// changed (checked with one stat per layer per call) — an edit to any layer applies at once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadPolicy, PROJECT_POLICY, USER_POLICY, type PolicyPlaces } from '../../policy/load';
import type { Policy } from '../../policy/policy';

const MAX_ENTRIES = 64;

function stamp(file: string | undefined): string {
  if (!file) return '-';
  try {
    const s = fs.statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error';
  }
}

/** `loadPolicy` with a cache keyed by the places and the layer files' stamps; errors are never cached. */
export function cachedPolicyLoader(load: (places: PolicyPlaces) => Policy = loadPolicy): (places: PolicyPlaces) => Policy {
  const cache = new Map<string, Policy>();
  return (places) => {
    const files = [places.defaultFile, places.home && path.join(places.home, USER_POLICY), places.repo && path.join(places.repo, PROJECT_POLICY)];
    const key = JSON.stringify([places, files.map((f) => stamp(f || undefined))]);
    const hit = cache.get(key);
    if (hit) return structuredClone(hit);
    const policy = load(places);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, policy);
    return structuredClone(policy);
  };
}
