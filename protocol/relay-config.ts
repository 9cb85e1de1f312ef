// Relay-private files the CLI reads and writes (REACH-n): the relay config kept in
// `<dataDir>/relay-config.json`, and the part of `tailscale status --json` the relay reads.
import * as z from 'zod/mini';

/** `<dataDir>/relay-config.json` (0600): settings `commandr serve` remembers for later runs and `commandr pair`. */
export const RelayConfig = z.object({
  /** The https origin phones use (Tailscale serve, own certificate, reverse proxy); null: none configured. */
  publicOrigin: z.nullable(z.string().check(z.maxLength(2048))),
});
export type RelayConfig = z.infer<typeof RelayConfig>;

/** What the relay reads of `tailscale status --json` (vendor shape; other fields ignored). */
export const TailscaleStatus = z.object({
  BackendState: z.optional(z.string()),
  Self: z.optional(z.object({ DNSName: z.optional(z.string()) })),
});
export type TailscaleStatus = z.infer<typeof TailscaleStatus>;
