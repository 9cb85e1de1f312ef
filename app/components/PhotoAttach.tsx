'use client';
// "Add photo" for a note or a commander message (PHOTO-1, PHOTO-8): a file input for images with
// no `capture`, so a phone offers camera and gallery, taking up to MAX_PHOTOS. Each picture is drawn
// onto a canvas and re-encoded as JPEG (long side at most 2048 px, smaller or lower quality until it
// fits its share of the relay's total cap), which also leaves its metadata behind; the relay strips
// again anyway.
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { MAX_PHOTOS, MAX_PHOTOS_TOTAL_BYTES, PHOTO_MAX_SIDE } from '../../protocol/photos';
import { PHOTO, PHOTOS } from '../lib/words';
import { Button } from './Button';
import './photos.css';

/** A photo ready to send: base64 for the action, an object URL for the preview. */
export interface AttachedPhoto {
  base64: string;
  url: string;
}

/** Each photo's share of the total, so any MAX_PHOTOS of them fit one action (PHOTO-8). */
export const PHOTO_SHARE_BYTES = Math.floor(MAX_PHOTOS_TOTAL_BYTES / MAX_PHOTOS);

export function PhotoAttach({ value, onChange, testId = 'photo' }: { value: AttachedPhoto[]; onChange(photos: AttachedPhoto[]): void; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Object URLs are freed when their photo leaves the list (removed or sent) and when the sheet closes.
  const shown = useRef<AttachedPhoto[]>([]);
  useEffect(() => {
    for (const old of shown.current) if (!value.includes(old)) URL.revokeObjectURL(old.url);
    // Fewer photos (one removed, or all sent with the message): what was said about the last pick
    // ("At most 4 photos…") no longer holds, and a composer that stays open must not keep saying it (PHOTO-11).
    if (value.length < shown.current.length) setError(null);
    shown.current = value;
  }, [value]);
  useEffect(() => () => { for (const p of shown.current) URL.revokeObjectURL(p.url); }, []);

  async function picked(e: ChangeEvent<HTMLInputElement>) {
    const files = [...(e.target.files ?? [])];
    e.target.value = ''; // the same file can be picked again after a remove
    if (files.length === 0) return;
    const room = MAX_PHOTOS - value.length;
    setError(files.length > room ? PHOTOS.tooMany(MAX_PHOTOS) : null);
    setBusy(true);
    const added: AttachedPhoto[] = [];
    try {
      for (const file of files.slice(0, room)) added.push(await prepare(file));
    } catch (err) {
      setError(err instanceof Error ? err.message : PHOTO.notAPicture);
    } finally {
      setBusy(false);
    }
    if (added.length > 0) onChange([...value, ...added]);
  }

  const n = value.length;
  return (
    <div className="photo-attach" data-testid={testId} data-count={n}>
      {n > 0 ? (
        <ul className="photo-attach-list" aria-label={PHOTO.preview}>
          {value.map((photo, i) => (
            <li key={photo.url} className="photo-attach-preview">
              {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL, nothing to optimise */}
              <img src={photo.url} alt={`${PHOTO.preview} ${i + 1}`} width={64} height={64} data-testid={`${testId}-preview`} />
              <button type="button" className="photo-attach-remove" onClick={() => onChange(value.filter((p) => p !== photo))} aria-label={PHOTOS.removeOne(i + 1, n)} title={PHOTOS.removeOne(i + 1, n)} data-testid={`${testId}-remove`}>×</button>
            </li>
          ))}
        </ul>
      ) : null}
      {n < MAX_PHOTOS ? (
        <label className="btn" data-testid={`${testId}-add`} aria-disabled={busy || undefined}>
          {busy ? PHOTO.preparing : n === 0 ? PHOTO.add : PHOTOS.addMore}
          <input type="file" accept="image/*" multiple className="visually-hidden" onChange={picked} disabled={busy} data-testid={`${testId}-input`} />
        </label>
      ) : null}
      {error ? <p role="alert" data-testid={`${testId}-error`}>{error}</p> : null}
    </div>
  );
}

/** Decodes the picked file and re-encodes it as a JPEG that fits PHOTO_SHARE_BYTES. */
async function prepare(file: File): Promise<AttachedPhoto> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file); // honours the EXIF orientation, then we never copy the EXIF
  } catch {
    throw new Error(PHOTO.notAPicture);
  }
  try {
    for (let side = PHOTO_MAX_SIDE; side >= 256; side = Math.round(side * 0.75)) {
      for (const quality of [0.85, 0.7, 0.55]) {
        const blob = await encode(bitmap, side, quality);
        if (blob.size <= PHOTO_SHARE_BYTES) return { base64: await base64Of(blob), url: URL.createObjectURL(blob) };
      }
    }
  } finally {
    bitmap.close();
  }
  throw new Error(PHOTO.tooLarge);
}

function encode(bitmap: ImageBitmap, side: number, quality: number): Promise<Blob> {
  const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const g = canvas.getContext('2d');
  if (!g) return Promise.reject(new Error(PHOTO.notAPicture));
  g.fillStyle = '#fff'; // JPEG has no transparency: transparent pixels become white, not black
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(PHOTO.notAPicture))), 'image/jpeg', quality));
}

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
