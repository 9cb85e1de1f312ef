// A fast path for the front matter nearly every packet has — `key: scalar` and
// `key: [a, b]` / `- item` lists. Anything outside that small subset returns
// undefined and goes to the real YAML parser, so results never differ from it.

export type SimpleValue = string | string[];

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
const PLAIN = /^[A-Za-z0-9_./][A-Za-z0-9_./*+=~()-]*(?: [A-Za-z0-9_./*+=~()-]+)*$/;
const DOUBLE = /^"([^"\\]*)"$/;
const SINGLE = /^'([^']*)'$/;
const ITEM = /^( *)- +(.*)$/;

/** A scalar the subset understands (failsafe: always a string), else undefined. */
function scalar(text: string): string | undefined {
  if (PLAIN.test(text)) return text;
  return DOUBLE.exec(text)?.[1] ?? SINGLE.exec(text)?.[1];
}

function flowList(text: string): string[] | undefined {
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const items: string[] = [];
  for (const part of inner.split(',')) {
    const value = scalar(part.trim());
    if (value === undefined) return undefined;
    items.push(value);
  }
  return items;
}

function value(text: string): SimpleValue | undefined {
  return text.startsWith('[') && text.endsWith(']') ? flowList(text) : scalar(text);
}

/** Parses `yaml` if it stays inside the subset; undefined means "ask the YAML library". */
export function parseSimpleFrontMatter(yaml: string): Record<string, SimpleValue> | undefined {
  if (yaml.includes('\t')) return undefined;
  const out: Record<string, SimpleValue> = {};
  let list: string[] | undefined;
  /** The indentation of the current list's first item: every other item must have exactly it. */
  let indent = -1;
  for (const raw of yaml.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line === '' || /^ *#/.test(line)) continue;
    const item = list ? ITEM.exec(line) : null;
    if (item) {
      // Ragged items are an error or a nested/continued value in YAML: leave them to the library (PACKET-2).
      if (list!.length === 0) indent = item[1]!.length;
      else if (item[1]!.length !== indent) return undefined;
      const v = scalar(item[2]!);
      if (v === undefined) return undefined;
      list!.push(v);
      continue;
    }
    const match = KEY.exec(line);
    if (!match || Object.hasOwn(out, match[1]!) || (list && list.length === 0)) return undefined;
    list = undefined;
    if (match[2] === undefined) {
      list = [];
      out[match[1]!] = list;
      continue;
    }
    const v = value(match[2]);
    if (v === undefined) return undefined;
    out[match[1]!] = v;
  }
  return list && list.length === 0 ? undefined : out;
}
