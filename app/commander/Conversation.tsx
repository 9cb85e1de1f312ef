'use client';
// A commander's conversation as chat bubbles (CHAT-2..4): the log (protocol/commander-transcript.ts)
// read back as the person's messages on the right, the commander's replies on the left with their
// markdown rendered safely (task/markdown.ts: raw HTML shown as text, safe links only), each tool
// activity one line that opens on tap, the relay's notices as small centred lines. The newest
// entry is scrolled into view on open and as the conversation grows. After them, the messages the
// relay has not written yet (QUEUE-5): waiting to send, just sent, or refused.
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { parseConversation, type ConversationEntry } from '../../protocol/commander-transcript';
import { renderMarkdown } from '../task/markdown';
import { COMMANDER_CHAT } from '../lib/words';
import { splitPhotoLines } from '../lib/photo-line';
import { PhotoThumbs } from '../components/PhotoThumbs';
import { PendingBubble } from './PendingBubble';
import { usePendingMessages } from './pending';

export function Conversation({ commander, text, running, onCopyBack }: { commander: string; text: string; running: boolean; onCopyBack(text: string): void }) {
  const entries = useMemo(() => parseConversation(text), [text]);
  const personTexts = useMemo(() => entries.flatMap((e) => (e.kind === 'person' ? [splitPhotoLines(e.text).text.trim()] : [])), [entries]);
  const { pending, forget } = usePendingMessages(commander, personTexts);
  // The page scrolls, the composer stays pinned under the conversation: the newest entry is on
  // screen at the page's end. Followed as it grows unless the person scrolled up to read.
  const following = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      const page = document.scrollingElement ?? document.documentElement;
      following.current = page.scrollHeight - page.scrollTop - page.clientHeight < 120;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  const chat = useRef<HTMLElement>(null);
  // A message the person sends brings them back to the end, even after they scrolled up to read
  // (or opened a tool line far up): their message and the reply to it are what they look at next.
  const said = useRef<number | null>(null);
  useLayoutEffect(() => {
    const mine = personTexts.length + pending.length;
    if (said.current !== null && mine > said.current) following.current = true;
    said.current = mine;
    if (following.current) toEnd();
  }, [entries, personTexts, pending.length, running]);
  useEffect(() => {
    // What lays out later (fonts, a reply's code block, the header) must not push the end under the composer.
    const el = chat.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(() => { if (following.current) toEnd(); });
    watch.observe(el);
    return () => watch.disconnect();
  }, []);
  return (
    <section ref={chat} aria-label={COMMANDER_CHAT.title} className="chat" aria-live="polite" data-testid="cmdr-output">
      {entries.length === 0 && pending.length === 0 && !running ? <p className="muted chat-empty">{COMMANDER_CHAT.empty}</p> : null}
      {entries.map((entry, i) => <Entry key={i} entry={entry} commander={commander} />)}
      {pending.map((p) => <PendingBubble key={p.id} message={p} onCopyBack={() => { forget(p.id); onCopyBack(p.text); }} />)}
      {running ? <p className="chat-working muted" data-testid="cmdr-working">{COMMANDER_CHAT.working}</p> : null}
    </section>
  );
}

function Entry({ entry, commander }: { entry: ConversationEntry; commander: string }) {
  switch (entry.kind) {
    case 'person': {
      // The relay's photo lines (PHOTO-6) show as thumbnails (PHOTO-10), never the path on the relay's machine.
      const { text, photos } = splitPhotoLines(entry.text);
      return (
        <div className="bubble" data-side="person" data-testid="chat-person">
          {text ? <p>{text}</p> : null}
          <PhotoThumbs names={photos} source={{ commander }} testId="chat-thumb" />
        </div>
      );
    }
    case 'commander':
      return <Reply text={entry.text} />;
    case 'tool':
      return <ToolLine summary={entry.summary} detail={entry.detail} />;
    case 'notice':
      return <p className="chat-notice muted" data-testid="chat-notice">{entry.text}</p>;
  }
}

function Reply({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className="bubble prose" data-side="commander" data-testid="chat-commander" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** One tool activity folded into its summary; what it did opens under it (CHAT-3). */
function ToolLine({ summary, detail }: { summary: string; detail: string }) {
  if (!detail) return <p className="chat-tool" data-testid="chat-tool"><span aria-hidden="true">▸ </span>{summary}</p>;
  return (
    <details className="chat-tool" data-testid="chat-tool">
      <summary>{summary}</summary>
      <pre className="chat-tool-detail" data-testid="chat-tool-detail">{detail}</pre>
    </details>
  );
}

function toEnd(): void {
  const page = document.scrollingElement ?? document.documentElement;
  page.scrollTop = page.scrollHeight;
}
