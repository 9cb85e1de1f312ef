'use client';
// "Add photo" for a note or a commander message (PHOTO-1): a file input for images with
// no `capture`, so a phone offers camera and gallery. The picture is drawn onto a canvas
// and re-encoded as JPEG (long side at most 2048 px, smaller or lower quality until it fits
// the relay's cap), which also leaves its metadata behind; the relay strips again anyway.
import { useEffect, useState, type ChangeEvent } from 'react';
import { MAX_PHOTO_BYTES, PHOTO_MAX_SIDE } from '../../protocol/photos';
import { PHOTO } from '../lib/words';
import { Button } from './Button';

/** A photo ready to send: base64 for the action, an object URL for the preview. */
export interface AttachedPhoto {
  base64: string;
  url: string;
}

export function PhotoAttach({ value, onChange, testId = 'photo' }: { value: AttachedPhoto | null; onChange(photo: AttachedPhoto | null): void; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => { if (value) URL.revokeObjectURL(value.url); }, [value]);

  async function picked(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file can be picked again after a remove
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      onChange(await prepare(file));
    } catch (err) {
      setError(err instanceof Error ? err.message : PHOTO.notAPicture);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="photo-attach" data-testid={testId}>
      {value ? (
        <figure className="photo-attach-preview">
          {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL, nothing to optimise */}
          <img src={value.url} alt={PHOTO.preview} data-testid={`${testId}-preview`} style={{ maxWidth: 96, maxHeight: 96, borderRadius: 8, objectFit: 'cover' }} />
          <Button onClick={() => onChange(null)} data-testid={`${testId}-remove`}>{PHOTO.remove}</Button>
        </figure>
      ) : (
        <label className="btn" data-testid={`${testId}-add`} aria-disabled={busy || undefined}>
          {busy ? PHOTO.preparing : PHOTO.add}
          <input type="file" accept="image/*" className="visually-hidden" onChange={picked} disabled={busy} data-testid={`${testId}-input`} />
        </label>
      )}
      {error ? <p role="alert" data-testid={`${testId}-error`}>{error}</p> : null}
    </div>
  );
}

/** Decodes the picked file and re-encodes it as a JPEG that fits MAX_PHOTO_BYTES. */
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
        if (blob.size <= MAX_PHOTO_BYTES) return { base64: await base64Of(blob), url: URL.createObjectURL(blob) };
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
