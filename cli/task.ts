// `commandr task new <id> --scope GLOB --title TEXT [--type T] [--context TEXT]
// [--criterion TEXT…] [--file PATH…] [--blocked-by ID…] [--repo DIR]`: writes one
// complete packet into the repo's inbox (CLIUX-1), validated as `claim` will read it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { BusError } from '../bus/errors';
import { createFileExclusive } from '../bus/fs-atomic';
import { assertBus, assertTaskId, listPackets, parseClaimedName, readPacketFile } from '../bus/layout';
import { locateBus } from '../bus/locate';
import { parsePacket } from '../bus/packet';
import { PACKET_TYPES, PacketType } from '../protocol/bus/packet';
import { UsageError, runTool } from './_shared/tool';

const USAGE = `usage: commandr task new <task-id> --scope <glob> --title <text> [--type ${PACKET_TYPES.join('|')}]
         [--context <text>] [--criterion <text>…] [--file <path>…] [--blocked-by <task-id>…] [--repo <dir>]`;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export interface NewPacket {
  id: string;
  type: PacketType;
  scope: string;
  title: string;
  context: string;
  criteria: string[];
  files: string[];
  blockedBy: string[];
}

/** The packet's text: front matter (values JSON-quoted, so YAML reads them verbatim) and the four sections. */
export function packetText(p: NewPacket): string {
  const list = (items: string[], none: string): string => (items.length > 0 ? items.map((i) => `- ${i}`).join('\n') : `- ${none}`);
  return [
    '---',
    `id: ${JSON.stringify(p.id)}`,
    `type: ${p.type}`,
    `scope: ${JSON.stringify(p.scope)}`,
    ...(p.blockedBy.length > 0 ? [`blocked-by: [${p.blockedBy.map((b) => JSON.stringify(b)).join(', ')}]`] : []),
    '---',
    `# ${p.title}`,
    '',
    '## Context',
    '',
    p.context || '(none given)',
    '',
    '## Acceptance criteria',
    '',
    list(p.criteria, 'to be written'),
    '',
    '## Files to touch',
    '',
    list(p.files, `anything matching \`${p.scope}\``),
    '',
    '## Do not touch',
    '',
    '- .agents/',
    '',
  ].join('\n');
}

function oneLine(value: string, what: string): string {
  if (value.trim() === '' || CONTROL.test(value)) throw new UsageError(`${what} must be one non-empty line without control characters`);
  return value.trim();
}

/**
 * The packet already using task id `id` in any state (CLIUX-1): its front-matter id
 * is the task id (PACKET-5), never its file name. A packet whose front matter cannot
 * be read counts by its original file name (`<id>.md`, or claimed `host_pid_<id>.md`).
 */
async function taken(bus: string, id: string): Promise<string | undefined> {
  for (const dir of ['inbox', 'claimed', 'done'] as const) {
    for (const name of listPackets(bus, dir)) {
      const file = path.join(bus, dir, name);
      const text = readPacketFile(file);
      if (text === undefined) continue;
      const packet = typeof text === 'string' ? await parsePacket(text, { sections: false }) : undefined;
      if (packet?.ok ? packet.front.id === id : name === `${id}.md` || parseClaimedName(name)?.file === `${id}.md`) return file;
    }
  }
  return undefined;
}

async function taskNew(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args, strict: true, allowPositionals: true,
      options: {
        scope: { type: 'string' }, title: { type: 'string' }, type: { type: 'string' }, context: { type: 'string' },
        criterion: { type: 'string', multiple: true }, file: { type: 'string', multiple: true },
        'blocked-by': { type: 'string', multiple: true }, repo: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('expected exactly one task id');
  const id = positionals[0]!;
  assertTaskId(id);
  if (values.scope === undefined || values.title === undefined) throw new UsageError('--scope and --title are required');
  const type = PacketType.safeParse(values.type ?? 'implementation');
  if (!type.success) throw new UsageError(`--type must be one of ${PACKET_TYPES.join(', ')}`);
  const blockedBy = values['blocked-by'] ?? [];
  for (const b of blockedBy) assertTaskId(b, '--blocked-by id');
  const packet: NewPacket = {
    id, type: type.data, scope: oneLine(values.scope, '--scope'), title: oneLine(values.title, '--title'),
    context: (values.context ?? '').trim(),
    criteria: (values.criterion ?? []).map((c) => oneLine(c, '--criterion')),
    files: (values.file ?? []).map((f) => oneLine(f, '--file')),
    blockedBy,
  };
  const text = packetText(packet);
  const check = await parsePacket(text);
  if (!check.ok || check.front.id !== id || check.missingSections.length > 0) {
    throw new BusError('E_BAD_PACKET', `the packet would not be valid: ${check.ok ? 'sections or id changed' : check.reason}`);
  }
  const bus = locateBus(values.repo ? path.resolve(values.repo) : process.cwd());
  assertBus(bus);
  const existing = await taken(bus, id);
  if (existing) throw new BusError('E_EXISTS', `task ${id} already has a packet: ${existing}`);
  const target = path.join(bus, 'inbox', `${id}.md`);
  createFileExclusive(target, text);
  process.stdout.write(`inbox:${fs.realpathSync(target)}\n`);
  return 0;
}

runTool('commandr task', USAGE, (args) => {
  const [verb, ...rest] = args;
  if (verb !== 'new') throw new UsageError(verb === undefined ? 'missing verb (new)' : `unknown verb ${JSON.stringify(verb)}`);
  return taskNew(rest);
});
