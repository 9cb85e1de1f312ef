// How a note's anchor reads to a person (REVIEW-6): `general`, `card:<file>` and
// `line:<file>:<n>` are the bus's words; the screens say "the whole task", "the file …"
// and "line n of …".

/** "The whole task", "The file src/a.js", "Line 3 of src/a.js"; an anchor of another shape as it is. */
export function anchorLabel(anchor: string): string {
  if (anchor === 'general') return 'The whole task';
  if (anchor.startsWith('card:')) return `The file ${anchor.slice(5)}`;
  const at = anchor.lastIndexOf(':');
  if (anchor.startsWith('line:') && at > 5) return `Line ${anchor.slice(at + 1)} of ${anchor.slice(5, at)}`;
  return anchor;
}

/** The label inside a sentence: "Note from Ana on line 3 of src/a.js". */
export function anchorPhrase(anchor: string): string {
  const label = anchorLabel(anchor);
  return label === anchor ? anchor : label[0]!.toLowerCase() + label.slice(1);
}
