// Agent-written text bound for a person's screen as one plain line (CARD-2): control,
// zero-width and bidi-override characters would let it hide or reorder what the card
// says, so they become spaces; runs of space collapse; over `max` it is cut with "…".
// Shared by the hook (which cuts before sending) and the relay (which cleans again).

const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]+/g;

/** `text` as one visible line of at most `max` UTF-16 units (never a broken surrogate pair). */
export function plainLine(text: string, max: number): string {
  const line = text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  let cut = line.slice(0, Math.max(0, max - 1));
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
