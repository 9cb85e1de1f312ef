// Counted nouns read right: "1 unread note", "2 unread notes" (UX-10). English only.
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : many}`;
}
