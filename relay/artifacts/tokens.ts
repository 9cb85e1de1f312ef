// Short-lived capability URLs for artifacts (ARTIFACT-4): an authenticated device
// asks `artifact.open` and gets `/api/artifacts?t=<random>`; the URL works for
// TOKEN_MS and names nothing (no path, no task). One store per relay.
import * as crypto from 'node:crypto';
import type { ArtifactKind } from '../../protocol/bus/mcp-events';

export const TOKEN_MS = 5 * 60 * 1000;
const MAX_TOKENS = 1000;

export interface ArtifactGrant {
  worktree: string;
  path: string;
  digest: string;
  kind: ArtifactKind;
  mime: string;
  name: string;
  device: string;
  expires: number;
}

const stores = new WeakMap<object, Map<string, ArtifactGrant>>();

function storeOf(owner: object): Map<string, ArtifactGrant> {
  let store = stores.get(owner);
  if (!store) stores.set(owner, (store = new Map()));
  return store;
}

export function grantToken(owner: object, grant: ArtifactGrant, now = Date.now()): string {
  const store = storeOf(owner);
  for (const [token, g] of store) if (g.expires <= now || store.size >= MAX_TOKENS) store.delete(token);
  const token = crypto.randomBytes(32).toString('base64url');
  store.set(token, grant);
  return token;
}

export function redeemToken(owner: object, token: string, now = Date.now()): ArtifactGrant | undefined {
  const store = storeOf(owner);
  const grant = store.get(token);
  if (!grant) return undefined;
  if (grant.expires <= now) {
    store.delete(token);
    return undefined;
  }
  return grant;
}
