// A sentence for a person whose commands are written `like this` (lib/errors.ts): each
// backticked part is shown as <code>, never with the backticks themselves.
export function Prose({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd count of backticks leaves the last one unpaired: it is shown as it is.
  if (parts.length % 2 === 0) return <>{text}</>;
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
