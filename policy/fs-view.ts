// The file system as the policy reads it on this machine (POLPATH-n): readlink(2) that answers
// the usual cases — not a link, no such file — without building an exception each time. The
// policy resolves every component of every path a command names; node's readlinkSync throws a
// fresh error, stack and message formatted, for each component that is not a link.
import * as fs from 'node:fs';
import type { Readlink } from './path-words';

const failure = (code: string): Error => Object.assign(new Error(code), { code });
/** Made once: what `Readlink` throws for a file that is not a symbolic link, and for none. */
const NOT_A_LINK = failure('EINVAL');
const NO_SUCH_FILE = failure('ENOENT');

export const systemReadlink: Readlink = (file) => {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined) throw NO_SUCH_FILE;
  if (!stat.isSymbolicLink()) throw NOT_A_LINK;
  return fs.readlinkSync(file);
};
