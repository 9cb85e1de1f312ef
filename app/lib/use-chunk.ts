// A screen's part that is fetched apart from the page (a sheet, LAZY-1): loaded when wanted, and
// when its code cannot be fetched (offline before the page fetched it, no service worker) the
// screen is told so and can say it in a sentence — never the page's crash. Asked again, it retries.
import { useEffect, useState } from 'react';

export type Chunk<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed' };

export function useChunk<T>(load: () => Promise<T>, wanted: boolean): Chunk<T> {
  const [chunk, setChunk] = useState<Chunk<T>>({ status: 'loading' });
  useEffect(() => {
    if (!wanted || chunk.status === 'ready') return;
    let live = true;
    setChunk({ status: 'loading' });
    load().then((value) => live && setChunk({ status: 'ready', value }), () => live && setChunk({ status: 'failed' }));
    return () => { live = false; };
  }, [wanted]); // eslint-disable-line react-hooks/exhaustive-deps -- load is a module-level loader; a ready chunk stays
  return chunk;
}
