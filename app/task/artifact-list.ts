// The artifacts a task's agent emitted (ARTUI-1), folded from the task's bus events
// (`task.timeline` plus the live ones): each `artifact_emitted` that passes the wire
// schema, newest first, one entry per artifact id. Pure, unit-tested.
import { ArtifactEmitted } from '../../protocol/bus/mcp-events';
import type { TimelineItem } from './timeline';

export type EmittedArtifact = import('zod/mini').infer<typeof ArtifactEmitted>;

export function artifactsOf(items: TimelineItem[], task: string): EmittedArtifact[] {
  const byId = new Map<string, EmittedArtifact>();
  for (const item of items) {
    if (item.kind !== 'bus' || item.event.event !== 'artifact_emitted') continue;
    const parsed = ArtifactEmitted.safeParse(item.event);
    if (!parsed.success || parsed.data.task !== task) continue;
    byId.delete(parsed.data.artifact); // a repeated id moves to where it was seen last
    byId.set(parsed.data.artifact, parsed.data);
  }
  return [...byId.values()].reverse();
}

/** What the person reads as the artifact's name: its title, else the file's own name. */
export function artifactName(a: EmittedArtifact): string {
  const title = a.title?.trim();
  return title ? title : a.path.split('/').pop() || a.path;
}

/** A file name safe to offer for a download: no path, no control or shell-hostile characters. */
export function downloadName(a: EmittedArtifact): string {
  const base = (a.path.split('/').pop() ?? '').replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return base || 'artifact';
}

/** "512 bytes", "3.4 KB", "1.2 MB" (1 KB = 1024 bytes). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export const KIND_LABEL: Record<EmittedArtifact['kind'], string> = { image: 'Image', markdown: 'Markdown', text: 'Text', file: 'File' };
