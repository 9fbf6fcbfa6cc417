// Runs one build of mcp-smart unbundled (`WIRE_DIST`=its dist folder) with a window the driver brackets with two
// SIGUSR2: over it, V8's sampling heap profiler (objects the GC collected included, so it counts every allocation,
// not what survives). At the second signal the profile goes to `WIRE_PROFILE_OUT` as JSON.
// Used by bench/serve-alloc.mjs.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
let on = false;
process.on('SIGUSR2', () => {
  if (!on) {
    on = true;
    session.post('HeapProfiler.enable', () =>
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    );
    return;
  }
  on = false;
  session.post('HeapProfiler.stopSampling', (error, r) =>
    writeFileSync(
      process.env.WIRE_PROFILE_OUT,
      JSON.stringify(error ? { error: String(error) } : { profile: r.profile }),
    ),
  );
});
const { main } = await import(`${process.env.WIRE_DIST}/cli.js`);
process.exitCode = await main(process);
