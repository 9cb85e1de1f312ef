'use client';
// Sent photos as small thumbnails (PHOTO-10): each read back from the relay with `photo.read`
// (a paired device's socket, the relay's own name, PHOTO-9), shown in a fixed box that does not
// change size when the picture arrives, with alt text; a tap opens it larger over the screen.
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { read } from '../lib/actions';
import { useRelay } from '../lib/store';
import { PHOTOS } from '../lib/words';
import { Button } from './Button';
import './photos.css';

/** Whose photos: a note's (its repo and task) or a commander message's. */
export type PhotoSource = { repo: string; task: string } | { commander: string };

const cache = new Map<string, Promise<string>>();

/** An object URL for the kept photo, read once per page (a failed read is tried again later). */
function photoUrl(source: PhotoSource, name: string): Promise<string> {
  const key = `${JSON.stringify(source)}/${name}`;
  let url = cache.get(key);
  if (!url) {
    url = read('photo.read', { ...source, name }).then((result) => {
      const { mime, base64 } = result as { mime: string; base64: string };
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      return URL.createObjectURL(new Blob([bytes], { type: mime }));
    });
    url.catch(() => cache.delete(key));
    cache.set(key, url);
  }
  return url;
}

export function PhotoThumbs({ names, source, testId }: { names: string[]; source: PhotoSource; testId: string }) {
  const [open, setOpen] = useState<number | null>(null);
  if (names.length === 0) return null;
  const n = names.length;
  return (
    <>
      <ul className="photo-thumbs" aria-label={PHOTOS.group} data-testid={`${testId}s`}>
        {names.map((name, i) => (
          <li key={name}>
            <Thumb name={name} source={source} label={PHOTOS.thumb(i + 1, n)} open={PHOTOS.open(i + 1, n)} onOpen={() => setOpen(i)} testId={testId} />
          </li>
        ))}
      </ul>
      {open !== null && names[open] ? (
        <Viewer name={names[open]} source={source} label={PHOTOS.large(open + 1, n)} onClose={() => setOpen(null)} testId={`${testId}-viewer`} />
      ) : null}
    </>
  );
}

function usePhoto(source: PhotoSource, name: string): { url: string | null; failed: boolean } {
  const live = useRelay((s) => s.connection.state === 'live');
  const [state, setState] = useState<{ url: string | null; failed: boolean }>({ url: null, failed: false });
  const key = JSON.stringify(source);
  useEffect(() => {
    if (!live) return;
    let gone = false;
    photoUrl(JSON.parse(key) as PhotoSource, name).then(
      (url) => { if (!gone) setState({ url, failed: false }); },
      () => { if (!gone) setState({ url: null, failed: true }); },
    );
    return () => { gone = true; };
  }, [live, key, name]);
  return state;
}

function Thumb({ name, source, label, open, onOpen, testId }: { name: string; source: PhotoSource; label: string; open: string; onOpen(): void; testId: string }) {
  const { url, failed } = usePhoto(source, name);
  return (
    <button type="button" className="photo-thumb" onClick={onOpen} disabled={!url} aria-label={open} title={failed ? PHOTOS.unavailable : open}
      data-testid={testId} data-photo={name} data-state={url ? 'shown' : failed ? 'failed' : 'loading'}>
      {/* eslint-disable-next-line @next/next/no-img-element -- an object URL of bytes read over the socket */}
      {url ? <img src={url} alt={label} width={72} height={72} /> : <span aria-hidden={!failed}>{failed ? PHOTOS.unavailable : '📷'}</span>}
    </button>
  );
}

function Viewer({ name, source, label, onClose, testId }: { name: string; source: PhotoSource; label: string; onClose(): void; testId: string }) {
  const { url } = usePhoto(source, name);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  // Over everything: a portal to the body, out of the card's and the page's stacking contexts (the action bar, the nav).
  return createPortal(
    <div className="photo-viewer" role="dialog" aria-modal="true" aria-label={label} data-testid={testId} onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      {/* eslint-disable-next-line @next/next/no-img-element -- an object URL of bytes read over the socket */}
      {url ? <img src={url} alt={label} data-testid={`${testId}-image`} /> : null}
      <Button onClick={onClose} autoFocus data-testid={`${testId}-close`}>{PHOTOS.close}</Button>
    </div>,
    document.body,
  );
}
