'use client';
// The files the task's agent emitted with `emit_artifact` (ARTUI-1..3): name, kind
// and size from the bus events; opening one asks the relay with the authenticated
// `artifact.open` read, fetches the short-lived URL it answers into memory, and
// shows it from a blob: images inline, markdown through the brief's safe renderer,
// text escaped (highlighted when the language is known), anything else as a download.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ArtifactOpenResult } from '../../protocol/wire/questions';
import { Button } from '../components/Button';
import { languageOf } from '../components/diff/languages';
import { read } from '../lib/actions';
import { clientError, sentence, toClientError, type ClientError } from '../lib/errors';
import { plural } from '../lib/plural';
import { artifactName, artifactsOf, downloadName, formatBytes, KIND_LABEL, type EmittedArtifact } from './artifact-list';
import { renderMarkdown } from './markdown';
import type { TimelineItem } from './timeline';
import '../components/diff/diff.css';
import './artifacts.css';

/** Text beyond this many characters is cut on screen (the download has all of it). */
const TEXT_SHOWN = 200_000;
/** Highlighting only below this size: it runs on the main thread. */
const HIGHLIGHT_MAX = 100_000;

type Opened =
  | { status: 'loading' }
  | { status: 'error'; error: ClientError }
  | { status: 'image' | 'file'; url: string }
  | { status: 'markdown'; html: string; url: string; cut: boolean }
  | { status: 'text'; text: string; url: string; cut: boolean };

export function Artifacts({ repo, task, items }: { repo: string; task: string; items: TimelineItem[] }) {
  const artifacts = useMemo(() => artifactsOf(items, task), [items, task]);
  if (artifacts.length === 0) return null;
  return (
    <section className="task-section" aria-labelledby="artifacts-title" data-testid="artifacts">
      <h2 id="artifacts-title" className="group-title">Artifacts · {plural(artifacts.length, 'file')}</h2>
      <ul className="stack artifact-list">
        {artifacts.map((a) => <ArtifactRow key={a.artifact} repo={repo} task={task} artifact={a} />)}
      </ul>
    </section>
  );
}

function ArtifactRow({ repo, task, artifact: a }: { repo: string; task: string; artifact: EmittedArtifact }) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const generation = useRef(0);
  const name = artifactName(a);
  // Every blob URL this row made is revoked when it closes or leaves the screen.
  const blobUrl = opened && 'url' in opened ? opened.url : null;
  useEffect(() => () => { if (blobUrl) URL.revokeObjectURL(blobUrl); }, [blobUrl]);
  useEffect(() => () => { generation.current++; }, []);

  const open = () => {
    const mine = ++generation.current;
    setOpened({ status: 'loading' });
    openArtifact(repo, task, a)
      .then((result) => {
        if (generation.current === mine) setOpened(result);
        else if ('url' in result) URL.revokeObjectURL(result.url);
      })
      .catch((e: unknown) => generation.current === mine && setOpened({ status: 'error', error: toClientError(e) }));
  };
  const close = () => {
    generation.current++;
    setOpened(null);
  };

  return (
    <li className="card artifact" data-testid="artifact" data-artifact={a.artifact} data-kind={a.kind}>
      <div className="artifact-head">
        <div className="artifact-title">
          <strong data-testid="artifact-name">{name}</strong>
          <div className="task-meta">
            <span className="pill" data-testid="artifact-kind">{KIND_LABEL[a.kind]}</span>
            <span data-testid="artifact-size">{formatBytes(a.bytes)}</span>
            {a.title ? <span className="mono artifact-path">{a.path}</span> : null}
          </div>
        </div>
        {opened && opened.status !== 'loading' && opened.status !== 'error'
          ? <Button onClick={close} data-testid="artifact-close" aria-label={`Hide ${name}`}>Hide</Button>
          : <Button onClick={open} disabled={opened?.status === 'loading'} data-testid="artifact-open" aria-label={`Open ${name}`}>
            {opened?.status === 'loading' ? 'Opening…' : 'Open'}
          </Button>}
      </div>
      {a.summary ? <p className="artifact-summary">{a.summary}</p> : null}
      {opened ? <ArtifactBody opened={opened} artifact={a} name={name} /> : null}
    </li>
  );
}

function ArtifactBody({ opened, artifact: a, name }: { opened: Opened; artifact: EmittedArtifact; name: string }) {
  switch (opened.status) {
    case 'loading': return <p className="muted" data-testid="artifact-loading">Opening {name}…</p>;
    case 'error': return <p className="notice artifact-error" data-tone="danger" role="alert" data-testid="artifact-error">{sentence(opened.error)}</p>;
    case 'image':
      return (
        <figure className="artifact-figure">
          {/* eslint-disable-next-line @next/next/no-img-element -- a blob made from the relay's answer, not a page asset */}
          <img src={opened.url} alt={name} data-testid="artifact-image" className="artifact-image" />
        </figure>
      );
    case 'markdown':
      return (
        <>
          <article className="task-body artifact-markdown" data-testid="artifact-markdown" dangerouslySetInnerHTML={{ __html: opened.html }} />
          {opened.cut ? <Cut url={opened.url} artifact={a} /> : null}
        </>
      );
    case 'text':
      return (
        <>
          <TextView text={opened.text} path={a.path} />
          {opened.cut ? <Cut url={opened.url} artifact={a} /> : null}
        </>
      );
    case 'file':
      return (
        <p className="artifact-download">
          <span className="muted">This file is not shown in the app.</span>{' '}
          <a className="btn" data-variant="primary" href={opened.url} download={downloadName(a)} data-testid="artifact-download">Download {downloadName(a)}</a>
        </p>
      );
  }
}

function Cut({ url, artifact: a }: { url: string; artifact: EmittedArtifact }) {
  return (
    <p className="muted artifact-download">
      Only the first {TEXT_SHOWN.toLocaleString()} characters are shown.{' '}
      <a className="btn" href={url} download={downloadName(a)} data-testid="artifact-download">Download all of it</a>
    </p>
  );
}

/** Escaped text; coloured once highlight.js (loaded after it painted) knows the language. */
function TextView({ text, path }: { text: string; path: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    const lang = languageOf(path);
    if (!lang || text.length > HIGHLIGHT_MAX) return;
    let cancelled = false;
    void import('../components/diff/highlight')
      .then((m) => m.loadHighlighter([path]))
      .then((h) => { if (!cancelled) setHtml(h.highlight(lang, text)); })
      .catch(() => undefined); // colour is optional
    return () => { cancelled = true; };
  }, [text, path]);
  return (
    <pre className="artifact-text diff-code" data-testid="artifact-text">
      {html === null ? <code>{text}</code> : <code dangerouslySetInnerHTML={{ __html: html }} />}
    </pre>
  );
}

/** `artifact.open` on the authenticated socket, then the granted URL (same origin, relative) into a blob. */
async function openArtifact(repo: string, task: string, a: EmittedArtifact): Promise<Opened> {
  const answer = ArtifactOpenResult.safeParse(await read('artifact.open', { repo, task, artifact: a.artifact }));
  if (!answer.success || answer.data.artifact !== a.artifact) throw clientError('E_BAD_FRAME', 'The relay answered something that is not this artifact. Try again.');
  const granted = answer.data;
  let response: Response;
  try {
    response = await fetch(granted.url, { cache: 'no-store', credentials: 'omit', redirect: 'error' });
  } catch {
    throw clientError('E_OFFLINE');
  }
  if (!response.ok) throw await httpError(response);
  const bytes = await response.arrayBuffer();
  if (bytes.byteLength !== granted.bytes) throw clientError('E_CONFLICT', `the file is ${bytes.byteLength} bytes, not the ${granted.bytes} the relay announced; open it again`);
  if (granted.kind === 'image') return { status: 'image', url: URL.createObjectURL(new Blob([bytes], { type: imageType(granted.mime) })) };
  // Anything not shown in the app is handed over as opaque bytes: never a type the browser would render.
  const download = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  if (granted.kind === 'file') return { status: 'file', url: download };
  const whole = new TextDecoder('utf-8').decode(bytes);
  const cut = whole.length > TEXT_SHOWN;
  const text = cut ? whole.slice(0, TEXT_SHOWN) : whole;
  if (granted.kind === 'markdown') return { status: 'markdown', html: renderMarkdown(text), url: download, cut };
  return { status: 'text', text, url: download, cut };
}

/** Only the raster types the relay serves as images; anything else could not be one (ARTIFACT-1). */
function imageType(mime: string): string {
  return /^image\/(png|jpeg|gif|webp)$/.test(mime) ? mime : 'application/octet-stream';
}

async function httpError(response: Response): Promise<ClientError> {
  try {
    const body = (await response.json()) as { error?: unknown };
    return toClientError(body.error);
  } catch {
    return clientError(response.status === 401 ? 'E_UNAUTHORIZED' : 'E_INTERNAL');
  }
}
