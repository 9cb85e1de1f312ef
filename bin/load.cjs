'use strict';
// Starts a bundled tool from dist/ with a V8 code cache beside it, so every
// bin tool starts within a few milliseconds of a bare `node -e 0`.
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');

module.exports = function load(name) {
  const file = path.join(__dirname, '..', 'dist', name + '.cjs');
  const cacheFile = file + '.v8cache';
  let source;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    process.stderr.write(`commandr: ${file} is missing; run \`npm run build\` in ${path.join(__dirname, '..')}\n`);
    process.exit(70);
  }
  let cachedData;
  try { cachedData = fs.readFileSync(cacheFile); } catch { /* first run */ }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  const localRequire = (id) => mod.require(id);
  localRequire.resolve = (id) => Module._resolveFilename(id, mod);
  script.runInThisContext()(mod.exports, localRequire, mod, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written after the tool ran so lazily compiled functions are included too.
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch { /* a read-only install just runs without the cache */ }
    });
  }
  return mod.exports;
};
