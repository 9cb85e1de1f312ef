// Mission packets (PACKET-n): front matter split and validated, body checked
// for the expected sections. The YAML library loads only for front matter the
// fast path (front-matter.ts) does not cover.
import { PACKET_SECTIONS, PacketFrontMatter } from '../protocol/bus/packet';
import { parseSimpleFrontMatter } from './front-matter';
import { issuesText } from './issues';

export type ParsedPacket =
  | { ok: true; front: PacketFrontMatter; body: string; missingSections: string[] }
  | { ok: false; reason: string };

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;
async function loadYaml(): Promise<YamlModule> {
  yamlModule ??= await import('yaml');
  return yamlModule;
}

/** The YAML between a first line `---` and the next line `---`, and the body after it. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return undefined;
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) return undefined;
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) };
}

/** The expected sections (PACKET_SECTIONS) that no markdown heading of `body` names. */
export function missingSections(body: string): string[] {
  const headings = new Set<string>();
  for (const match of body.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#:]*$/gm)) headings.add(match[1]!.trim().toLowerCase());
  return PACKET_SECTIONS.filter((section) => !headings.has(section.toLowerCase()));
}

/**
 * Parses a packet's text. The failsafe schema keeps every scalar a string, so
 * `id: 0042` stays "0042" and nothing is coerced behind the author's back.
 */
export async function parsePacket(text: string, options: { sections?: boolean } = {}): Promise<ParsedPacket> {
  if (text.includes('\0')) return { ok: false, reason: 'not a text file (NUL byte)' };
  const parts = splitFrontMatter(text);
  if (!parts) return { ok: false, reason: 'no YAML front matter (first line `---` and a closing `---`)' };
  let data: unknown = parseSimpleFrontMatter(parts.yaml);
  if (data === undefined) {
    try {
      const yaml = await loadYaml();
      data = yaml.parse(parts.yaml, { schema: 'failsafe' });
    } catch (error) {
      return { ok: false, reason: `front matter is not valid YAML: ${firstLine(error)}` };
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, reason: 'front matter is not a YAML mapping' };
  }
  const checked = PacketFrontMatter.safeParse(data);
  if (!checked.success) return { ok: false, reason: `front matter: ${issuesText(checked.error)}` };
  return { ok: true, front: checked.data, body: parts.body, missingSections: options.sections === false ? [] : missingSections(parts.body) };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
