// The Web Speech API as a small typed surface (VOICE-1). Chromium ships it as
// `webkitSpeechRecognition`; it is absent in Firefox and in most webviews.

export interface SpeechResultLike { isFinal: boolean; 0: { transcript: string } }
export interface SpeechEventLike { resultIndex: number; results: ArrayLike<SpeechResultLike> }
export interface Recognizer {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((e: SpeechEventLike) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognizerClass = new () => Recognizer;

export function speechRecognition(): RecognizerClass | null {
  if (typeof window === 'undefined') return null;
  const w = window as unknown as { SpeechRecognition?: RecognizerClass; webkitSpeechRecognition?: RecognizerClass };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** Everything heard so far in this session: final parts then the current guess. */
export function transcriptOf(e: SpeechEventLike): string {
  let text = '';
  for (let i = 0; i < e.results.length; i++) text += e.results[i][0].transcript;
  return text.trim();
}

/** Joins dictated text onto what is already in the box. */
export function joinText(before: string, heard: string): string {
  if (!heard) return before;
  if (!before.trim()) return heard;
  return /\s$/.test(before) ? before + heard : `${before} ${heard}`;
}

const SPEECH_ERRORS: Record<string, string> = {
  'not-allowed': 'The microphone is blocked for this site. Allow it in the browser’s site settings, or type instead.',
  'service-not-allowed': 'This browser does not allow speech recognition here.',
  'audio-capture': 'No microphone was found.',
  network: 'Speech recognition needs a network connection the browser could not reach.',
  'no-speech': 'No speech was heard. Hold the button and speak.',
};

export function speechErrorSentence(code: string): string {
  return SPEECH_ERRORS[code] ?? `Speech recognition stopped (${code}). Type instead, or try again.`;
}
