// `node --require <this file>`: every require() the process makes (through createRequire too) is appended, its
// request one a line, to the file named by MCP_SMART_RECORD_REQUIRES. With MCP_SMART_HIDE_RANK_TABLES=1 the built
// rank tables (dist/ranks/*.bin) read as missing, so the CLI loads gpt-tokenizer's modules as it did before them.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');

const record = process.env.MCP_SMART_RECORD_REQUIRES;
if (record) {
  const load = Module._load;
  Module._load = function (request, ...rest) {
    fs.appendFileSync(record, `${request}\n`);
    return load.call(this, request, ...rest);
  };
}
if (process.env.MCP_SMART_HIDE_RANK_TABLES === '1') {
  const readFile = fs.promises.readFile;
  fs.promises.readFile = function (path, ...rest) {
    if (/[\\/]dist[\\/]ranks[\\/][^\\/]+\.bin$/.test(path instanceof URL ? path.pathname : String(path))) {
      return Promise.reject(Object.assign(new Error(`hidden by the test: ${String(path)}`), { code: 'ENOENT' }));
    }
    return readFile.call(this, path, ...rest);
  };
  Module.syncBuiltinESMExports();
}
