'use client';
// A text box with hold-to-talk (VOICE-1..3). Dictation fills the box; the person
// edits it and sends it with the form it sits in — voice never sends by itself.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { sentence, toClientError } from '../../lib/errors';
import { joinText, speechErrorSentence, speechRecognition, transcriptOf, type Recognizer } from './speech';
import { transcribe, transcriberAvailable } from './transcribe-client';
import './voice.css';

type Capability = 'checking' | 'speech' | 'record' | 'none';
type Phase = 'idle' | 'listening' | 'recording' | 'transcribing';

export interface VoiceInputProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  rows?: number;
  testId?: string;
  /** The label is for screen readers only and the box shows it as its placeholder (a chat's composer). */
  hideLabel?: boolean;
}

const FATAL_SPEECH = new Set(['not-allowed', 'service-not-allowed', 'audio-capture', 'network']);

export function VoiceInput({ id, label, value, onChange, rows = 4, testId = 'voice-text', hideLabel = false }: VoiceInputProps) {
  const [capability, setCapability] = useState<Capability>('checking');
  const [canRecord, setCanRecord] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [message, setMessage] = useState<string | null>(null);
  /** Audio pieces recorded so far (the recorder hands one over every 250 ms). */
  const [pieces, setPieces] = useState(0);
  const valueRef = useRef(value);
  valueRef.current = value;
  const session = useRef<{ stop(): void } | null>(null);

  useEffect(() => {
    let cancelled = false;
    const hasRecorder = typeof MediaRecorder !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
    void (hasRecorder ? transcriberAvailable() : Promise.resolve(false)).then((available) => {
      if (cancelled) return;
      setCanRecord(available);
      setCapability(speechRecognition() ? 'speech' : available ? 'record' : 'none');
    });
    return () => { cancelled = true; session.current?.stop(); };
  }, []);

  function start() {
    if (phase !== 'idle') return;
    setMessage(null);
    if (capability === 'speech') startSpeech();
    else if (capability === 'record') void startRecording();
  }

  function stop() {
    session.current?.stop();
  }

  function startSpeech() {
    const Recognition = speechRecognition();
    if (!Recognition) return;
    const before = valueRef.current;
    const rec: Recognizer = new Recognition();
    rec.continuous = true;
    rec.interimResults = true;
    rec.lang = navigator.language || 'en-US';
    rec.onresult = (e) => onChange(joinText(before, transcriptOf(e)));
    rec.onerror = (e) => {
      if (FATAL_SPEECH.has(e.error) && canRecord) {
        setCapability('record');
        setMessage(`${speechErrorSentence(e.error)} Hold the button to record instead; the relay will transcribe it.`);
      } else if (e.error !== 'aborted') {
        setMessage(speechErrorSentence(e.error));
      }
    };
    rec.onend = () => { session.current = null; setPhase('idle'); };
    session.current = { stop: () => rec.stop() };
    setPhase('listening');
    try {
      rec.start();
    } catch {
      session.current = null;
      setPhase('idle');
    }
  }

  async function startRecording() {
    setPhase('recording');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setPhase('idle');
      setMessage('The microphone is blocked or missing. Allow it in the browser’s site settings, or type instead.');
      return;
    }
    const recorder = new MediaRecorder(stream);
    const parts: Blob[] = [];
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) parts.push(e.data);
      setPieces(parts.length);
    };
    recorder.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      session.current = null;
      void upload(new Blob(parts, { type: recorder.mimeType || 'audio/webm' }));
    };
    session.current = { stop: () => recorder.state !== 'inactive' && recorder.stop() };
    setPieces(0);
    recorder.start(250);
  }

  async function upload(audio: Blob) {
    if (audio.size === 0) {
      setPhase('idle');
      setMessage('Nothing was recorded. Hold the button while you speak.');
      return;
    }
    setPhase('transcribing');
    try {
      const text = await transcribe(audio);
      if (text) onChange(joinText(valueRef.current, text));
      else setMessage('The transcriber heard no words. Try again, closer to the microphone.');
    } catch (e) {
      const error = toClientError(e);
      setMessage(error.message && error.code !== 'E_INTERNAL' ? sentence(error) : `Transcription failed: ${error.message}`);
    } finally {
      setPhase('idle');
    }
  }

  const keyDown = (e: KeyboardEvent) => {
    if ((e.key === ' ' || e.key === 'Enter') && !e.repeat) { e.preventDefault(); start(); }
  };
  const keyUp = (e: KeyboardEvent) => {
    if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); stop(); }
  };
  const active = phase === 'listening' || phase === 'recording';

  return (
    <div className="voice">
      <div className="field">
        <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>{label}</label>
        <textarea id={id} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} placeholder={hideLabel ? label : undefined} data-testid={testId} />
      </div>
      {capability === 'speech' || capability === 'record' ? (
        <button type="button" className="btn voice-talk" data-active={active} aria-pressed={active}
          onPointerDown={(e) => { e.currentTarget.setPointerCapture?.(e.pointerId); start(); }}
          onPointerUp={stop} onPointerCancel={stop} onKeyDown={keyDown} onKeyUp={keyUp}
          onContextMenu={(e) => e.preventDefault()}
          disabled={phase === 'transcribing'} data-testid="voice-talk" data-mode={capability} data-pieces={pieces}>
          {phase === 'listening' ? 'Listening… release to stop' : phase === 'recording' ? 'Recording… release to stop'
            : phase === 'transcribing' ? 'Transcribing…' : 'Hold to talk'}
        </button>
      ) : null}
      <p className="voice-status muted" role="status" data-testid="voice-status">
        {capability === 'none'
          ? 'Voice input is not available here: this browser has no speech recognition and the relay has no transcriber set up (COMMANDR_TRANSCRIBE_CMD). Type your note instead.'
          : phase === 'transcribing' ? 'Sending the recording to the relay to transcribe…' : message ?? (capability === 'record' ? 'Recorded audio is transcribed by the relay; check the text before sending.' : '')}
      </p>
    </div>
  );
}
