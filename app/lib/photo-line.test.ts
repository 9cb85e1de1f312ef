import { describe, expect, it } from 'vitest';
import { splitPhotoLine } from './photo-line';

const sha = 'a'.repeat(64);

describe('photo line', () => {
  it('PHOTO-6: the relay\'s last line is split off with the file name; a photo-only note has no text; other text is left alone', () => {
    expect(splitPhotoLine(`Look here\n\nPhoto attached: /r/.agents/annotations/T-1/${sha}.jpg`)).toEqual({ text: 'Look here', photo: `${sha}.jpg` });
    expect(splitPhotoLine(`Photo attached: /d/commanders/c-1/photos/${sha}.png`)).toEqual({ text: '', photo: `${sha}.png` });
    expect(splitPhotoLine('Photo attached: /etc/passwd')).toEqual({ text: 'Photo attached: /etc/passwd', photo: null });
    expect(splitPhotoLine(`Photo attached: /x/${sha}.jpg\nmore`)).toEqual({ text: `Photo attached: /x/${sha}.jpg\nmore`, photo: null });
  });
});
