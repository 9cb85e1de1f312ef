// A commander's conversation as its log holds it (`commander-logs/<id>.log`, CHAT-1): what the
// agent printed, and lines the relay writes at a line's start — `› ` the person's message,
// `▸ ` one tool activity, `[commandr] ` a notice from the relay — each continued on lines
// indented by two spaces. `SESSION: ` lines are the adapter's and carry nothing for a person.
// Declared once: the relay writes these lines, the app reads them back as a conversation.

export const SAID_MARK = '› ';
export const TOOL_MARK = '▸ ';
export const NOTICE_MARK = '[commandr] ';
const SESSION_LINE = /^SESSION: \S*\s*$/;
const CONTINUED = '  ';

export type ConversationEntry =
  | { kind: 'person'; text: string }
  | { kind: 'commander'; text: string }
  | { kind: 'tool'; summary: string; detail: string }
  | { kind: 'notice'; text: string };

const indent = (text: string) => text.replace(/\r?\n/g, `\n${CONTINUED}`);

/** A relay notice (`[commandr] `), ended by a blank line so no agent line after it can continue it. */
export function noticeLine(text: string): string {
  return `\n${NOTICE_MARK}${indent(text)}\n\n`;
}

/** Put before an agent's line that would start with a relay mark: invisible, and the line is then the agent's. */
export const AGENT_GUARD = '\u200b';
const MARK_START = new Set([SAID_MARK[0], TOOL_MARK[0], NOTICE_MARK[0]]);

/**
 * CHAT-8: an agent's output as the log keeps it. A line of the agent's that starts with the first
 * character of a relay mark (`›`, `▸`, `[`) gets AGENT_GUARD before it, so nothing an agent prints
 * reads back as the person's message, a tool line or a relay notice. `atLineStart`: whether the
 * log so far ends a line (chunks split lines anywhere).
 */
export function guardAgentText(chunk: string, atLineStart: boolean): string {
  let out = '';
  let start = atLineStart;
  for (const ch of chunk) {
    if (start && MARK_START.has(ch)) out += AGENT_GUARD;
    out += ch;
    start = ch === '\n';
  }
  return out;
}

/** The person's turn: `› ` and the text, later lines indented under it. */
export function saidLine(text: string): string {
  return `\n${SAID_MARK}${indent(text)}\n\n`;
}

/** One tool activity (CHAT-3): a one-line summary ("Read app/page.tsx"), what it did indented under it. */
export function toolLine(summary: string, detail = ''): string {
  const head = summary.replace(/\s+/g, ' ').trim() || 'Used a tool';
  const more = detail.trim() === '' ? '' : `\n${CONTINUED}${indent(detail.trimEnd())}`;
  return `\n${TOOL_MARK}${head}${more}\n\n`;
}

/** The log as a conversation: the person's messages, the commander's replies, tool lines, notices. */
export function parseConversation(log: string): ConversationEntry[] {
  const entries: ConversationEntry[] = [];
  // The entry a two-space line continues: the person's message, a tool's detail or a notice.
  let open: { kind: 'person' | 'notice'; lines: string[] } | { kind: 'tool'; summary: string; lines: string[] } | null = null;
  let reply: string[] | null = null;
  const close = () => {
    if (open) {
      if (open.kind === 'tool') entries.push({ kind: 'tool', summary: open.summary, detail: open.lines.join('\n') });
      else entries.push({ kind: open.kind, text: open.lines.join('\n') });
    }
    open = null;
  };
  const endReply = () => {
    const text = reply?.join('\n').trim();
    if (text) entries.push({ kind: 'commander', text });
    reply = null;
  };
  for (const raw of log.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (open && line.startsWith(CONTINUED)) {
      open.lines.push(line.slice(CONTINUED.length));
      continue;
    }
    close();
    if (line.startsWith(SAID_MARK)) {
      endReply();
      open = { kind: 'person', lines: [line.slice(SAID_MARK.length)] };
    } else if (line.startsWith(TOOL_MARK)) {
      endReply();
      open = { kind: 'tool', summary: line.slice(TOOL_MARK.length).trim(), lines: [] };
    } else if (line.startsWith(NOTICE_MARK)) {
      endReply();
      open = { kind: 'notice', lines: [line.slice(NOTICE_MARK.length)] };
    } else if (SESSION_LINE.test(line)) {
      // the adapter's session id: a pointer, not words
    } else {
      (reply ??= []).push(line);
    }
  }
  close();
  endReply();
  return entries;
}
