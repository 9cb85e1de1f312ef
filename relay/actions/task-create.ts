// `task.create {repo, packet}` (UX-3): a person starts work from the phone. The
// packet is rendered from typed fields (never pasted YAML), parsed back with the
// bus's own packet parser, and only then created in the repo's inbox/ with an
// exclusive create: a packet appears whole or not at all, never over another.
import * as path from 'node:path';
import type * as z from 'zod/mini';
import { createFileExclusive } from '../../bus/fs-atomic';
import { parsePacket } from '../../bus/packet';
import { CommandrError } from '../../protocol/wire/errors';
import type { NewPacket, TaskCreate } from '../../protocol/wire/frames';
import { hubOf, wireError, type TaskActionContext } from './task-common';

/** The packet file: front matter the bus requires, then the four sections a claim looks for (PACKET-4). */
export function renderPacket(p: NewPacket): string {
  const criteria = p.acceptance.split(/\r?\n/).map((l) => l.trim().replace(/^[-*]\s+/, '')).filter(Boolean);
  return [
    '---',
    `id: ${p.id}`,
    `type: ${p.type}`,
    // A JSON string is a valid YAML double-quoted scalar: a glob like `*` or `{a,b}` stays text.
    `scope: ${JSON.stringify(p.scope)}`,
    '---',
    `# ${p.title}`,
    '',
    '## Context',
    p.context.trim() || '(none given)',
    '',
    '## Acceptance criteria',
    ...(criteria.length > 0 ? criteria.map((c) => `- ${c}`) : ['- (none given)']),
    '',
    '## Files to touch',
    `- ${p.scope}`,
    '',
    '## Do not touch',
    '- .agents/',
    '',
  ].join('\n');
}

export async function taskCreate(ctx: TaskActionContext, f: z.infer<typeof TaskCreate>): Promise<{ task: string; file: string }> {
  const model = hubOf(ctx.services).model(f.repo);
  if (!model) throw new CommandrError('E_UNKNOWN_REPO', `no repo ${f.repo} is watched by this relay`);
  if (model.summary(f.packet.id)) throw new CommandrError('E_CONFLICT', `repo ${model.info.name} already has a task ${f.packet.id}`);
  const text = renderPacket(f.packet);
  const parsed = await parsePacket(text);
  if (!parsed.ok) throw new CommandrError('E_BAD_FRAME', `the packet would be invalid: ${parsed.reason}`);
  if (parsed.front.id !== f.packet.id || parsed.front.scope !== f.packet.scope) {
    throw new CommandrError('E_BAD_FRAME', 'the packet would not read back as written');
  }
  const file = `${f.packet.id}.md`;
  try {
    createFileExclusive(path.join(model.bus, 'inbox', file), text);
  } catch (error) {
    throw wireError(error);
  }
  return { task: f.packet.id, file };
}
