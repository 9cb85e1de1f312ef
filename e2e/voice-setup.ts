// Test inputs for the voice specs: a WAV file the fake microphone plays, a
// stand-in transcriber, and a Web Speech replacement that "hears" fixed words.
import { chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A mono 16-bit PCM WAV: `seconds` of a 440 Hz tone. */
export function sineWav(file: string, seconds = 2, rate = 16_000): string {
  const samples = seconds * rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  writeFileSync(file, Buffer.concat([header, data]));
  return file;
}

/** Made when the spec module loads, before the browser launches with it. */
export const FAKE_AUDIO = sineWav(path.join(tmpdir(), `commandr-e2e-voice-${process.pid}.wav`));

/** Prints what it got: the file's extension and first bytes' magic, so the test sees real webm arrived. */
export function standInTranscriber(dir: string): string {
  const script = path.join(dir, 'transcriber.js');
  writeFileSync(script, [
    "const fs = require('fs');",
    'const file = process.argv[process.argv.length - 1];',
    'const head = fs.readFileSync(file).subarray(0, 4).toString("hex");',
    "const webm = head === '1a45dfa3';",
    "process.stdout.write((webm ? 'please rename the helper' : 'not webm ' + head) + '\\n');",
  ].join('\n'));
  chmodSync(script, 0o755);
  return `node ${script}`;
}

/** An init script: a SpeechRecognition that emits an interim then a final result, ends on stop(). */
export const FAKE_SPEECH = `
(() => {
  class FakeRecognition {
    constructor() { this.continuous = false; this.interimResults = false; this.lang = ''; this.onresult = null; this.onerror = null; this.onend = null; }
    start() {
      window.__speechStarted = (window.__speechStarted || 0) + 1;
      const emit = (results) => this.onresult && this.onresult({ resultIndex: 0, results });
      setTimeout(() => emit([{ isFinal: false, 0: { transcript: 'check the' } }]), 50);
      setTimeout(() => emit([{ isFinal: true, 0: { transcript: 'check the null case' } }]), 150);
    }
    stop() { setTimeout(() => this.onend && this.onend(), 10); }
    abort() { this.stop(); }
  }
  window.SpeechRecognition = FakeRecognition;
  window.webkitSpeechRecognition = FakeRecognition;
})();`;

/** An init script: no Web Speech at all (as in Firefox), so recording is the way. */
export const NO_SPEECH = 'delete window.SpeechRecognition; delete window.webkitSpeechRecognition;';
