import { describe, expect, it } from 'vitest';
import { splitPhotoLine, splitPhotoLines } from './photo-line';

const sha = 'a'.repeat(64);

describe('photo line', () => {
  it('PHOTO-6: the relay\'s last line is split off with the file name; a photo-only note has no text; other text is left alone', () => {
    expect(splitPhotoLine(`Look here\n\nPhoto attached: /r/.agents/annotations/T-1/${sha}.jpg`)).toEqual({ text: 'Look here', photo: `${sha}.jpg` });
    expect(splitPhotoLine(`Photo attached: /d/commanders/c-1/photos/${sha}.png`)).toEqual({ text: '', photo: `${sha}.png` });
    expect(splitPhotoLine('Photo attached: /etc/passwd')).toEqual({ text: 'Photo attached: /etc/passwd', photo: null });
    expect(splitPhotoLine(`Photo attached: /x/${sha}.jpg\nmore`)).toEqual({ text: `Photo attached: /x/${sha}.jpg\nmore`, photo: null });
  });
  it('PHOTO-8 PHOTO-10: several photo lines, one a line, split off in order; a photo line in the middle of the text is text', () => {
    const b = 'b'.repeat(64);
    expect(splitPhotoLines(`Two\n\nPhoto attached: /r/a/${sha}.jpg\nPhoto attached: /r/a/${b}.png`)).toEqual({ text: 'Two', photos: [`${sha}.jpg`, `${b}.png`] });
    expect(splitPhotoLines(`Photo attached: /r/a/${sha}.jpg\nPhoto attached: /r/a/${b}.webp`)).toEqual({ text: '', photos: [`${sha}.jpg`, `${b}.webp`] });
    expect(splitPhotoLines(`Text\nPhoto attached: /r/a/${sha}.jpg`)).toEqual({ text: `Text\nPhoto attached: /r/a/${sha}.jpg`, photos: [] });
    expect(splitPhotoLines(`Photo attached: /r/a/${sha}.jpg\n\nafter`)).toEqual({ text: `Photo attached: /r/a/${sha}.jpg\n\nafter`, photos: [] });
    expect(splitPhotoLines(`x\n\nPhoto attached: ../${sha}.jpg`)).toEqual({ text: `x\n\nPhoto attached: ../${sha}.jpg`, photos: [] });
  });
});
